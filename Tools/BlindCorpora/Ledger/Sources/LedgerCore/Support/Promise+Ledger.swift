import Foundation
import Tomorrowland

// Helpers the whole app uses on ledger promises.

extension Promise where Error == LedgerError {
    /// Records a rejection under `label` in `log` and passes the result on unchanged.
    ///
    /// Uses `tap`, so it does not hold up cancellation of the chain.
    public func logFailures(_ label: String, to log: LedgerLog = .shared) -> LedgerPromise<Value> {
        return tap(on: .immediate) { result in
            if case .error(let error) = result {
                log.record("\(label) failed: \(error)")
            }
        }
    }

    /// Rejects with `.timedOut` when the promise has not resolved after `seconds`.
    public func timingOut(after seconds: TimeInterval) -> LedgerPromise<Value> {
        return timeout(on: .utility, delay: seconds).mapError(on: .immediate) { error -> LedgerError in
            switch error {
            case .timedOut:
                return .timedOut
            case .rejected(let inner):
                return inner
            }
        }
    }

    /// The same promise with `Swift.Error`, for APIs that take a `StdPromise`.
    public var std: StdPromise<Value> {
        return upcast
    }
}

extension Promise where Error == LedgerError, Value: Sendable {
    /// A fallback value for any rejection. Cancellation still passes through.
    public func orElse(_ fallback: Value) -> Guaranteed<Value> {
        return recover(on: .immediate) { _ in fallback }
    }
}

extension Promise where Error == NoError {
    /// A promise that cannot fail, typed for ledger chains.
    public var asLedger: LedgerPromise<Value> {
        return mapError(on: .immediate) { error -> LedgerError in
            switch error {}
        }
    }
}

extension Promise where Error == BankAPIError {
    /// The bank's errors as `LedgerError.bank`.
    public var ledgerErrors: LedgerPromise<Value> {
        return mapError(on: .immediate, LedgerError.bank)
    }
}

extension Promise {
    /// Discards the value. Useful to hand a chain to code that only cares about completion.
    public func asVoid() -> Promise<Void, Error> {
        return map(on: .immediate) { _ in () }
    }
}

/// Re-creates a ledger promise while it rejects with a retryable error, waiting `delay` between
/// attempts.
public func retryLedger<T>(
    attempts: Int,
    delay: TimeInterval,
    on context: PromiseContext = .utility,
    _ make: @escaping @Sendable () -> LedgerPromise<T>
) -> LedgerPromise<T> {
    return make().flatMapError(on: context) { error -> LedgerPromise<T> in
        guard attempts > 1, error.isRetryable else {
            return LedgerPromise(rejected: error)
        }
        return Promise<Void, LedgerError>(on: context, fulfilled: (), after: delay)
            .flatMap(on: .immediate) { _ in
                retryLedger(attempts: attempts - 1, delay: delay, on: context, make)
            }
    }
}
