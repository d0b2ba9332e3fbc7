// Main-actor state touched from closures given a named context, written in a `@MainActor`
// class: each closure is nonisolated and runs on the context it names (as in 1.x), so the
// compiler rejects the access (in 1.x it was a data race). One line per API family. With no
// context, `.main` or a `PromiseContext` value, the same closures compile and run on the main
// actor (accept_sound_client.swift, IsolatedCallbackTests).
import Dispatch
import Foundation
import Tomorrowland

@MainActor
final class FeedViewController {
    var rows: [Int] = []
    let queue = DispatchQueue(label: "feed")
    let operations = OperationQueue()

    func load(_ promise: StdPromise<Int>, _ token: PromiseInvalidationToken) {
        _ = promise.map(on: .utility) { value in
            self.rows.append(value) // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = promise.then(on: .queue(queue)) { value in
            self.rows.append(value) // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = promise.catch(on: .operationQueue(operations)) { _ in
            self.rows.removeAll() // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = promise.tryMap(on: .userInitiated, token: token) { value in
            self.rows.append(value) // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = promise.withToken(token).then(on: .background) { value in
            self.rows.append(value) // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
        }
        _ = StdPromise<Int>(on: .utility) { resolver in
            self.rows.removeAll() // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
            resolver.fulfill(with: 1)
        }
        _ = DelayedPromise<Int, Swift.Error>(on: .default) { resolver in
            self.rows.removeAll() // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
            resolver.fulfill(with: 1)
        }
        _ = StdPromise<Int>(on: .immediate) { resolver in
            resolver.onRequestCancel(on: .queue(self.queue)) { resolver in
                self.rows.removeAll() // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
                resolver.cancel()
            }
        }
        _ = retry(on: .nowOr(.utility), attempts: 2) { () -> StdPromise<Int> in
            self.rows.removeAll() // expected-error: main actor-isolated property 'rows' can not be mutated from a Sendable closure
            return promise
        }
    }
}
