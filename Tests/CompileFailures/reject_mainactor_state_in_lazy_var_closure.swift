// Main-actor state used in a callback written in a `lazy var` initializer of a `@MainActor`
// class: unlike a closure written in a method, it does not inherit the main actor (Swift 6
// mode; MIGRATION.md, "Callbacks keep their caller's actor"). The fixes, `{ @MainActor … }` or
// `.main` (whose closure is always `@MainActor`), are in accept_sound_client.swift.
import Tomorrowland

@MainActor
final class AvatarViewModel {
    var userID = 7

    lazy var avatar = DelayedPromise<Int, String>(on: .immediate) { [weak self] resolver in
        resolver.fulfill(with: self?.userID ?? 0) // expected-error: main actor-isolated property 'userID' can not be referenced from a Sendable closure
    }
}
