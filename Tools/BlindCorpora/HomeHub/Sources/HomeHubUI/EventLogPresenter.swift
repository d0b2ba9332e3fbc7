import Foundation
import Tomorrowland
import HomeHubCore

/// Formats the event log for the "Activity" screen.
public final class EventLogPresenter {
    public private(set) var lines: [String] = []
    private let log: EventLog
    private let formatter: DateFormatter

    public init(log: EventLog) {
        self.log = log
        formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
    }

    /// The newest `limit` events as lines, formatted off the main queue.
    public func lines(limit: Int = 20, urgent: Bool = false) -> Guaranteed<[String]> {
        let format = formatter.dateFormat ?? "HH:mm:ss"
        return log.entries(limit: limit).map(on: urgent ? .immediate : .utility) { events in
            let formatter = DateFormatter()
            formatter.dateFormat = format
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            return events.map { event in
                let device = event.deviceID.map { " [\($0)]" } ?? ""
                return "\(formatter.string(from: event.timestamp)) \(event.kind.rawValue)\(device): \(event.message)"
            }
        }
    }

    /// Only the failures, for the troubleshooting screen.
    public func failures() -> Guaranteed<[String]> {
        log.entries(of: .failure).map(on: .nowOr(.utility)) { events in
            events.map(\.message)
        }
    }
}
