import Foundation
import Tomorrowland

/// The appointments screen: a patient's upcoming bookings and the free slots of their
/// practitioner.
@MainActor
final class AppointmentsViewModel {
    private let scheduling: SchedulingService
    private let patients: PatientService
    /// Where results are delivered: the main queue.
    let delivery: PromiseContext = .main

    private(set) var title = ""
    private(set) var slots: [Slot] = []
    private(set) var isLoading = false
    private(set) var errorMessage: String?
    private(set) var events: [String] = []
    private var slotsRequest: Promise<[Slot], ClinicError>?

    init(scheduling: SchedulingService, patients: PatientService) {
        self.scheduling = scheduling
        self.patients = patients
    }

    /// Loads the patient's name for the title.
    @discardableResult
    func loadTitle(patientID: String) -> Promise<Patient, ClinicError> {
        events.append("title requested")
        return patients.fetchPatient(id: patientID)
            .then(on: .main) { [weak self] patient in
                self?.title = "Appointments for \(patient.name)"
                self?.events.append("title shown")
            }
            .catch(on: .main) { [weak self] error in
                self?.errorMessage = "Could not load patient: \(error)"
            }
    }

    /// Loads the free slots; a second call cancels the first.
    @discardableResult
    func loadSlots(practitionerID: String) -> Promise<[Slot], ClinicError> {
        slotsRequest?.requestCancel()
        isLoading = true
        let request = scheduling.watchSlots(practitionerID: practitionerID)
        slotsRequest = request
        request
            .then(on: delivery) { [weak self] slots in
                self?.slots = slots
            }
            .always(on: .main) { [weak self] result in
                self?.isLoading = false
                if case .cancelled = result {
                    self?.events.append("slots cancelled")
                } else {
                    self?.events.append("slots done")
                }
            }
        return request
    }

    /// Books a slot and refreshes the list.
    func book(_ slot: Slot, patientID: String) -> Promise<Booking, ClinicError> {
        scheduling.book(slot: slot, patientID: patientID)
            .then(on: .main) { [weak self] booking in
                self?.events.append("booked \(booking.id)")
                self?.slots.removeAll { $0.id == slot.id }
            }
            .catch(on: .main) { [weak self] error in
                if case .slotTaken = error {
                    self?.errorMessage = "That slot was just taken"
                } else {
                    self?.errorMessage = "Booking failed"
                }
            }
    }

    /// Stops the slots request in flight.
    func cancelLoading() {
        slotsRequest?.requestCancel()
    }
}
