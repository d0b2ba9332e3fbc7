import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest
@testable import PharmacyCore

/// Calls the async twins that `tomorrowland-migrate add-async-twins` writes next to each
/// promise-returning function. Each twin awaits the promise: same values, same errors,
/// `CancellationError` when cancelled.
final class PharmacyCoreTwinTests: XCTestCase {
    let amoxicillin = Prescription(id: "RX1", patient: "Ada", drug: "Amoxicillin", quantity: 20, refillsLeft: 2)
    let insulin = Prescription(id: "RX2", patient: "Bo", drug: "Insulin", quantity: 3, refillsLeft: 0)

    func makeBackend(latency: TimeInterval = 0) -> PharmacyBackend {
        return PharmacyBackend(prescriptions: [amoxicillin, insulin],
                               stock: ["Amoxicillin": 100, "Insulin": 2],
                               latency: latency)
    }

    func testPrescriptionTwinGivesThePrescription() async throws {
        let journal = Journal()
        let service = PrescriptionService(backend: makeBackend(latency: 0.05), journal: journal)
        let prescription: Prescription = try await service.prescription(id: "RX1")
        XCTAssertEqual(prescription, amoxicillin)
        XCTAssertEqual(journal.entries, ["lookup RX1", "cached RX1"])
    }

    func testPrescriptionTwinThrowsTheTypedError() async {
        let service = PrescriptionService(backend: makeBackend(), journal: Journal())
        do {
            let prescription: Prescription = try await service.prescription(id: "RX9")
            XCTFail("expected notFound, got \(prescription)")
        } catch let error as PharmacyError {
            XCTAssertEqual(error, .notFound("RX9"))
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testCancellingTheAwaitingTaskReachesTheBackend() async {
        let backend = makeBackend(latency: 5)
        let service = PrescriptionService(backend: backend, journal: Journal())
        let task = Task { () -> Prescription in
            try await service.prescription(id: "RX1")
        }
        try? await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        do {
            let prescription = try await task.value
            XCTFail("expected cancellation, got \(prescription)")
        } catch {
            XCTAssertTrue(error is CancellationError, "got \(error)")
        }
        XCTAssertEqual(backend.cancelledRequests, ["prescription RX1"])
    }

    func testRefillTwinDescribesWhatIsLeft() async throws {
        let service = PrescriptionService(backend: makeBackend(), journal: Journal())
        let summary: String = try await service.refill(id: "RX1")
        XCTAssertEqual(summary, "Amoxicillin: 1 refills left")
        XCTAssertEqual(service.savedRefills, 1)
    }

    func testRefillTwinThrowsNoRefillsLeft() async {
        let service = PrescriptionService(backend: makeBackend(), journal: Journal())
        do {
            let summary: String = try await service.refill(id: "RX2")
            XCTFail("expected noRefillsLeft, got \(summary)")
        } catch let error as PharmacyError {
            XCTAssertEqual(error, .noRefillsLeft("RX2"))
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testReserveAndLevelTwins() async throws {
        let stock = StockService(backend: makeBackend(), journal: Journal())
        let left: Int = try await stock.reserve(30, of: "Amoxicillin")
        XCTAssertEqual(left, 70)
        let level: Int = try await stock.level(of: "Amoxicillin")
        XCTAssertEqual(level, 70)
    }

    func testRestockTwinTimesOut() async {
        let stock = StockService(backend: makeBackend(), journal: Journal())
        do {
            let level: Int = try await stock.restock("Insulin", amount: 10, after: 5, limit: 0.05)
            XCTFail("expected a timeout, got \(level)")
        } catch let error as PharmacyError {
            XCTAssertEqual(error, .timedOut)
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testNotifyTwinsNeverThrowAnError() async throws {
        let backend = makeBackend()
        backend.unreachablePatients = ["Bo"]
        let journal = Journal()
        let notifier = PatientNotifier(backend: backend, journal: journal)
        let told: Bool = try await notifier.notifyReady(amoxicillin)
        XCTAssertTrue(told)
        let all: [Bool] = try await notifier.notifyAll([amoxicillin, insulin])
        XCTAssertEqual(all, [true, false])
        XCTAssertEqual(journal.entries, ["notify 2 patients", "banner: 1 of 2 told"])
    }

    func testPharmacistQueueTwinsKeepTheOrder() async throws {
        let service = PrescriptionService(backend: makeBackend(), journal: Journal())
        let queue = PharmacistQueue(prescriptions: service)
        let first: Int = try await queue.enqueue("RX2")
        let second: Int = try await queue.enqueue("RX1")
        XCTAssertEqual([first, second], [1, 2])
        let verified: String = try await queue.verifyNext()
        XCTAssertEqual(verified, "RX2")
        let waiting = await queue.waitingCount
        XCTAssertEqual(waiting, 1)
    }

    func testDispenseTwinGivesTheLabel() async throws {
        let journal = Journal()
        let stock = StockService(backend: makeBackend(), journal: journal)
        let station = await DispensingStation(stock: stock, journal: journal)
        let label: String = try await station.dispense(amoxicillin)
        XCTAssertEqual(label, "Ada: 20 x Amoxicillin (80 left)")
        XCTAssertEqual(journal.entries.last, "screen: Ada: 20 x Amoxicillin (80 left) [1 today]")
    }

    @MainActor
    func testViewModelTwinsRunOnTheMainActor() async throws {
        let service = PrescriptionService(backend: makeBackend(), journal: Journal())
        let model = RefillViewModel(prescriptions: service)
        let loaded: Prescription = try await model.load(id: "RX1")
        XCTAssertEqual(loaded, amoxicillin)
        XCTAssertEqual(model.rows, ["Ada: Amoxicillin"])
        let summary: String = try await model.refillTapped(id: "RX1")
        XCTAssertEqual(summary, "Amoxicillin: 1 refills left")
        XCTAssertEqual(model.status, summary)
    }
}
