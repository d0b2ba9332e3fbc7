// The input of ConvertBodyPairsTests' runtime check: ConvertedPairs.swift (compiled into the tests)
// is exactly what add-async-twins and convert-body make of this file.

import Foundation
import Tomorrowland

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

/// A base whose quote is a chain, and whose one subclass overrides it and calls it through `super`.
class PairQuoteService: @unchecked Sendable {
    let log: PairLog

    init(log: PairLog) {
        self.log = log
    }

    /// The source's amount plus a fee of 1.
    func quote(_ amount: Int) -> Promise<Int, PairError> {
        log.add("base quote \(amount)")
        return pairSource(amount, log: log).map(on: .utility) { $0 + 1 }
    }
}

final class PairPremiumService: PairQuoteService, @unchecked Sendable {
    private(set) var count = 0

    /// Counts the quote during the call, then doubles the base's quote.
    override func quote(_ amount: Int) -> Promise<Int, PairError> {
        count += 1
        log.add("premium quote \(count)")
        return super.quote(amount).map(on: .immediate) { $0 * 2 }
    }
}
