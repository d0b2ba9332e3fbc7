// Actor state touched from closures given a context held in a value, written in an actor
// method that uses `self`: a stored property, a parameter with a default, `PromiseContext(qos:)`,
// a custom `PromiseContext.x`, a ternary and `.nowOr(value)`. Each closure is nonisolated and
// runs on the context the value holds, so the compiler rejects the access, in Swift 6 and in
// Swift 5 mode. With no context, `.main`, or a value typed `PromiseContext.CallerIsolated` the
// same closures compile and run on the actor (accept_sound_client.swift).
import Dispatch
import Tomorrowland

extension PromiseContext {
    static let ledger = PromiseContext.queue(DispatchQueue(label: "ledger"))
}

actor Tally {
    var value = 0
    let context: PromiseContext = .utility

    func observe(_ promise: Promise<Int, String>, on given: PromiseContext = .userInitiated) {
        _ = promise.then(on: context) { delta in
            self.value += delta // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
        _ = promise.always(on: given) { _ in
            self.value = 0 // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
        _ = promise.then(on: PromiseContext(qos: .background)) { delta in
            self.value += delta // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
        _ = promise.propagatingCancellation(on: PromiseContext.ledger) { _ in
            self.value = 0 // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
        _ = promise.then(on: value > 0 ? .utility : PromiseContext.immediate) { delta in
            self.value += delta // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
        _ = promise.then(on: .nowOr(context)) { delta in
            self.value += delta // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
        }
        _ = PromiseOperation<Int, String>(on: given) { resolver in
            self.value = 0 // expected-error: actor-isolated property 'value' can not be mutated from a Sendable closure
            resolver.fulfill(with: 1)
        }
    }
}
