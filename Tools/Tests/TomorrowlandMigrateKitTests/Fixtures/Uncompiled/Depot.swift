// A library target: compiled, so add-async-twins writes its twin and pins the async call of
// its own that the twin would capture.
import Foundation
import Tomorrowland

public enum DepotError: Error, Sendable {
    case unknown(Int)
}

public final class Depot: Sendable {
    public init() {}

    public func vehicle(id: Int) -> Promise<String, DepotError> {
        id > 0 ? Promise(fulfilled: "vehicle \(id)") : Promise(rejected: .unknown(id))
    }

    /// An async caller inside the target: the twin would capture it.
    public func describe(id: Int) async throws -> String {
        try await vehicle(id: id).value
    }
}
