import Foundation
import Tomorrowland

/// The pharmacy's server. This one answers from tables in memory: at once when `latency` is 0,
/// otherwise after `latency` seconds on its own queue (a request can be cancelled until then).
public final class PharmacyBackend {
    private let lock = NSLock()
    private var prescriptions: [String: Prescription] = [:]
    private var stock: [String: Int]
    private var requests = 0
    private var cancelled: [String] = []
    private let queue = QueueLabel.makeQueue("backend")

    /// Seconds before an answer arrives; 0 answers before the call returns.
    public var latency: TimeInterval
    /// Patients whose phone number is wrong: messages to them fail.
    public var unreachablePatients: Set<String> = []

    public init(prescriptions: [Prescription], stock: [String: Int], latency: TimeInterval = 0) {
        for prescription in prescriptions {
            self.prescriptions[prescription.id] = prescription
        }
        self.stock = stock
        self.latency = latency
    }

    public var requestCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }

    /// The requests that were cancelled before their answer arrived, in order.
    public var cancelledRequests: [String] {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    public func fetchPrescription(id: String) -> Promise<Prescription, PharmacyError> {
        lock.lock()
        let found = prescriptions[id]
        lock.unlock()
        return answer("prescription \(id)", found.map { .value($0) } ?? .error(.notFound(id)))
    }

    public func saveRefill(_ prescription: Prescription) -> Promise<Prescription, PharmacyError> {
        lock.lock()
        var saved = prescriptions[prescription.id] ?? prescription
        saved.refillsLeft -= 1
        prescriptions[prescription.id] = saved
        lock.unlock()
        return answer("refill \(prescription.id)", .value(saved))
    }

    public func stockLevel(drug: String) -> Promise<Int, PharmacyError> {
        lock.lock()
        let level = stock[drug]
        lock.unlock()
        return answer("stock \(drug)", level.map { .value($0) } ?? .error(.notFound(drug)))
    }

    public func sendMessage(to patient: String, text: String) -> Promise<Void, PharmacyError> {
        let reachable = !unreachablePatients.contains(patient)
        return answer("message \(patient)", reachable ? .value(()) : .error(.backendUnavailable))
    }

    private func answer<T>(_ request: String, _ result: PromiseResult<T, PharmacyError>) -> Promise<T, PharmacyError> {
        lock.lock()
        requests += 1
        lock.unlock()
        guard latency > 0 else {
            return Promise(with: result)
        }
        return Promise(on: .immediate) { resolver in
            let delivery = DispatchWorkItem {
                resolver.resolve(with: result)
            }
            resolver.onRequestCancel(on: .immediate) { [weak self] resolver in
                delivery.cancel()
                if let self = self {
                    self.lock.lock()
                    self.cancelled.append(request)
                    self.lock.unlock()
                }
                resolver.cancel()
            }
            self.queue.asyncAfter(deadline: .now() + self.latency, execute: delivery)
        }
    }
}
