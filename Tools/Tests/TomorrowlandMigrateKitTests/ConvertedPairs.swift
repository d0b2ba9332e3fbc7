// The input of ConvertBodyPairsTests' runtime check: ConvertedPairs.swift (compiled into the tests)
// is exactly what add-async-twins and convert-body make of this file.

import Foundation
import Tomorrowland
import TomorrowlandAsync

/// What the quote services did, in order.
final class PairLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var entries: [String] { lock.withLock { lines } }

    func add(_ line: String) { lock.withLock { lines.append(line) } }
}

enum PairError: Error, Equatable {
    case invalid
}

/// The amount, later, on a global queue; rejected when it is not positive. Logs during the call.
func pairSource(_ amount: Int, log: PairLog) -> Promise<Int, PairError> {
    log.add("source \(amount)")
    guard amount > 0 else { return Promise(rejected: .invalid) }
    return Promise(on: .utility) { resolver in
        resolver.fulfill(with: amount)
    }
}

/// The amount, later, on a global queue; rejected when it is not positive. Logs during the call.
///
/// Async twin of `pairSource(_:log:)` (added by tomorrowland-migrate): awaits the promise it returns.
/// Throws the promise's `PairError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task requests
/// cancellation of the promise.
nonisolated(nonsending) func pairSource(_ amount: Int, log: PairLog) async throws -> Int {
    try await (pairSource(amount, log: log) as Promise<Int, PairError>).value
}

/// A base whose quote is a chain, and whose one subclass overrides it and calls it through `super`.
class PairQuoteService: @unchecked Sendable {
    let log: PairLog

    init(log: PairLog) {
        self.log = log
    }

    /// The source's amount plus a fee of 1.
    func quote(_ amount: Int) -> Promise<Int, PairError> {
        StdPromise(on: .immediate) { try await self.quote(amount) }.mapError(on: .immediate) { $0 as! PairError }
    }

    /// The source's amount plus a fee of 1.
    ///
    /// Async twin of `quote(_:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `PairError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    nonisolated(nonsending) func quote(_ amount: Int) async throws -> Int {
        log.add("base quote \(amount)")
        let value = try await pairSource(amount, log: log)
        return await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
            value + 1
        }
    }
}

final class PairPremiumService: PairQuoteService, @unchecked Sendable {
    private(set) var count = 0

    /// Counts the quote during the call, then doubles the base's quote.
    override func quote(_ amount: Int) -> Promise<Int, PairError> {
        StdPromise(on: .immediate) { try await self.quote(amount) }.mapError(on: .immediate) { $0 as! PairError }
    }

    /// Counts the quote during the call, then doubles the base's quote.
    ///
    /// Async twin of `quote(_:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `PairError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    override nonisolated(nonsending) func quote(_ amount: Int) async throws -> Int {
        count += 1
        log.add("premium quote \(count)")
        return try await super.quote(amount) * 2
    }
}
