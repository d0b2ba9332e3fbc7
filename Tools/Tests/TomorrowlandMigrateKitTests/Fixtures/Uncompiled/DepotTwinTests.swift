// Tests of the twins, in Tests/TwinTests: their target is commented out in Package.swift until
// the twins exist. No command may touch this file; once the target compiles it, the call below
// means the twin.
import Foundation

func checkTheTwin() async throws -> String {
    let vehicle: String = try await Depot().vehicle(id: 1)
    return vehicle
}

func checkTheTypedError() async -> Bool {
    do {
        _ = try await Depot().vehicle(id: -1)
        return false
    } catch {
        return error as? DepotError != nil
    }
}
