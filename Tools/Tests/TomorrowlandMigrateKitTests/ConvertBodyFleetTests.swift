import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on the shapes the blind corpus Fleet's run showed to be the tool's fault.
@Suite("convert-body: Fleet's shapes")
struct ConvertBodyFleetTests {
    /// Fleet's `TelemetryService.speed(for:within:)`: a typed `timeout` on the base, then a
    /// `mapError` on a queue whose closure switches over `PromiseTimeoutError` and returns implicit
    /// members, then a `map`.
    static let timeoutThenMapError = """
        import Foundation
        import Tomorrowland
        import TomorrowlandAsync

        public enum FleetError: Error, Equatable, Sendable {
            case telemetryOffline
            case timedOut
        }

        public struct Sample: Sendable {
            public let speed: Double
        }

        public final class Telemetry: Sendable {
            private let queue = DispatchQueue(label: "telemetry")

            public func latest(for vehicleID: Int) -> Promise<Sample, FleetError> {
                vehicleID > 0 ? Promise(fulfilled: Sample(speed: 42)) : Promise(rejected: .telemetryOffline)
            }

            /// Async twin of `latest(for:)` (added by tomorrowland-migrate): awaits the promise it returns.
            public nonisolated(nonsending) func latest(for vehicleID: Int) async throws -> Sample {
                try await (latest(for: vehicleID) as Promise<Sample, FleetError>).value
            }

            public func speed(for vehicleID: Int, within seconds: TimeInterval) -> Promise<Double, FleetError> {
                latest(for: vehicleID)
                    .timeout(on: .queue(queue), delay: seconds)
                    .mapError(on: .queue(queue)) { error -> FleetError in
                        switch error {
                        case .timedOut: return .timedOut
                        case .rejected(let error): return error
                        }
                    }
                    .map(on: .queue(queue)) { $0.speed }
            }

            /// Async twin of `speed(for:within:)` (added by tomorrowland-migrate): awaits the promise it returns.
            public nonisolated(nonsending) func speed(for vehicleID: Int, within seconds: TimeInterval) async throws -> Double {
                try await (speed(for: vehicleID, within: seconds) as Promise<Double, FleetError>).value
            }
        }
        """

    @Test("a `mapError` on a queue after a typed `timeout`: its closure keeps its declared type, so `.timedOut` resolves",
          arguments: [6, 5])
    func timeoutThenMapErrorOnAQueue(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes(Self.timeoutThenMapError, path: "Telemetry.swift", swiftVersion: swiftVersion)
        #expect(notes.contains { $0.hasPrefix("convert-body: 1 of 1 chain bodies converted") }, "\(notes)")
        #expect(text.contains("""
                    let value: Sample
                    do {
                        value = try await latest(for: vehicleID)
                            .timeout(on: .queue(queue), delay: seconds).value
                    } catch let error as PromiseTimeoutError<FleetError> {
                        throw await withTaskExecutorPreference(PromiseContext.queue(queue).taskExecutor) { @concurrent () async -> FleetError in
                            switch error {
                            case .timedOut: return .timedOut
                            case .rejected(let error): return error
                            }
                        }
                    }
            """), "\(text)")
    }
}
