import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on the shapes the blind corpora Clinic, Pharmacy and Orders left for a limit of
/// the tool (issues 37 and 39): each is converted and compiles in Swift 5 and 6 mode.
@Suite("convert-body: the tool's limits on Clinic, Pharmacy and Orders")
struct ConvertBodyBlindLimitsTests {
    @Test("two steps whose closures name their parameter alike: the later one is renamed with its uses (Clinic's `updateEmail`)",
          arguments: [5, 6])
    func sameParameterTwice(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            struct Patient: Sendable { var id: String; var email: String }

            final class Records: Sendable {
                func fetch(_ id: String) -> Promise<Patient, Error> { Promise(fulfilled: Patient(id: id, email: "")) }
                func put(_ patient: Patient) -> Promise<Patient, Error> { Promise(fulfilled: patient) }
                func store(_ patient: Patient) {}

                func updateEmail(_ id: String, to email: String) -> Promise<Patient, Error> {
                    fetch(id)
                        .flatMap(on: .utility) { patient -> Promise<Patient, Error> in
                            var updated = patient
                            updated.email = email
                            return self.put(updated)
                        }
                        .then(on: .utility) { patient in
                            self.store(patient)
                        }
                }

                func echoed(_ id: String) -> Promise<String, Error> {
                    fetch(id)
                        .then(on: .immediate) { patient in self.store(patient) }
                        .map(on: .immediate) { patient in patient.id }
                }
            }
            """, path: "Records.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("let patient = try await fetch(id)"), "\(text)")
        #expect(text.contains("let patient2 = try await withTaskExecutorPreference("), "\(text)")
        #expect(text.contains("self.store(patient2)"), "\(text)")
        #expect(!text.contains("self.store(patient)\n                }"), "\(text)")
        // A parameter named like the value it is handed (`then { patient in }.map { patient in }`) keeps its name.
        #expect(text.contains("return patient.id"), "\(text)")
        #expect(!text.contains("patient3"), "\(text)")
    }

    @Test("a final `delay` or `ignoringCancel` after steps stays on the steps' promise (Orders' `fetchStatus`)", arguments: [5, 6])
    func finalDelay(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            enum Queues { static let kitchen = DispatchQueue(label: "kitchen") }

            final class Kitchen: Sendable {
                func get(_ path: String) -> Promise<String, Error> { Promise(fulfilled: path) }

                func status(_ id: String, settle: TimeInterval) -> Promise<Int, Error> {
                    get("status/\\(id)").map(on: .utility) { body in body.count }.delay(on: .queue(Queues.kitchen), settle)
                }

                func released(_ id: String) -> Promise<Int, Error> {
                    guard !id.isEmpty else { return Promise(rejected: CancellationError()) }
                    return get("release/\\(id)").map(on: .immediate) { $0.count }.ignoringCancel()
                }
            }
            """, path: "Kitchen.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("func undelayed() async throws -> Int {"), "\(text)")
        #expect(text.contains("return try await StdPromise(on: .immediate) { try await undelayed() }.delay(on: .queue(Queues.kitchen), settle).value"),
                "\(text)")
        #expect(text.contains(".always(on: .queue(Queues.kitchen)) { _ in }"), "\(text)")
        #expect(text.contains("guard !id.isEmpty else { throw CancellationError() }"), "\(text)")
        #expect(text.contains("return try await StdPromise(on: .immediate) { try await steps() }.ignoringCancel().value"), "\(text)")
    }
}
