import Foundation
import Tomorrowland

/// Patients waiting for a slot to free up, first come first served.
actor WaitingList {
    private var entries: [String] = []
    private let scheduling: SchedulingService
    private(set) var offers: [String] = []

    init(scheduling: SchedulingService) {
        self.scheduling = scheduling
    }

    var count: Int { entries.count }

    /// Adds a patient; the promise holds their position (1-based).
    func add(patientID: String) -> Promise<Int, ClinicError> {
        guard !entries.contains(patientID) else {
            return Promise(rejected: .invalid("\(patientID) already waiting"))
        }
        entries.append(patientID)
        return Promise(fulfilled: entries.count)
    }

    /// Offers a freed slot to the first patient waiting; they go back to the front when the
    /// booking fails.
    func offer(_ slot: Slot) -> Promise<Booking, ClinicError> {
        guard !entries.isEmpty else {
            return Promise(rejected: .waitingListEmpty)
        }
        let patientID = entries.removeFirst()
        offers.append(patientID)
        return scheduling.book(slot: slot, patientID: patientID)
            .catch { error in
                self.putBack(patientID)
            }
    }

    private func putBack(_ patientID: String) {
        entries.insert(patientID, at: 0)
    }

    /// The waiting patients' positions, worked out off the actor.
    func positions() -> Promise<[String: Int], ClinicError> {
        let snapshot = entries
        return Promise<[String], ClinicError>(fulfilled: snapshot)
            .map(on: .utility) { ids in
                Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0 + 1) })
            }
    }
}
