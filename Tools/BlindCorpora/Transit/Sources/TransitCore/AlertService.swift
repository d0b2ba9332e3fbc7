import Foundation
import Tomorrowland

/// Service alerts. The feed is fetched once, lazily, on first use, and shared by every caller.
public final class AlertService: @unchecked Sendable {
    private let server: FakeTransitServer
    private let feed: DelayedPromise<[ServiceAlert], TransitError>
    private let lock = NSLock()
    private var _dismissed: Set<String> = []
    private var _events: [String] = []

    public init(server: FakeTransitServer) {
        self.server = server
        let events = EventLog()
        self.eventLog = events
        feed = DelayedPromise<[ServiceAlert], TransitError>(on: .utility) { resolver in
            events.append("feed.fetch")
            resolver.resolve(with: server.request("alerts") { .success(server.alerts) })
        }
    }

    private let eventLog: EventLog

    /// What the service did, in order (`feed.fetch`, `dismiss A1`, …).
    public var events: [String] { eventLog.entries }

    /// Every alert that was not dismissed, most severe first.
    public func activeAlerts() -> TransitPromise<[ServiceAlert]> {
        feed.promise.map(on: .immediate) { [weak self] alerts in
            let dismissed = self?.dismissedIDs ?? []
            return alerts
                .filter { !dismissed.contains($0.id) }
                .sorted { $0.severity > $1.severity }
        }
    }

    /// The alerts of one route, at or above a severity.
    public func alerts(routeID: String, atLeast severity: AlertSeverity = .info) -> TransitPromise<[ServiceAlert]> {
        activeAlerts().map(on: .transitDecode) { alerts in
            alerts.filter { $0.routeIDs.contains(routeID) && $0.severity >= severity }
        }
    }

    /// The headline for a route's banner: the most severe alert's text, or nil.
    public func headline(routeID: String) -> Promise<String?, NoError> {
        alerts(routeID: routeID)
            .map(on: .immediate) { $0.first?.text }
            .tap(on: .immediate) { [eventLog] result in
                if case .error(let error) = result {
                    eventLog.append("headline.error \(error)")
                }
            }
            .recover(on: .immediate) { _ in nil }
    }

    /// Hides an alert. Takes effect for calls made after the acknowledgement arrives.
    public func dismiss(alertID: String) -> TransitPromise<Void> {
        eventLog.append("dismiss \(alertID)")
        return server.request("alerts/\(alertID)/dismiss") { .success(()) }
            .then(on: .immediate) { [weak self] in
                guard let self = self else { return }
                self.lock.lock()
                self._dismissed.insert(alertID)
                self.lock.unlock()
            }
            .onCancel(on: .immediate) { [eventLog] in
                eventLog.append("dismiss.cancelled \(alertID)")
            }
    }

    private var dismissedIDs: Set<String> {
        lock.lock(); defer { lock.unlock() }
        return _dismissed
    }
}

/// A thread-safe list of strings.
public final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _entries: [String] = []

    public init() {}

    public func append(_ entry: String) {
        lock.lock(); _entries.append(entry); lock.unlock()
    }

    public var entries: [String] {
        lock.lock(); defer { lock.unlock() }
        return _entries
    }
}
