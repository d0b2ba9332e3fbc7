// README.md's snippets, compiled and run.

import Testing
import TomorrowlandAsync

func avatar(forUser id: Int) -> StdPromise<Image> {
    fetchUser(id: id)
        .flatMap(on: .utility) { user in fetchAvatar(for: user) }
}

@Suite("README.md")
struct ReadmeTests {
    @Test func promiseTaste() async {
        let image = avatar(forUser: 5)
        #expect(await eventually { image.result != nil })
        #expect(image.result?.value == Image(url: "https://example.com/5.png"))
    }
}
