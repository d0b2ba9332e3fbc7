// Tests written before the migration: promise-style with expectations, and async ones.

import AppCore
import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

@MainActor
final class UserServiceTests: XCTestCase {
    func testFetchUserPromiseStyle() {
        let service = LiveUserService(client: Samples.client())
        let done = expectation(description: "user")
        _ = service.fetchUser(id: 1).then(on: .main) { user in
            XCTAssertEqual(user, Samples.ada)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    func testFetchUserByEmailFailsTyped() {
        let service = LiveUserService(client: Samples.client())
        let done = expectation(description: "error")
        _ = service.fetchUser(email: "nobody@example.com").catch(on: .main) { error in
            XCTAssertEqual(error, .notFound)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    func testFetchUserAsync() async throws {
        let service = LiveUserService(client: Samples.client())
        let promise = service.fetchUser(id: 2)
        let user = try await promise.value
        XCTAssertEqual(user, Samples.grace)
    }

    func testMissingUserAsync() async {
        let service = LiveUserService(client: Samples.client())
        let promise = service.fetchUser(id: 99)
        do {
            _ = try await promise.value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? APIError, .notFound)
        }
    }

    /// A bridge awaited in a do/catch: after `convert-calls` it is a direct call of the async
    /// twin, and the catch of the promise's error must still match.
    func testMissingUserCaughtByItsType() async throws {
        let service = LiveUserService(client: Samples.client())
        var caught: APIError?
        do {
            _ = try await service.fetchUser(id: 99).value
        } catch let error as APIError {
            caught = error
        }
        XCTAssertEqual(caught, .notFound)
    }

    func testFakeThroughTheProtocol() async throws {
        let fake = FakeUserService(users: Samples.users)
        let service: any UserServicing = fake
        let names = try await AppCore.names(of: [2, 1], service: service).value
        XCTAssertEqual(names, ["Grace", "Ada"])
        XCTAssertEqual(fake.calls, 2)
        _ = service.userIDs()
    }

    func testGreetingAndCurrentUser() async throws {
        let fake = FakeUserService(users: Samples.users)
        let greeting = try await AppCore.greeting(for: 1, service: fake, namer: "dear").value
        XCTAssertEqual(greeting, "Hello dear Ada")
        let current = try await currentUser(service: fake).value
        XCTAssertEqual(current, Samples.ada)
        let name = try await currentUserName(service: fake)
        XCTAssertEqual(name, "Ada")
        let looked = await lookUp(id: 2, in: fake)
        let lookedUp = try await looked.value
        XCTAssertEqual(lookedUp, Samples.grace)
    }

    func testCancellingTheAwaitingTaskCancelsTheRequest() async {
        let client = Samples.client(latency: 5)
        let task = Task { try await client.get("/users/1").value }
        try? await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let started = Date()
        let result = await task.result
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "the request was cancelled, not waited for")
        XCTAssertThrowsError(try result.get()) { error in XCTAssertTrue(error is CancellationError) }
    }

    func testPingIsDiscardable() {
        let client = Samples.client()
        client.ping()
        XCTAssertEqual(client.requested, ["/ping"])
    }
}
