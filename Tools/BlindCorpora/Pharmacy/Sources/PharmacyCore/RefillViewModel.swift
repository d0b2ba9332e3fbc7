import Foundation
import Tomorrowland

/// The refill screen: shows prescriptions, refills them, and reports errors.
@MainActor
public final class RefillViewModel {
    private let prescriptions: PrescriptionService
    private let token = PromiseInvalidationToken()
    public private(set) var rows: [String] = []
    public private(set) var status = "idle"
    public private(set) var isLoading = false
    public private(set) var errorMessage: String?
    /// Whether the last status was shown without waiting (the answer was already there).
    public private(set) var shownInstantly = false

    public init(prescriptions: PrescriptionService) {
        self.prescriptions = prescriptions
    }

    /// Loads a prescription into the rows.
    @discardableResult
    public func load(id: String) -> Promise<Prescription, PharmacyError> {
        isLoading = true
        status = "loading \(id)"
        return prescriptions.prescription(id: id)
            .then(token: token) { prescription in
                self.rows.append("\(prescription.patient): \(prescription.drug)")
                self.status = "loaded \(id)"
            }
            .catch(token: token) { error in
                self.errorMessage = "could not load \(id): \(error)"
            }
            .always { _ in
                self.isLoading = false
            }
            .requestCancelOnInvalidate(token)
    }

    /// Loads two prescriptions side by side; the rows keep the order of the arguments.
    @discardableResult
    public func loadPair(_ first: String, _ second: String) -> Promise<(Prescription, Prescription), PharmacyError> {
        let a = prescriptions.prescription(id: first)
        let b = prescriptions.prescription(id: second)
        return when(fulfilled: a, b).then(on: .main) { pair in
            self.rows = [pair.0.id, pair.1.id]
        }
    }

    /// Refills and shows the outcome; a refill that fails shows the error instead.
    @discardableResult
    public func refillTapped(id: String) -> Promise<String, NoError> {
        status = "refilling \(id)"
        return prescriptions.refill(id: id)
            .then(on: .nowOr(.main)) { summary in
                self.status = summary
                self.shownInstantly = PromiseContext.isExecutingNow
            }
            .recover(on: .nowOr(.main)) { error in
                self.errorMessage = "refill failed: \(error)"
                return "refill failed"
            }
    }

    /// Shows a prescription's drug in the status line, without waiting when it is in the cache.
    @discardableResult
    public func showCached(id: String) -> Promise<Prescription, PharmacyError> {
        return prescriptions.prescription(id: id).then(on: .nowOr(.main)) { prescription in
            self.status = prescription.drug
            self.shownInstantly = PromiseContext.isExecutingNow
        }
    }

    /// Stops every load in flight: their callbacks are skipped and their requests cancelled.
    public func cancelLoading() {
        token.invalidate()
        isLoading = false
    }
}
