import Foundation
import Tomorrowland

/// Loads and caches patients. The cache is guarded by a lock, because callers on any queue
/// read it while a chain on `.records` fills it.
final class PatientService {
    private let server: FakeClinicServer
    private let cacheLock = NSLock()
    private var cache: [String: Patient] = [:]
    private var inFlight: [String: Promise<Patient, ClinicError>] = [:]
    /// What the service was asked for, in order; appended during the call.
    private(set) var lookups: [String] = []

    init(server: FakeClinicServer) {
        self.server = server
    }

    var cachedPatientIDs: [String] {
        cacheLock.lock(); defer { cacheLock.unlock() }
        return cache.keys.sorted()
    }

    /// The patient, from the cache when it is there; one request per id while one is in flight.
    func fetchPatient(id: String) -> Promise<Patient, ClinicError> {
        lookups.append(id)
        guard !id.isEmpty else {
            return Promise(rejected: .invalid("empty patient id"))
        }
        cacheLock.lock()
        if let patient = cache[id] {
            cacheLock.unlock()
            return Promise(fulfilled: patient)
        }
        if let pending = inFlight[id] {
            cacheLock.unlock()
            return pending
        }
        let promise = server.getPatient(id)
            .then(on: .records) { [weak self] patient in
                self?.store(patient)
            }
            .always(on: .immediate) { [weak self] _ in
                self?.finishFlight(id)
            }
        inFlight[id] = promise
        cacheLock.unlock()
        return promise
    }

    private func store(_ patient: Patient) {
        cacheLock.lock()
        cache[patient.id] = patient
        cacheLock.unlock()
    }

    private func finishFlight(_ id: String) {
        cacheLock.lock()
        inFlight[id] = nil
        cacheLock.unlock()
    }

    /// Several patients at once, in the order asked.
    func fetchPatients(ids: [String]) -> Promise<[Patient], ClinicError> {
        when(fulfilled: ids.map { fetchPatient(id: $0) }, cancelOnFailure: true)
    }

    /// The patient's display name, "Unknown patient" when the lookup fails for any reason.
    func displayName(id: String) -> Promise<String, NoError> {
        fetchPatient(id: id)
            .map(on: .utility) { patient in patient.name.uppercased() }
            .recover(on: .utility) { _ in "Unknown patient" }
    }

    /// Changes the patient's email after checking it.
    func updateEmail(patientID: String, to email: String) -> Promise<Patient, ClinicError> {
        let trimmed = email.trimmingCharacters(in: .whitespaces)
        guard trimmed.contains("@") else {
            return Promise(rejected: .invalid("email \(email)"))
        }
        return fetchPatient(id: patientID)
            .flatMap(on: .utility) { [server] patient -> Promise<Patient, ClinicError> in
                var updated = patient
                updated.email = trimmed
                return server.putPatient(updated)
            }
            .then(on: .records) { [weak self] patient in
                self?.store(patient)
            }
    }

    /// Forgets the cached patient.
    func evict(id: String) {
        cacheLock.lock()
        cache[id] = nil
        cacheLock.unlock()
    }
}
