// README.md's snippets, compiled and run.

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

@Suite("README.md")
struct ReadmeTests {
    @Test func promiseTaste() async {
        let image = avatar(forUser: 5)
        #expect(await eventually { image.result != nil })
        #expect(image.result?.value == Image(url: "https://example.com/5.png"))
    }

    @Test func asyncTaste() async throws {
        #expect(try await avatarImage(forUser: 6) == Image(url: "https://example.com/6.png"))
        #expect(try await legacyAvatar(forUser: 7).value == Image(url: "https://example.com/7.png"))
    }
}
