import Foundation
import Tomorrowland

/// The pharmacist's work queue: prescriptions wait here until the pharmacist verifies them.
public actor PharmacistQueue {
    private let prescriptions: PrescriptionService
    private var waiting: [String] = []
    public private(set) var verified: [String] = []

    public init(prescriptions: PrescriptionService) {
        self.prescriptions = prescriptions
    }

    /// Puts a prescription in the queue once it is known to exist; fulfils with its place (1-based).
    public func enqueue(_ id: String) -> Promise<Int, PharmacyError> {
        return prescriptions.prescription(id: id).map(on: .immediate) { prescription in
            self.waiting.append(prescription.id)
            return self.waiting.count
        }
    }

    /// Verifies the first waiting prescription; fulfils with its id.
    public func verifyNext() -> Promise<String, PharmacyError> {
        guard !waiting.isEmpty else {
            return Promise(rejected: .notFound("queue is empty"))
        }
        let id = waiting.removeFirst()
        return prescriptions.prescription(id: id).map(on: .utility) { prescription in
            return prescription.id
        }.then { id in
            self.verified.append(id)
        }
    }

    public var waitingCount: Int {
        return waiting.count
    }
}
