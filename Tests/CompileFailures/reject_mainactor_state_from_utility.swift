// Main-actor state touched from a callback that runs on a background context.
import Tomorrowland

@MainActor
final class ProfileViewModel {
    var title = ""

    func load(_ name: Promise<String, String>) {
        _ = name.then(on: .utility) { name in
            self.title = name // expected-error: main actor-isolated property 'title' can not be mutated from a Sendable closure
        }
    }
}
