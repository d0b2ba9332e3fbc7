// The `.nowOr` and `mapResult` shapes that issue 37 left as limits of the tool, for
// ConvertBodyNowOrLimitsTests: with the compiler, in Swift 5 and 6 mode, each chain is converted
// and the result compiles.

import Foundation
import Tomorrowland
import TomorrowlandAsync

public enum StockError: Error {
    case unknown
}

/// Records what the callbacks saw.
public final class Shelf: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []

    public init() {}

    public func record(_ event: String) {
        lock.withLock { events.append(event) }
    }
}

public final class Stock: Sendable {
    let shelf = Shelf()
    let token = PromiseInvalidationToken(invalidateOnDeinit: false)

    public init() {}

    public func level(_ drug: String) -> Promise<Int, StockError> {
        Promise(on: .utility) { resolver in resolver.fulfill(with: drug.count) }
    }

    /// `tap` on `.nowOr(c)` off the caller's actor, reading the result.
    public func tappedLevel(_ drug: String) -> Promise<Int, StockError> {
        level(drug).tap(on: .nowOr(.utility)) { result in
            self.shelf.record("tapped \(result)")
        }
    }

    /// `always` on `.nowOr(c)`.
    public func levelAlways(_ drug: String) -> Promise<Int, StockError> {
        level(drug).always(on: .nowOr(.utility)) { _ in
            self.shelf.record("done")
        }
    }

    /// `onCancel` on `.nowOr(.main)` off the main actor.
    public func levelOrCancelled(_ drug: String) -> Promise<Int, StockError> {
        level(drug).onCancel(on: .nowOr(.main)) {
            self.shelf.record("cancelled")
        }
    }

    /// A value step with a token on `.nowOr(c)`.
    public func doubledLevel(_ drug: String) -> Promise<Int, StockError> {
        level(drug).map(on: .nowOr(.utility), token: token) { $0 * 2 }
    }

    /// `PromiseContext.isExecutingNow` on `.nowOr(c)`: the split's flag.
    public func levelAtOnce(_ drug: String, _ body: @escaping @Sendable (Int, Bool) -> Void) -> Promise<Int, StockError> {
        level(drug).then(on: .nowOr(.utility)) { level in
            body(level, PromiseContext.isExecutingNow)
        }
    }

    /// `mapResult` with steps after it.
    public func levelOrZeroDoubled(_ drug: String) -> Promise<Int, NoError> {
        level(drug)
            .map(on: .utility) { $0 + 1 }
            .mapResult(on: .utility) { result -> PromiseResult<Int, NoError> in
                switch result {
                case .value(let value): return .value(value)
                case .error, .cancelled: return .value(0)
                }
            }
            .map(on: .immediate) { $0 * 2 }
    }

    /// `flatMapResult` with steps after it.
    public func levelOrRetried(_ drug: String) -> Promise<String, StockError> {
        level(drug)
            .flatMapResult(on: .utility) { result -> Promise<Int, StockError> in
                if result.value != nil { return Promise(with: result) }
                return self.level(drug + "?")
            }
            .map(on: .immediate) { "level \($0)" }
    }

    /// `mapResult` after an error handler and `always`.
    public func recordedLevel(_ drug: String) -> Promise<Int, NoError> {
        level(drug)
            .catch(on: .utility) { error in
                self.shelf.record("failed: \(error)")
            }
            .always(on: .utility) { _ in
                self.shelf.record("done")
            }
            .mapResult(on: .utility) { result -> PromiseResult<Int, NoError> in
                .value(result.value ?? -1)
            }
    }

    /// `mapResult` on `.nowOr(c)`.
    public func settledLevel(_ drug: String) -> Promise<Int, NoError> {
        level(drug).mapResult(on: .nowOr(.utility)) { result -> PromiseResult<Int, NoError> in
            .value(result.value ?? 0)
        }
    }

    /// `mapResult` after a `flatMap`: the first request's error is the result's too.
    public func chainedLevel(_ drug: String) -> Promise<String, NoError> {
        level(drug)
            .flatMap(on: .immediate) { self.level("\($0)") }
            .mapResult(on: .immediate) { result -> PromiseResult<String, NoError> in
                .value(result.value.map { "\($0)" } ?? "none")
            }
    }

    /// `mapResult` with a token.
    public func levelUnlessInvalidated(_ drug: String) -> Promise<Int, StockError> {
        level(drug).mapResult(on: .utility, token: token) { result in
            self.shelf.record("settled")
            return result
        }
    }
}

@MainActor
public final class StockViewModel {
    let stock: Stock
    public var status = ""
    public var shownInstantly = false

    public init(stock: Stock) {
        self.stock = stock
    }

    /// `PromiseContext.isExecutingNow` on `.nowOr(.main)` on the main actor: the flag of the base kept in a `let`.
    public func show(_ drug: String) -> Promise<Int, StockError> {
        stock.level(drug).then(on: .nowOr(.main)) { level in
            self.status = "\(level)"
            self.shownInstantly = PromiseContext.isExecutingNow
        }
    }
}

public final class OffMain: Sendable {
    let stock = Stock()

    public init() {}

    /// `flatMapResult` on `.nowOr(.main)` off the main actor.
    public func levelOrFallback(_ drug: String) -> Promise<Int, StockError> {
        stock.level(drug).flatMapResult(on: .nowOr(.main)) { result -> Promise<Int, StockError> in
            if result.value != nil { return Promise(with: result) }
            return self.stock.level("fallback")
        }
    }

    /// `PromiseContext.isExecutingNow` on `.nowOr(.main)` off the main actor: the flag that asks for the main queue too.
    public func animated(_ drug: String) -> Promise<Bool, StockError> {
        stock.level(drug).map(on: .nowOr(.main)) { _ in
            !PromiseContext.isExecutingNow
        }
    }
}
