// Main-actor state touched from a callback written in nonisolated code (a `nonisolated`
// method of a `@MainActor` class): the closure is not main-actor isolated. (Written in a
// main-actor method, the same callback is isolated to the main actor and compiles: it is
// delivered onto the main actor, see IsolatedCallbackTests.)
import Tomorrowland

@MainActor
final class ProfileViewModel {
    var title = ""

    nonisolated func load(_ name: Promise<String, String>) {
        _ = name.then(on: .utility) { name in
            self.title = name // expected-error: main actor-isolated property 'title' can not be mutated from a Sendable closure
        }
    }
}
