import Foundation
import Tomorrowland

/// Prescriptions and their refills. Keeps the prescriptions it has seen in a cache guarded by a lock.
public final class PrescriptionService {
    private let backend: PharmacyBackend
    private let journal: Journal
    private let lock = NSLock()
    private var cache: [String: Prescription] = [:]
    private var lookups = 0
    private var saves = 0
    private var inFlight = 0

    public init(backend: PharmacyBackend, journal: Journal) {
        self.backend = backend
        self.journal = journal
    }

    /// How many lookups were asked for, cache hits included.
    public var lookupCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return lookups
    }

    /// How many refills the backend saved.
    public var savedRefills: Int {
        lock.lock()
        defer { lock.unlock() }
        return saves
    }

    /// Refills asked for that have not finished yet.
    public var refillsInFlight: Int {
        lock.lock()
        defer { lock.unlock() }
        return inFlight
    }

    /// A prescription by id: from the cache (already resolved), or from the backend, cached
    /// on a utility queue before the returned promise resolves.
    public func prescription(id: String) -> Promise<Prescription, PharmacyError> {
        lock.lock()
        lookups += 1
        let cached = cache[id]
        lock.unlock()
        journal.append("lookup \(id)")
        if let cached = cached {
            return Promise(fulfilled: cached)
        }
        return backend.fetchPrescription(id: id).then(on: .utility) { [weak self] prescription in
            guard let self = self else { return }
            self.lock.lock()
            self.cache[prescription.id] = prescription
            self.lock.unlock()
            self.journal.append("cached \(prescription.id)")
        }
    }

    /// Refills a prescription and describes what is left, e.g. "Amoxicillin: 1 refills left".
    public func refill(id: String) -> Promise<String, PharmacyError> {
        lock.lock()
        inFlight += 1
        lock.unlock()
        journal.append("refill \(id) requested")
        let journal = self.journal
        return prescription(id: id)
            .flatMap(on: .utility) { [weak self] prescription -> Promise<Prescription, PharmacyError> in
                guard let self = self else {
                    journal.append("refill \(id) dropped: service gone")
                    return Promise(rejected: .backendUnavailable)
                }
                guard prescription.refillsLeft > 0 else {
                    return Promise(rejected: .noRefillsLeft(id))
                }
                return self.backend.saveRefill(prescription)
            }
            .tap(on: .immediate) { [weak self] result in
                guard let self = self, result.value != nil else { return }
                self.lock.lock()
                self.saves += 1
                self.lock.unlock()
            }
            .mapResult(on: .utility) { result -> PromiseResult<String, PharmacyError> in
                switch result {
                case .value(let saved):
                    return .value("\(saved.drug): \(saved.refillsLeft) refills left")
                case .error(let error):
                    return .error(error)
                case .cancelled:
                    journal.append("refill \(id) cancelled")
                    return .cancelled
                }
            }
            .always { [weak self] _ in
                guard let self = self else { return }
                self.lock.lock()
                self.inFlight -= 1
                self.lock.unlock()
            }
    }
}
