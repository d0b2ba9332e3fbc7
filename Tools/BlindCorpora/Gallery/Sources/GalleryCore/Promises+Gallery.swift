import Foundation
import Tomorrowland

/// Runs `make` again while it fails with an error worth retrying (offline, timed out).
public func retrying<T>(
    attempts: Int,
    delay: TimeInterval = 0,
    on context: PromiseContext = .utility,
    _ make: @escaping () -> GalleryPromise<T>
) -> GalleryPromise<T> {
    return make().flatMapError(on: context) { error -> GalleryPromise<T> in
        guard attempts > 1, error == .offline || error == .timedOut else {
            return Promise(rejected: error)
        }
        GalleryLog.shared.log("retrying after \(error), \(attempts - 1) attempts left")
        return Promise<Void, GalleryError>(on: context, fulfilled: (), after: delay)
            .flatMap(on: .immediate) { _ in retrying(attempts: attempts - 1, delay: delay, on: context, make) }
    }
}

/// The value, or `nil` when the promise fails (a missing thumbnail is not an error for a grid).
public func valueOrNil<T>(_ promise: GalleryPromise<T>) -> Guaranteed<T?> {
    return promise
        .map(on: .immediate) { Optional($0) }
        .recover(on: .immediate) { _ in nil }
}

/// Every value of `promises` that did not fail, in order.
public func settled<T>(_ promises: [GalleryPromise<T>]) -> Guaranteed<[T]> {
    return when(fulfilled: promises.map(valueOrNil))
        .map(on: .immediate) { values in values.compactMap { $0 } }
}

/// The first of `promises` to give a value or an error; the others are asked to cancel.
public func race<T>(_ promises: [GalleryPromise<T>]) -> GalleryPromise<T> {
    return when(first: promises, cancelRemaining: true)
}
