import Foundation
import Tomorrowland

/// Lab results: fetched with a deadline, polled until final.
final class LabResultsService {
    private let server: FakeClinicServer
    private let lock = NSLock()
    private var prefetched: [String: Promise<[LabResult], ClinicError>] = [:]
    let deadline: TimeInterval
    let pollInterval: TimeInterval

    init(server: FakeClinicServer, deadline: TimeInterval = 1.0, pollInterval: TimeInterval = 0.02) {
        self.server = server
        self.deadline = deadline
        self.pollInterval = pollInterval
    }

    /// The patient's results, newest test name first; `.timedOut` after `deadline`.
    func results(patientID: String) -> Promise<[LabResult], ClinicError> {
        server.getLabResults(patientID: patientID)
            .timeout(on: .queue(ClinicQueues.labs), delay: deadline)
            .mapError(on: .immediate) { error -> ClinicError in
                switch error {
                case .timedOut: return .timedOut
                case .rejected(let inner): return inner
                }
            }
            .map(on: .queue(ClinicQueues.labs)) { results in results.sorted { $0.test > $1.test } }
    }

    /// Polls a result until it is final, `pollInterval` apart; at most `attempts` polls.
    func pollUntilFinal(resultID: String, attempts: Int = 10) -> Promise<LabResult, ClinicError> {
        server.getLabResult(id: resultID)
            .flatMap(on: .queue(ClinicQueues.labs)) { [weak self] result -> Promise<LabResult, ClinicError> in
                guard let self = self else { return Promise(rejected: .offline) }
                if result.isFinal {
                    return Promise(fulfilled: result)
                }
                guard attempts > 1 else {
                    return Promise(rejected: .timedOut)
                }
                return Promise<Void, ClinicError>(on: .queue(ClinicQueues.labs), fulfilled: (), after: self.pollInterval)
                    .flatMap(on: .immediate) { _ in self.pollUntilFinal(resultID: resultID, attempts: attempts - 1) }
            }
    }

    /// Starts loading the results before the screen asks; one load per patient, shared by
    /// every viewer, and not cancelled when one viewer goes away.
    func prefetch(patientID: String) -> Promise<[LabResult], ClinicError> {
        lock.lock()
        defer { lock.unlock() }
        if let existing = prefetched[patientID] {
            return existing.ignoringCancel()
        }
        let load = results(patientID: patientID)
        prefetched[patientID] = load
        return load.ignoringCancel()
    }

    /// Results that arrive later than `delay` seconds after they were fetched (a slow network).
    func delayedResults(patientID: String, by delay: TimeInterval) -> Promise<[LabResult], ClinicError> {
        server.getLabResults(patientID: patientID)
            .delay(on: .queue(ClinicQueues.labs), delay)
    }

    /// A value computed on the labs queue, checked by a resolver that honours cancel requests.
    func averageValue(of results: [LabResult]) -> Promise<Double, ClinicError> {
        Promise<Double, ClinicError>(on: .queue(ClinicQueues.labs)) { resolver in
            guard !results.isEmpty else {
                resolver.reject(with: .invalid("no results"))
                return
            }
            if resolver.hasRequestedCancel {
                resolver.cancel()
                return
            }
            let total = results.reduce(0) { $0 + $1.value }
            resolver.fulfill(with: total / Double(results.count))
        }
    }

    /// Results shown only while `token` is valid.
    func results(patientID: String, token: PromiseInvalidationToken, onShow: @escaping ([LabResult]) -> Void) -> Promise<[LabResult], ClinicError> {
        results(patientID: patientID)
            .then(on: .utility, token: token) { results in
                onShow(results)
            }
            .requestCancelOnInvalidate(token)
    }
}
