// Main-actor state touched from closures given a context held in a value, written in a
// `@MainActor` class: a stored property, a parameter with a default, `PromiseContext(qos:)`, a
// custom `PromiseContext.x`, a ternary and `.nowOr(value)`. Each closure is nonisolated and
// runs on the context the value holds (as in 1.x), so the compiler rejects the access (in 1.x
// it was a data race), in Swift 6 and in Swift 5 mode. With a value typed
// `PromiseContext.CallerIsolated` the same closure compiles and runs on the main actor
// (accept_sound_client.swift).
import Dispatch
import Foundation
import Tomorrowland

extension PromiseContext {
    static let db = PromiseContext.queue(DispatchQueue(label: "db"))
}

@MainActor
final class FeedViewController {
    var rows: [Int] = []
    var transformContext: PromiseContext = .utility
    var isFast = false

    func load(_ promise: StdPromise<Int>, on context: PromiseContext = .utility) {
        _ = promise.map(on: transformContext) { value in
            self.rows.append(value) // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = promise.then(on: context) { value in
            self.rows.append(value) // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = promise.catch(on: PromiseContext(qos: .utility)) { _ in
            self.rows.removeAll() // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = promise.always(on: PromiseContext.db) { _ in
            self.rows.removeAll() // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = promise.then(on: isFast ? PromiseContext.immediate : .utility) { value in
            self.rows.append(value) // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = promise.then(on: .nowOr(transformContext)) { value in
            self.rows.append(value) // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = DelayedPromise<Int, Swift.Error>(on: context) { resolver in
            self.rows.removeAll() // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
            resolver.fulfill(with: 1)
        }
    }
}
