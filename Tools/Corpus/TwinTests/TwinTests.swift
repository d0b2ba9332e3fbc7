// Tests of the twins, added after the migration (Tools/scripts/migrate-corpus.sh copies this
// file into Tests/AppCoreTests): each call would not compile, or would fail, if a twin were
// missing or resolved the other way.

import AppCore
import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

@MainActor
final class TwinTests: XCTestCase {
    func testAsyncTwinsThroughTheProtocol() async throws {
        let service: any UserServicing = LiveUserService(client: Samples.client())
        let user: User = try await service.fetchUser(id: 1)
        XCTAssertEqual(user, Samples.ada)
        let byEmail: User = try await service.fetchUser(email: "grace@example.com")
        XCTAssertEqual(byEmail, Samples.grace)
        let ids: [Int] = try await service.userIDs()
        XCTAssertEqual(ids, [1, 2, 3])
    }

    func testAsyncTwinOfANonSendableServiceFromTheMainActor() async throws {
        let live = LiveUserService(client: Samples.client())
        let user: User = try await live.fetchUser(id: 2)
        XCTAssertEqual(user, Samples.grace)
        let fake = FakeUserService(users: Samples.users)
        let viaFake: User = try await fake.fetchUser(id: 1)
        XCTAssertEqual(viaFake, Samples.ada)
    }

    func testTypedErrorTwinThrowsTheError() async {
        let client = Samples.client()
        do {
            let _: Data = try await client.get("/missing")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? APIError, .notFound)
        }
    }

    func testCancellingTheAwaitingTaskCancelsTheRequestThroughTheTwin() async {
        let client = Samples.client(latency: 5)
        let task = Task { () async throws -> Data in try await client.get("/users/1") }
        try? await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let started = Date()
        let result = await task.result
        XCTAssertLessThan(Date().timeIntervalSince(started), 4)
        XCTAssertThrowsError(try result.get()) { error in XCTAssertTrue(error is CancellationError) }
    }

    func testTwinsOfFreeFunctionsGenericsAndTypealiases() async throws {
        let fake = FakeUserService(users: Samples.users)
        let users: [User] = try await fetchUsers(ids: [1, 2], from: fake)
        XCTAssertEqual(users, Samples.users)
        let greeting: String = try await AppCore.greeting(for: 2, service: fake, namer: "dear")
        XCTAssertEqual(greeting, "Hello dear Grace")
        let current: User = try await currentUser(service: fake)
        XCTAssertEqual(current, Samples.ada)
        let names: [String] = try await AppCore.names(of: [1], service: fake)
        XCTAssertEqual(names, ["Ada"])
    }

    func testSettingTwinReadsTheSettingAndTheOldCodeStillDoes() async throws {
        let setting: Setting = try await fetchSetting("theme")
        XCTAssertEqual(setting, Setting(key: "theme", value: 5))
        let described = try await describeSetting()
        XCTAssertEqual(described, "Setting(key: \"theme\", value: 5)", "the pinned bridge still reads the Setting")
        let store = SettingsStore()
        let font: Setting = try await store.fetchSetting("font")
        XCTAssertEqual(font.value, 12)
        let keys: [String] = try await store.keys()
        XCTAssertEqual(keys, ["font", "theme"])
    }

    func testRepositoryTwinsDispatchToOverrides() async throws {
        let posts = PostRepository(client: Samples.client(), path: "/posts")
        let all: [Post] = try await posts.all()
        XCTAssertEqual(all.map(\.id), [2, 1], "the base twin reaches the override")
        let description: String = try await PostRepository.describe()
        XCTAssertEqual(description, "PostRepository")
        let latest: [Post] = try await posts.latest(limit: 1)
        XCTAssertEqual(latest.map(\.id), [2])
        let fromSource: [Post] = try await StaticSource().latest(limit: 1)
        XCTAssertEqual(fromSource.map(\.title), ["Static"])
    }

    func testTokenTwinAndDiscardableTwin() async throws {
        let polled: Int = try await Poller().poll(token: PromiseInvalidationToken())
        XCTAssertEqual(polled, 1)
        let client = Samples.client()
        try await client.ping()
        XCTAssertEqual(client.requested, ["/ping"])
    }

    func testFeedTwins() async throws {
        let service = FeedService(users: Samples.users, posts: [Post(id: 1, authorID: 2, title: "Compilers")])
        let entries: [FeedEntry] = try await service.entries()
        XCTAssertEqual(entries.map(\.author), [Samples.grace])
        let titles: [String] = try await service.widgetTitles(within: 5)
        XCTAssertEqual(titles, ["Compilers"])
        do {
            let _: User = try await service.author(id: 7)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? APIError, .notFound)
        }
    }

    func testPromiseTwinsForOldCallers() {
        let defaults = SettingsDefaults()
        let promise: Promise<[String: Int], NoError> = defaults.defaults()
        let validated: Promise<Int, StoreError> = defaults.validate(-1, for: "font")
        let reset: StdPromise<Void> = SettingsDefaults.reset()
        let done = expectation(description: "promise twins")
        done.expectedFulfillmentCount = 3
        promise.always(on: .main) { result in
            XCTAssertEqual(result.value, ["theme": 1, "font": 11])
            done.fulfill()
        }
        validated.always(on: .main) { result in
            if case .error(.missing(key: "font"))? = Optional(result) {} else { XCTFail("\(result)") }
            done.fulfill()
        }
        reset.always(on: .main) { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
    }

    func testTwinsOnlyTheCompilerCouldPlace() async throws {
        // Both overloads of `stockLevel` have twins; each call awaits the one its argument picks.
        let byName: Int = try await stockLevel("pears")
        let byNumber: Int = try await stockLevel(2)
        XCTAssertEqual([byName, byNumber], [50, 200])
        // The requirement's twin (its error an `Error & Sendable` associated type) serves the
        // generic conformer, reached through a function's result.
        let price: Int = try await makeCatalog().price(of: "apples")
        XCTAssertEqual(price, 120)
        do {
            let _: Int = try await makeCatalog().price(of: "kiwis")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? StockError, .unknownItem("?"))
        }
        // `inout` is passed on.
        var entries = ["a", "b", "c"]
        let removed: Int = try await prune(&entries, keeping: 1)
        XCTAssertEqual(removed, 2)
        XCTAssertEqual(entries, ["a"])
        // The base class's twins reach the subclass: `load` inherited, `restock` overridden.
        let loaded: Int = try await ColdWarehouse().load("figs")
        let restocked: Int = try await ColdWarehouse().restock("figs")
        XCTAssertEqual([loaded, restocked], [4, 50])
    }
}
