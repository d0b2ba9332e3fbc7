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

    /// `amount` after `delay` seconds, cancellable until then; `.outOfStock` for a negative amount.
    ///
    /// Async twin of `delivery(_:after:)` (added by tomorrowland-migrate): awaits the promise it returns.
    /// Throws the promise's `StockError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    nonisolated(nonsending) func delivery(_ amount: Int, after delay: TimeInterval) async throws -> Int {
        try await (delivery(amount, after: delay) as Promise<Int, StockError>).value
    }

    /// Pharmacy's `restock`: a promise made with its resolver, an `onCancel` on the queue, a typed
    /// `timeout` after it, then a `mapError` that switches over `PromiseTimeoutError`; statements
    /// before the chain.
    func restock(_ amount: Int, after delay: TimeInterval, limit: TimeInterval) -> Promise<Int, StockError> {
        StdPromise(on: .immediate) { try await self.restock(amount, after: delay, limit: limit) }
            .mapError(on: .immediate) { $0 as! StockError }
    }

    /// Pharmacy's `restock`: a promise made with its resolver, an `onCancel` on the queue, a typed
    /// `timeout` after it, then a `mapError` that switches over `PromiseTimeoutError`; statements
    /// before the chain.
    ///
    /// Async twin of `restock(_:after:limit:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `StockError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    nonisolated(nonsending) func restock(
        _ amount: Int,
        after delay: TimeInterval,
        limit: TimeInterval
    ) async throws -> Int {
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
        func untimed() async throws -> Int {
            let value: Int
            do {
                value = try await promise.value
            } catch let error as CancellationError {
                await withTaskExecutorPreference(PromiseContext.queue(queue).taskExecutor) { @concurrent in
                    log.append("restock cancelled")
                }
                throw error
            }
            return value
        }
        func timed() async throws -> Int {
            do {
                return try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .queue(queue), delay: limit).value
            } catch is PromiseTimeoutError<Swift.Error> {
                throw PromiseTimeoutError<StockError>.timedOut
            } catch let error as StockError {
                throw PromiseTimeoutError<StockError>.rejected(error)
            }
        }
        do {
            return try await timed()
        } catch let error as PromiseTimeoutError<StockError> {
            switch error {
            case .timedOut: throw StockError.timedOut
            case .rejected(let error): throw error
            }
        }
    }

    /// A typed `timeout` between steps: a `mapError` on the base after it, then a `map` on the queue.
    func restockedLevel(_ amount: Int, limit: TimeInterval) -> Promise<Int, StockError> {
        StdPromise(on: .immediate) { try await self.restockedLevel(amount, limit: limit) }
            .mapError(on: .immediate) { $0 as! StockError }
    }

    /// A typed `timeout` between steps: a `mapError` on the base after it, then a `map` on the queue.
    ///
    /// Async twin of `restockedLevel(_:limit:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `StockError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    nonisolated(nonsending) func restockedLevel(_ amount: Int, limit: TimeInterval) async throws -> Int {
        let log = self.log
        func untimed() async throws -> Int {
            return try await delivery(amount, after: 0.01) + 1
        }
        func timed() async throws -> Int {
            do {
                return try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .queue(queue), delay: limit).value
            } catch is PromiseTimeoutError<Swift.Error> {
                throw PromiseTimeoutError<StockError>.timedOut
            } catch let error as StockError {
                throw PromiseTimeoutError<StockError>.rejected(error)
            }
        }
        let level: Int
        do {
            level = try await timed()
        } catch let error as PromiseTimeoutError<StockError> {
            throw await withTaskExecutorPreference(PromiseContext.queue(queue).taskExecutor) { @concurrent () async -> StockError in
                log.append("mapError")
                switch error {
                case .timedOut: return .timedOut
                case .rejected(let error): return error
                }
            }
        }
        return await withTaskExecutorPreference(PromiseContext.queue(queue).taskExecutor) { @concurrent in
            log.append("map")
            return level * 10
        }
    }

    /// An untyped `timeout` between value steps.
    func doubledLevel(_ amount: Int, limit: TimeInterval) -> StdPromise<Int> {
        StdPromise(on: .immediate) { try await self.doubledLevel(amount, limit: limit) }
    }

    /// An untyped `timeout` between value steps.
    ///
    /// Async twin of `doubledLevel(_:limit:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's error, or `CancellationError` when it is cancelled; cancelling the awaiting Task requests
    /// cancellation of the promise.
    nonisolated(nonsending) func doubledLevel(_ amount: Int, limit: TimeInterval) async throws -> Int {
        func untimed() async throws -> Int {
            return try await delivery(amount, after: 0) + 1
        }
        let level = try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .utility, delay: limit).value
        return await withTaskExecutorPreference(PromiseContext.queue(queue).taskExecutor) { @concurrent in
            level * 2
        }
    }

    /// A `mapResult` after a `catch` after a step, with a `map` after it: a cancellation becomes a value.
    func settled(_ amount: Int, after delay: TimeInterval) -> Promise<Int, StockError> {
        StdPromise(on: .immediate) { try await self.settled(amount, after: delay) }
            .mapError(on: .immediate) { $0 as! StockError }
    }

    /// A `mapResult` after a `catch` after a step, with a `map` after it: a cancellation becomes a value.
    ///
    /// Async twin of `settled(_:after:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `StockError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    nonisolated(nonsending) func settled(_ amount: Int, after delay: TimeInterval) async throws -> Int {
        let log = self.log
        func steps() async throws -> Int {
            do {
                return try await delivery(amount, after: delay) + 1
            } catch let error as StockError {
                await withTaskExecutorPreference(PromiseContext.queue(queue).taskExecutor) { @concurrent in
                    log.append("failed: \(error)")
                }
                throw error
            }
        }
        let result: PromiseResult<Int, StockError>
        do {
            let value2 = try await steps()
            result = .value(value2)
        } catch let error as StockError {
            result = .error(error)
        } catch {
            result = .cancelled
        }
        let mapped: PromiseResult<Int, StockError>
        mapped = {
            switch result {
            case .value(let value): return .value(value)
            case .error(let error): return .error(error)
            case .cancelled: return .value(-1)
            }
        }()
        let value3: Int
        switch mapped {
        case .value(let mappedValue): value3 = mappedValue
        case .error(let error): throw error
        case .cancelled: throw CancellationError()
        }
        let level = value3
        return await withTaskExecutorPreference(PromiseContext.queue(queue).taskExecutor) { @concurrent in
            log.append("settled \(level)")
            return level * 10
        }
    }

    /// A `flatMapResult` after an `always`, with a `map` after it.
    func recounted(_ amount: Int) -> Promise<Int, StockError> {
        StdPromise(on: .immediate) { try await self.recounted(amount) }.mapError(on: .immediate) { $0 as! StockError }
    }

    /// A `flatMapResult` after an `always`, with a `map` after it.
    ///
    /// Async twin of `recounted(_:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `StockError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    nonisolated(nonsending) func recounted(_ amount: Int) async throws -> Int {
        let log = self.log
        func steps() async throws -> Int {
            defer {
                log.append("counted")
            }
            return try await delivery(amount, after: 0)
        }
        let result: PromiseResult<Int, StockError>
        do {
            let value2 = try await steps()
            result = .value(value2)
        } catch let error as StockError {
            result = .error(error)
        } catch {
            result = .cancelled
        }
        let next: Promise<Int, StockError> = {
            switch result {
            case .value(let value): return Promise(fulfilled: value + 100)
            case .error(let error): return Promise(rejected: error)
            case .cancelled: return Promise(fulfilled: 0)
            }
        }()
        return try await next.value + 1
    }
}
