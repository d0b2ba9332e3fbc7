import Foundation
import LedgerCore
import Tomorrowland

/// The actor background sync work runs on.
@globalActor
public actor LedgerSyncActor {
    public static let shared = LedgerSyncActor()
}

/// Flushes the offline outbox when the app comes online, and periodically after that.
@LedgerSyncActor
public final class OutboxMonitor {
    private let outbox: Outbox
    private var token = PromiseInvalidationToken()
    public private(set) var flushCount = 0
    public private(set) var lastReport: FlushReport?
    public private(set) var isRunning = false

    public nonisolated init(outbox: Outbox) {
        self.outbox = outbox
    }

    /// Flushes now and records the report.
    @discardableResult
    public func flushNow() -> Guaranteed<FlushReport> {
        flushCount += 1
        return outbox.flush().then { report in
            self.lastReport = report
        }
    }

    /// Flushes every `interval` seconds until `stop()`.
    public func start(every interval: TimeInterval) {
        token.invalidate()
        isRunning = true
        scheduleFlush(after: interval)
    }

    public func stop() {
        token.invalidate()
        isRunning = false
    }

    private func scheduleFlush(after interval: TimeInterval) {
        Promise<Void, NoError>(on: .utility, fulfilled: (), after: interval)
            .then(token: token) {
                self.flushNow().always(on: .utility) { _ in }
                self.scheduleFlush(after: interval)
            }
            .requestCancelOnInvalidate(token)
    }
}
