// Actor state mutated from a promise callback, outside the actor.
import Tomorrowland

actor Counter {
    var value = 0

    func observe(_ promise: Promise<Int, String>) {
        _ = promise.then(on: .utility) { delta in
            self.value += delta // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
    }
}
