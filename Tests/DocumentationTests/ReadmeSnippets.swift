// README.md's snippets, compiled and run.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

func avatar(forUser id: Int) -> StdPromise<Image> {
    fetchUser(id: id)
        .flatMap(on: .utility) { user in fetchAvatar(for: user) }
}

func avatarImage(forUser id: Int) async throws -> Image {
    let user = try await fetchUser(id: id).value  // cancelling this Task asks fetchUser to stop
    return try await fetchAvatar(for: user).value
}

func legacyAvatar(forUser id: Int) -> StdPromise<Image> {
    StdPromise<Image> { try await avatarImage(forUser: id) }  // requestCancel() cancels the Task
}

@MainActor final class FeedViewController {
    var networkActivityIndicatorVisible = false
    private(set) var rows: [String] = []

    func load() {
        networkActivityIndicatorVisible = true
        fetchFeed().map(on: .utility) { rows in
            rows.sorted()  // off the main actor, on the utility queue
        }.then { rows in
            self.rows = rows  // on the main actor
        }.catch { error in
            print("could not load the feed: \(error)")
        }.always { _ in
            self.networkActivityIndicatorVisible = false
        }
    }
}

@Suite("README.md")
struct ReadmeTests {
    @Test func promiseTaste() async {
        let image = avatar(forUser: 5)
        #expect(await eventually { image.result != nil })
        #expect(image.result?.value == Image(url: "https://example.com/5.png"))
    }

    @MainActor @Test func viewControllerTaste() async {
        let controller = FeedViewController()
        controller.load()
        #expect(controller.networkActivityIndicatorVisible)
        let deadline = Date().addingTimeInterval(30)
        while controller.networkActivityIndicatorVisible && Date() < deadline {
            try? await Task.sleep(nanoseconds: 5_000_000)  // on the main actor: lets callbacks run
        }
        #expect(!controller.networkActivityIndicatorVisible)
        #expect(controller.rows == ["first", "second"])
    }

    @Test func asyncTaste() async throws {
        #expect(try await avatarImage(forUser: 6) == Image(url: "https://example.com/6.png"))
        #expect(try await legacyAvatar(forUser: 7).value == Image(url: "https://example.com/7.png"))
    }
}
