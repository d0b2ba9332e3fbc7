// Actor state mutated from a promise callback written outside the actor's isolation (a
// `nonisolated` method): the closure is nonisolated, so it may not touch the actor's state.
// (Written in an isolated method, the same callback is isolated to the actor and compiles:
// it is delivered onto the actor, see IsolatedCallbackTests.)
import Tomorrowland

actor Counter {
    var value = 0

    nonisolated func observe(_ promise: Promise<Int, String>) {
        _ = promise.then(on: .utility) { delta in
            self.value += delta // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
    }
}
