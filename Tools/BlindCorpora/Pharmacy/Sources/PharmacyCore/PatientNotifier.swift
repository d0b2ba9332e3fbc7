import Foundation
import Tomorrowland

/// Tells patients their prescription is ready. A failed message is sent once more.
public final class PatientNotifier {
    private let backend: PharmacyBackend
    private let journal: Journal
    private let lock = NSLock()
    private var sent: [String] = []
    private var failures = 0

    public init(backend: PharmacyBackend, journal: Journal) {
        self.backend = backend
        self.journal = journal
    }

    /// The patients told so far, in order.
    public var sentTo: [String] {
        lock.lock()
        defer { lock.unlock() }
        return sent
    }

    public var failedMessages: Int {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }

    /// Tells the patient; fulfils with whether the message got through (never rejects).
    public func notifyReady(_ prescription: Prescription) -> Promise<Bool, NoError> {
        let patient = prescription.patient
        let text = "Your \(prescription.drug) is ready"
        let journal = self.journal
        return backend.sendMessage(to: patient, text: text)
            .flatMapResult(on: .utility) { [weak self] result -> Promise<Bool, NoError> in
                guard let self = self else {
                    journal.append("notifier gone: \(patient) not told")
                    return Promise(fulfilled: false)
                }
                if result.value != nil {
                    self.record(patient)
                    return Promise(fulfilled: true)
                }
                self.lock.lock()
                self.failures += 1
                self.lock.unlock()
                return self.backend.sendMessage(to: patient, text: text)
                    .mapResult(on: .immediate) { retried -> PromiseResult<Bool, NoError> in
                        return .value(retried.value != nil)
                    }
            }
    }

    /// Tells every patient; the flags are in the order of `prescriptions`.
    public func notifyAll(_ prescriptions: [Prescription]) -> Promise<[Bool], NoError> {
        journal.append("notify \(prescriptions.count) patients")
        let journal = self.journal
        return when(fulfilled: prescriptions.map { notifyReady($0) }).then(on: .nowOr(.main)) { told in
            journal.append("banner: \(told.filter { $0 }.count) of \(told.count) told")
        }
    }

    private func record(_ patient: String) {
        lock.lock()
        sent.append(patient)
        lock.unlock()
    }
}
