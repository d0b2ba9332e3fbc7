// The view model, the actor, the repositories and the settings, before the migration.

import AppCore
import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

@MainActor
final class ViewModelTests: XCTestCase {
    func testLoadShowsTheName() {
        let model = ProfileViewModel(service: FakeUserService(users: Samples.users), store: SettingsStore())
        let done = expectation(description: "loaded")
        model.load(id: 1).always(on: .main) { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(model.title, "Ada")
        XCTAssertFalse(model.isLoading)
    }

    func testRefreshAwaits() async throws {
        let model = ProfileViewModel(service: FakeUserService(users: Samples.users), store: SettingsStore())
        try await model.refresh()
        XCTAssertEqual(model.title, "Grace (theme 2)")
        let ids = await model.loadIDs().value
        XCTAssertEqual(ids, [1, 2])
        let first = try await model.firstLoad.value
        XCTAssertEqual(first, Samples.ada)
    }

    func testActorSettings() async throws {
        let store = SettingsStore()
        let promise = await store.fetchSetting("font")
        let font = try await promise.value
        XCTAssertEqual(font, Setting(key: "font", value: 12))
        let previous = try await store.store(14, for: "font").value
        XCTAssertEqual(previous, 12)
        let theme = try await themeSetting(from: store)
        XCTAssertEqual(theme, 2)
        let keys = try await store.keys().value
        XCTAssertEqual(keys, ["font", "theme"])
    }

    func testSettingsValueIsTheSetting() async throws {
        let described = try await describeSetting()
        XCTAssertEqual(described, "Setting(key: \"theme\", value: 5)")
        XCTAssertEqual(settingIfResolved("ab"), Setting(key: "ab", value: 2))
        let view = SettingsView()
        let theme = try await view.theme.value
        XCTAssertEqual(theme.value, 5)
        let font = try await view["font"].value
        XCTAssertEqual(font.value, 4)
    }

    func testRepositories() async throws {
        let posts = PostRepository(client: Samples.client(), path: "/posts")
        let all = try await posts.all().value
        XCTAssertEqual(all.map(\.id), [2, 1])
        let byAda = try await posts.posts(by: 1).value
        XCTAssertEqual(byAda.map(\.title), ["Engines"])
        let description = try await PostRepository.describe().value
        XCTAssertEqual(description, "PostRepository")
        let summary = try await FeedPresenter<StaticSource>.summarize(
            posts: [],
            includingAuthorsWithoutAnyPublishedPostsInTheLastThirtyDays: true
        ).value
        XCTAssertEqual(summary, "0 posts +inactive")
        let titles = try await FeedPresenter(source: StaticSource()).titles(limit: 1).value
        XCTAssertEqual(titles, ["Static"])
    }

    func testTokenPromise() async throws {
        let token = PromiseInvalidationToken()
        let polled = try await Poller().poll(token: token).inner.value
        XCTAssertEqual(polled, 1)
    }

    func testLegacyAndVersion() {
        XCTAssertEqual(legacyLookup("abc").result, .value(3))
        XCTAssertEqual(settingsVersion().result, .value(3))
    }
}

/// A Sendable post source for the generic presenter.
struct StaticSource: PostSource, Sendable {
    func latest(limit: Int) -> Promise<[Post], APIError> {
        Promise(fulfilled: [Post(id: 9, authorID: 9, title: "Static")])
    }
}
