// The input of ConvertBodySplitTests: ConvertedSplit.swift (compiled into the tests) is exactly
// what add-async-twins and convert-body, with the compiler, make of this file.

import Foundation
import Tomorrowland
import TomorrowlandAsync

enum StockError: Error, Equatable, Sendable {
    case outOfStock
    case timedOut
}

/// Marks the shelf's queue, so that a closure can tell it runs there.
let shelfKey = DispatchSpecificKey<String>()

/// What the chains saw, in order, and where.
final class SplitLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var entries: [String] { lock.withLock { lines } }

    /// `line`, and the queue it was written on (`shelf`, else `elsewhere`).
    func append(_ line: String) {
        let place = DispatchQueue.getSpecific(key: shelfKey) ?? "elsewhere"
        lock.withLock { lines.append("\(line) on \(place)") }
    }
}

final class Shelf: Sendable {
    private let queue = DispatchQueue(label: "shelf")
    private let log: SplitLog

    init(log: SplitLog) {
        self.log = log
        queue.setSpecific(key: shelfKey, value: "shelf")
    }

    /// `amount` after `delay` seconds, cancellable until then; `.outOfStock` for a negative amount.
    func delivery(_ amount: Int, after delay: TimeInterval) -> Promise<Int, StockError> {
        if amount < 0 { return Promise(rejected: .outOfStock) }
        let log = self.log
        return Promise(on: .immediate) { resolver in
            log.append("delivery \(amount)")
            resolver.onRequestCancel(on: .immediate) { resolver in
                log.append("delivery cancelled")
                resolver.cancel()
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                resolver.fulfill(with: amount)
            }
        }
    }

    /// Pharmacy's `restock`: a promise made with its resolver, an `onCancel` on the queue, a typed
    /// `timeout` after it, then a `mapError` that switches over `PromiseTimeoutError`; statements
    /// before the chain.
    func restock(_ amount: Int, after delay: TimeInterval, limit: TimeInterval) -> Promise<Int, StockError> {
        let log = self.log
        log.append("restock \(amount)")
        let (promise, resolver) = Promise<Int, StockError>.makeWithResolver()
        if amount < 0 {
            resolver.reject(with: .outOfStock)
        } else {
            log.append("delivery \(amount)")
            resolver.onRequestCancel(on: .immediate) { resolver in
                log.append("delivery cancelled")
                resolver.cancel()
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                resolver.fulfill(with: amount)
            }
        }
        return promise
            .onCancel(on: .queue(queue)) {
                log.append("restock cancelled")
            }
            .timeout(on: .queue(queue), delay: limit)
            .mapError(on: .immediate) { error -> StockError in
                switch error {
                case .timedOut: return .timedOut
                case .rejected(let error): return error
                }
            }
    }

    /// A typed `timeout` between steps: a `mapError` on the base after it, then a `map` on the queue.
    func restockedLevel(_ amount: Int, limit: TimeInterval) -> Promise<Int, StockError> {
        let log = self.log
        return delivery(amount, after: 0.01)
            .map(on: .immediate) { $0 + 1 }
            .timeout(on: .queue(queue), delay: limit)
            .mapError(on: .queue(queue)) { error -> StockError in
                log.append("mapError")
                switch error {
                case .timedOut: return .timedOut
                case .rejected(let error): return error
                }
            }
            .map(on: .queue(queue)) { level in
                log.append("map")
                return level * 10
            }
    }

    /// An untyped `timeout` between value steps.
    func doubledLevel(_ amount: Int, limit: TimeInterval) -> StdPromise<Int> {
        delivery(amount, after: 0)
            .upcast
            .map(on: .immediate) { $0 + 1 }
            .timeout(on: .utility, delay: limit)
            .map(on: .queue(queue)) { level in
                level * 2
            }
    }

    /// A `mapResult` after a `catch` after a step, with a `map` after it: a cancellation becomes a value.
    func settled(_ amount: Int, after delay: TimeInterval) -> Promise<Int, StockError> {
        let log = self.log
        return delivery(amount, after: delay)
            .map(on: .immediate) { $0 + 1 }
            .catch(on: .queue(queue)) { error in
                log.append("failed: \(error)")
            }
            .mapResult(on: .immediate) { result -> PromiseResult<Int, StockError> in
                switch result {
                case .value(let value): return .value(value)
                case .error(let error): return .error(error)
                case .cancelled: return .value(-1)
                }
            }
            .map(on: .queue(queue)) { level in
                log.append("settled \(level)")
                return level * 10
            }
    }

    /// A `flatMapResult` after an `always`, with a `map` after it.
    func recounted(_ amount: Int) -> Promise<Int, StockError> {
        let log = self.log
        return delivery(amount, after: 0)
            .always(on: .immediate) { _ in
                log.append("counted")
            }
            .flatMapResult(on: .immediate) { result -> Promise<Int, StockError> in
                switch result {
                case .value(let value): return Promise(fulfilled: value + 100)
                case .error(let error): return Promise(rejected: error)
                case .cancelled: return Promise(fulfilled: 0)
                }
            }
            .map(on: .immediate) { $0 + 1 }
    }
}
