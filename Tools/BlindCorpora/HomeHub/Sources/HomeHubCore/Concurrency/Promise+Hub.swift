import Foundation
import Tomorrowland

extension Promise where Error == HubError {
    /// Rejects with `HubError.timedOut` unless this promise resolves within `seconds`.
    ///
    /// When the deadline passes, this promise gives up its interest in the request, which is then
    /// asked to cancel if nobody else waits for it.
    public func orTimeout(after seconds: TimeInterval) -> HubPromise<Value> {
        timeout(on: .utility, delay: seconds).mapError(on: .immediate) { error -> HubError in
            switch error {
            case .timedOut: return .timedOut
            case .rejected(let underlying): return underlying
            }
        }
    }

    /// Records a failure in `log` and passes the result on unchanged.
    ///
    /// Uses `tap`, so it does not count as an observer: it neither keeps the work alive nor
    /// cancels it.
    public func recordingFailure(in log: EventLog, source: String) -> HubPromise<Value> {
        tap(on: .utility) { result in
            if case .error(let error) = result {
                log.append(HubEvent(kind: .failure, message: "\(source): \(error)"))
            }
        }
    }

    /// Replaces a transient failure (offline, timed out) with `fallback`.
    public func replacingTransientFailure(with fallback: Value) -> HubPromise<Value> where Value: Sendable {
        flatMapError(on: .immediate) { error -> HubPromise<Value> in
            if error.isTransient {
                return HubPromise(fulfilled: fallback)
            }
            return HubPromise(rejected: error)
        }
    }

    /// This promise as a `StdPromise`, for APIs that take any error.
    public var std: StdPromise<Value> {
        upcast
    }
}

extension Promise where Error == Swift.Error {
    /// Narrows a `StdPromise` to a `HubPromise`, wrapping foreign errors.
    public func asHubPromise() -> HubPromise<Value> {
        mapError(on: .immediate) { HubError($0) }
    }
}

/// Calls `make` until its promise fulfils or fails with an error that is not transient, at most
/// `attempts` times, waiting `delay` seconds between tries.
///
/// Cancelling the returned promise cancels the attempt in flight and stops the retries.
public func retrying<T>(attempts: Int, delay: TimeInterval,
                        _ make: @escaping @Sendable () -> HubPromise<T>) -> HubPromise<T> {
    make().flatMapError(on: .utility) { error -> HubPromise<T> in
        guard error.isTransient, attempts > 1 else {
            return HubPromise(rejected: error)
        }
        return CompletionPromise(on: .utility, fulfilled: (), after: delay).flatMap(on: .utility) { _ in
            retrying(attempts: attempts - 1, delay: delay, make)
        }
    }
}

#if DEBUG
extension Promise {
    /// Prints the result when it arrives; for chasing a chain in the debugger.
    func debugLogged(_ label: String) -> Promise<Value, Error> {
        tap(on: .utility) { result in
            print("[\(label)] \(result)")
        }
    }
}
#endif

/// Attaches the same failure logger to several promises at once.
///
/// The callback method is looked up once and applied to each promise, which reads better in the
/// places that start a batch of requests.
func logFailures<T>(of promises: [HubPromise<T>], to log: EventLog, source: String) {
    for promise in promises {
        let register = promise.catch(on:token:_:)
        _ = register(.utility, nil) { error in
            log.append(HubEvent(kind: .failure, message: "\(source): \(error)"))
        }
    }
}
