// Actor state touched from closures given a named context, written in an actor method: each
// closure is nonisolated and runs on the context it names, so the compiler rejects the access.
// With no context or `.main` the same closures compile and run on the actor
// (accept_sound_client.swift).
import Dispatch
import Tomorrowland

actor Tally {
    var value = 0
    let queue = DispatchQueue(label: "tally")

    func observe(_ promise: Promise<Int, String>) {
        _ = promise.then(on: .utility) { delta in
            self.value += delta // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
        _ = promise.always(on: .queue(queue)) { _ in
            self.value = 0 // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
        _ = promise.propagatingCancellation(on: .utility) { _ in
            self.value = 0 // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
        _ = PromiseOperation<Int, String>(on: .userInitiated) { resolver in
            self.value = 0 // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
            resolver.fulfill(with: 1)
        }
    }
}
