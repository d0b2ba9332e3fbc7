import Foundation
import Tomorrowland

/// Slots and bookings.
final class SchedulingService {
    private let server: FakeClinicServer
    private let patients: PatientService
    private let lock = NSLock()
    private var _log: [String] = []
    private var shared: [String: Promise<[Slot], ClinicError>] = [:]

    init(server: FakeClinicServer, patients: PatientService) {
        self.server = server
        self.patients = patients
    }

    /// What the service did, in order.
    var log: [String] {
        lock.lock(); defer { lock.unlock() }
        return _log
    }

    private func note(_ entry: String) {
        lock.lock()
        _log.append(entry)
        lock.unlock()
    }

    /// Free slots of a practitioner, earliest first.
    func availableSlots(practitionerID: String) -> Promise<[Slot], ClinicError> {
        note("slots \(practitionerID)")
        return server.getSlots(practitionerID: practitionerID)
            .map(on: .utility) { slots in slots.sorted { $0.startMinute < $1.startMinute } }
    }

    /// The earliest free slot, or `.notFound`.
    func earliestSlot(practitionerID: String) -> Promise<Slot, ClinicError> {
        availableSlots(practitionerID: practitionerID)
            .flatMap(on: .immediate) { slots -> Promise<Slot, ClinicError> in
                guard let first = slots.first else {
                    return Promise(rejected: .notFound("free slot for \(practitionerID)"))
                }
                return Promise(fulfilled: first)
            }
    }

    /// Books a slot for a patient: checks the patient exists, then reserves.
    func book(slot: Slot, patientID: String) -> Promise<Booking, ClinicError> {
        note("book \(slot.id) for \(patientID)")
        return patients.fetchPatient(id: patientID)
            .flatMap(on: .utility) { [server] patient in
                server.reserve(slot: slot, patientID: patient.id)
            }
            .then(on: .utility) { [weak self] booking in
                self?.note("booked \(booking.id)")
            }
            .catch(on: .utility) { [weak self] error in
                self?.note("failed \(slot.id): \(error)")
            }
    }

    /// Books the earliest free slot of the first practitioner who answers; the other requests
    /// are cancelled.
    func bookFirstAvailable(practitionerIDs: [String], patientID: String) -> Promise<Booking, ClinicError> {
        let candidates = practitionerIDs.map { earliestSlot(practitionerID: $0) }
        return when(first: candidates, cancelRemaining: true)
            .flatMap(on: .utility) { [weak self] slot -> Promise<Booking, ClinicError> in
                guard let self = self else { return Promise(rejected: .offline) }
                return self.book(slot: slot, patientID: patientID)
            }
    }

    /// A booking and the patient it is for, fetched together.
    func bookingSummary(slot: Slot, patientID: String) -> Promise<String, ClinicError> {
        when(fulfilled: book(slot: slot, patientID: patientID), patients.fetchPatient(id: patientID))
            .map(on: .utility) { booking, patient in
                "#\(booking.id) \(patient.name) at \(booking.slot.startMinute)"
            }
    }

    /// Cancels a booking. Once sent the release is not withdrawn: a cancel request on the
    /// returned promise does not reach the server.
    func cancelBooking(_ booking: Booking) -> Promise<Booking, ClinicError> {
        note("cancel \(booking.id)")
        return server.release(booking: booking)
            .ignoringCancel()
            .tap(on: .utility) { [weak self] result in
                if case .value(let released) = result {
                    self?.note("released \(released.id)")
                }
            }
    }

    /// Moves a booking to another slot; when the new slot is taken, the old booking is kept.
    func rebook(_ booking: Booking, to slot: Slot) -> Promise<Booking, ClinicError> {
        book(slot: slot, patientID: booking.patientID)
            .flatMap(on: .utility) { [server] newBooking in
                server.release(booking: booking).map(on: .immediate) { _ in newBooking }
            }
            .flatMapError(on: .utility) { error -> Promise<Booking, ClinicError> in
                if case .slotTaken = error {
                    return Promise(fulfilled: booking)
                }
                return Promise(rejected: error)
            }
    }

    /// Free slots of a practitioner, one request shared by every caller while it is in flight.
    /// Each caller gets a child of its own; the request is cancelled once every caller asked.
    func sharedSlots(practitionerID: String) -> Promise<[Slot], ClinicError> {
        lock.lock()
        if let existing = shared[practitionerID] {
            lock.unlock()
            return existing.makeChild()
        }
        lock.unlock()
        let request = availableSlots(practitionerID: practitionerID)
            .propagatingCancellation(on: .immediate) { [weak self] _ in
                self?.note("cancel requested for \(practitionerID)")
                self?.forgetShared(practitionerID)
            }
        lock.lock()
        shared[practitionerID] = request
        lock.unlock()
        return request.makeChild()
    }

    private func forgetShared(_ practitionerID: String) {
        lock.lock()
        shared[practitionerID] = nil
        lock.unlock()
    }

    /// Slots of a practitioner, noting when the request is cancelled.
    func watchSlots(practitionerID: String) -> Promise<[Slot], ClinicError> {
        availableSlots(practitionerID: practitionerID)
            .onCancel(on: .utility) { [weak self] in
                self?.note("slots cancelled \(practitionerID)")
            }
    }
}
