import Foundation
import Tomorrowland

/// Sends appointment reminders after a delay; `invalidateAll()` drops the pending ones.
final class ReminderScheduler {
    private let server: FakeClinicServer
    private let token = PromiseInvalidationToken()
    private let lock = NSLock()
    private var _sent: [Reminder] = []
    var sendTimeout: TimeInterval = 1.0

    init(server: FakeClinicServer) {
        self.server = server
    }

    var sent: [Reminder] {
        lock.lock(); defer { lock.unlock() }
        return _sent
    }

    private func record(_ reminder: Reminder) {
        lock.lock()
        _sent.append(reminder)
        lock.unlock()
    }

    /// Records a reminder for the booking after `lead` seconds, unless invalidated first.
    func scheduleReminder(for booking: Booking, after lead: TimeInterval) -> Promise<Reminder, NoError> {
        let reminder = Reminder(bookingID: booking.id, message: "See you at minute \(booking.slot.startMinute)")
        return Promise<Reminder, NoError>(on: .queue(ClinicQueues.reminders), fulfilled: reminder, after: lead)
            .then(on: .queue(ClinicQueues.reminders), token: token) { [weak self] reminder in
                self?.record(reminder)
            }
    }

    /// Sends the reminder message; `.timedOut` when the server is slower than `sendTimeout`.
    func send(_ reminder: Reminder, to patientID: String) -> Promise<Reminder, ClinicError> {
        server.sendMessage(to: patientID, text: reminder.message)
            .timeout(on: .utility, delay: sendTimeout)
            .mapError(on: .immediate) { error -> ClinicError in
                switch error {
                case .timedOut: return .timedOut
                case .rejected(let inner): return inner
                }
            }
            .map(on: .immediate) { _ in reminder }
    }

    /// Waits, then sends: a cancel request during the wait stops the message.
    func sendLater(_ reminder: Reminder, to patientID: String, after lead: TimeInterval) -> Promise<Reminder, ClinicError> {
        Promise<Void, ClinicError>(on: .utility, fulfilled: (), after: lead)
            .flatMap(on: .utility) { [weak self] _ -> Promise<Reminder, ClinicError> in
                guard let self = self else { return Promise(rejected: .offline) }
                return self.send(reminder, to: patientID)
            }
            .then(on: .utility) { [weak self] reminder in
                self?.record(reminder)
            }
    }

    /// Sends a reminder for every booking; the ones that fail are skipped.
    func sendAll(_ bookings: [Booking]) -> Promise<Int, NoError> {
        let sends = bookings.map { booking in
            send(Reminder(bookingID: booking.id, message: "Reminder"), to: booking.patientID)
                .map(on: .immediate) { _ in 1 }
                .recover(on: .immediate) { _ in 0 }
        }
        return when(fulfilled: sends).map(on: .utility) { $0.reduce(0, +) }
    }

    /// Drops every reminder not yet recorded.
    func invalidateAll() {
        token.invalidate()
    }
}
