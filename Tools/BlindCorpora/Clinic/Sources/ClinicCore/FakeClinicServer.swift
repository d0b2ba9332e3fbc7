import Foundation
import Tomorrowland

/// An in-process stand-in for the clinic's backend: every request answers on a private queue
/// after `latency` seconds, and a cancel request reaches it (recorded in `cancelledRequests`).
final class FakeClinicServer {
    private let queue = DispatchQueue(label: "clinic.fake-server")
    private let lock = NSLock()
    private var _requests: [String] = []
    private var _cancelledRequests: [String] = []

    var latency: TimeInterval = 0.02
    var isOffline = false

    var patients: [String: Patient] = [:]
    var practitioners: [Practitioner] = []
    var slots: [Slot] = []
    var bookedSlotIDs: Set<Int> = []
    var labResults: [String: [LabResult]] = [:]
    var prices: [String: Int] = [:]
    /// Lab results that become final only after this many polls.
    var pollsUntilFinal: [String: Int] = [:]
    /// Paths that never answer (the request stays in flight until cancelled).
    var hangingPaths: Set<String> = []
    private var nextBookingID = 100

    init() {}

    var requests: [String] {
        lock.lock(); defer { lock.unlock() }
        return _requests
    }

    var cancelledRequests: [String] {
        lock.lock(); defer { lock.unlock() }
        return _cancelledRequests
    }

    /// Sends a request; `respond` runs on the server's queue when the answer is due.
    func request<T>(_ path: String, latency: TimeInterval? = nil, respond: @escaping () -> Result<T, ClinicError>) -> Promise<T, ClinicError> {
        lock.lock()
        _requests.append(path)
        lock.unlock()
        let (promise, resolver) = Promise<T, ClinicError>.makeWithResolver()
        if hangingPaths.contains(path) {
            resolver.onRequestCancel(on: .immediate) { [weak self] resolver in
                self?.recordCancel(path)
                resolver.cancel()
            }
            return promise
        }
        let offline = isOffline
        let work = DispatchWorkItem {
            if offline {
                resolver.reject(with: .offline)
                return
            }
            switch respond() {
            case .success(let value): resolver.fulfill(with: value)
            case .failure(let error): resolver.reject(with: error)
            }
        }
        resolver.onRequestCancel(on: .immediate) { [weak self] resolver in
            work.cancel()
            self?.recordCancel(path)
            resolver.cancel()
        }
        queue.asyncAfter(deadline: .now() + (latency ?? self.latency), execute: work)
        return promise
    }

    private func recordCancel(_ path: String) {
        lock.lock()
        _cancelledRequests.append(path)
        lock.unlock()
    }

    // MARK: Endpoints

    func getPatient(_ id: String) -> Promise<Patient, ClinicError> {
        request("GET /patients/\(id)") { [unowned self] in
            guard let patient = self.patients[id] else { return .failure(.notFound("patient \(id)")) }
            return .success(patient)
        }
    }

    func putPatient(_ patient: Patient) -> Promise<Patient, ClinicError> {
        request("PUT /patients/\(patient.id)") { [unowned self] in
            self.patients[patient.id] = patient
            return .success(patient)
        }
    }

    func getPractitioners() -> Promise<[Practitioner], ClinicError> {
        request("GET /practitioners") { [unowned self] in .success(self.practitioners) }
    }

    func getSlots(practitionerID: String) -> Promise<[Slot], ClinicError> {
        request("GET /slots?practitioner=\(practitionerID)") { [unowned self] in
            .success(self.slots.filter { $0.practitionerID == practitionerID && !self.bookedSlotIDs.contains($0.id) })
        }
    }

    func reserve(slot: Slot, patientID: String) -> Promise<Booking, ClinicError> {
        request("POST /bookings/\(slot.id)") { [unowned self] in
            guard !self.bookedSlotIDs.contains(slot.id) else { return .failure(.slotTaken(slot.id)) }
            self.bookedSlotIDs.insert(slot.id)
            self.nextBookingID += 1
            return .success(Booking(id: self.nextBookingID, slot: slot, patientID: patientID, status: .confirmed))
        }
    }

    func release(booking: Booking) -> Promise<Booking, ClinicError> {
        request("DELETE /bookings/\(booking.id)") { [unowned self] in
            self.bookedSlotIDs.remove(booking.slot.id)
            var cancelled = booking
            cancelled.status = .cancelled
            return .success(cancelled)
        }
    }

    func getLabResults(patientID: String) -> Promise<[LabResult], ClinicError> {
        request("GET /labs?patient=\(patientID)") { [unowned self] in .success(self.labResults[patientID] ?? []) }
    }

    func getLabResult(id: String) -> Promise<LabResult, ClinicError> {
        request("GET /labs/\(id)") { [unowned self] in
            let all = self.labResults.values.flatMap { $0 }
            guard var result = all.first(where: { $0.id == id }) else { return .failure(.notFound("lab \(id)")) }
            let remaining = self.pollsUntilFinal[id] ?? 0
            if remaining > 0 {
                self.pollsUntilFinal[id] = remaining - 1
                result.isFinal = false
            } else {
                result.isFinal = true
            }
            return .success(result)
        }
    }

    func getPrice(for booking: Booking) -> Promise<Int, ClinicError> {
        request("GET /prices/\(booking.slot.practitionerID)") { [unowned self] in
            guard let price = self.prices[booking.slot.practitionerID] else { return .failure(.notFound("price")) }
            return .success(price * booking.slot.durationMinutes / 30)
        }
    }

    func charge(_ invoice: Invoice, limitCents: Int) -> Promise<Invoice, ClinicError> {
        request("POST /charges/\(invoice.id)") {
            guard invoice.amountCents <= limitCents else { return .failure(.paymentDeclined(cents: invoice.amountCents)) }
            var paid = invoice
            paid.isPaid = true
            return .success(paid)
        }
    }

    func sendMessage(to patientID: String, text: String, latency: TimeInterval? = nil) -> Promise<Void, ClinicError> {
        request("POST /messages/\(patientID)", latency: latency) { .success(()) }
    }
}
