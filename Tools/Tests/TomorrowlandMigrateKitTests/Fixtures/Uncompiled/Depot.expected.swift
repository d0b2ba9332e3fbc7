// A library target: compiled, so add-async-twins writes its twin and pins the async call of
// its own that the twin would capture.
import Foundation
import Tomorrowland
import TomorrowlandAsync

public enum DepotError: Error, Sendable {
    case unknown(Int)
}

public final class Depot: Sendable {
    public init() {}

    public func vehicle(id: Int) -> Promise<String, DepotError> {
        id > 0 ? Promise(fulfilled: "vehicle \(id)") : Promise(rejected: .unknown(id))
    }

    /// Async twin of `vehicle(id:)` (added by tomorrowland-migrate): awaits the promise it returns.
    /// Throws the promise's `DepotError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    public nonisolated(nonsending) func vehicle(id: Int) async throws -> String {
        try await (vehicle(id: id) as Promise<String, DepotError>).value
    }

    /// An async caller inside the target: the twin would capture it.
    public func describe(id: Int) async throws -> String {
        try await (vehicle(id: id) as Promise<String, DepotError>).value
    }
}
