import Foundation
import Tomorrowland

// The bridge the async pilot (PDF export) uses until we move to a Tomorrowland with
// async support. Cancellation is forwarded both ways.

extension Promise where Error: Swift.Error, Value: Sendable {
    /// Waits for the promise. Throws its error, or `CancellationError` when it was cancelled.
    /// Cancelling the awaiting task requests cancellation of the promise.
    public func awaitValue() async throws -> Value {
        let cancellable = self.cancellable
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Swift.Error>) in
                self.always(on: .immediate) { result in
                    switch result {
                    case .value(let value):
                        continuation.resume(returning: value)
                    case .error(let error):
                        continuation.resume(throwing: error)
                    case .cancelled:
                        continuation.resume(throwing: CancellationError())
                    }
                }
            }
        } onCancel: {
            cancellable.requestCancel()
        }
    }
}

extension Promise where Error == NoError, Value: Sendable {
    /// Waits for a promise that cannot fail. Throws `CancellationError` when it was cancelled.
    public func awaitValue() async throws -> Value {
        return try await mapError(on: .immediate) { error -> CancellationError in
            switch error {}
        }.awaitValue()
    }
}
