// `.main` means the main queue wherever it is written: in an actor, or in a class isolated to
// another global actor, its closure is `@MainActor` and runs on the main queue, as in 1.x. Using
// that actor's state from it is a data race 1.x had, and the compiler names it (Swift 5 and 6
// mode) instead of the closure moving to the actor. The fix: a following `.then { … }` with no
// context runs on the actor (accept_sound_client.swift).
import Tomorrowland

actor Counter {
    var count = 0

    func observe(_ promise: Promise<Int, String>) {
        _ = promise.then(on: .main) { delta in
            self.count += delta // expected-error: actor-isolated property 'count' can not be mutated from the main actor
        }
    }
}

@globalActor actor PlaybackActor {
    static let shared = PlaybackActor()
}

@PlaybackActor final class PlaybackEngine {
    var episodes = 0

    func prepare(_ promise: Promise<Int, String>) {
        _ = promise.then(on: .nowOr(.main)) { _ in
            self.episodes += 1 // expected-error: global actor 'PlaybackActor'-isolated property 'episodes' can not be mutated from the main actor
        }
    }
}
