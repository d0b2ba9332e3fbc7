import Foundation
import Tomorrowland

/// The clinic's own contexts, written with a leading dot at call sites (`.then(on: .records)`).
extension PromiseContext {
    /// Patient records: every cache write happens on this queue.
    static let records = PromiseContext.queue(ClinicQueues.records)
    /// Billing arithmetic.
    static let billing = PromiseContext.queue(ClinicQueues.billing)
}
