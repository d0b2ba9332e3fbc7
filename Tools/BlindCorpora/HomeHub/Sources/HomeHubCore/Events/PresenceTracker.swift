import Foundation
import Tomorrowland

/// Who is at home, as the hub's presence detection (phones on the Wi-Fi) says.
public actor PresenceTracker {
    public private(set) var present: Set<String> = []
    public private(set) var lastRefresh: Date?
    private let transport: HubTransport

    public init(transport: HubTransport) {
        self.transport = transport
    }

    /// Asks the hub who is home and remembers the answer.
    public func refresh() -> HubPromise<Set<String>> {
        Command<[String]>(HubRequest(.get, "/presence")).send(via: transport)
            .map(on: .utility) { names in Set(names) }
            .then { people in
                self.present = people
                self.lastRefresh = Date()
            }
    }

    /// Whether `person` was home at the last refresh.
    public func isHome(_ person: String) -> Bool {
        present.contains(person)
    }

    /// Whether anybody is home, refreshing first when the last answer is older than `maxAge`.
    public func anybodyHome(maxAge: TimeInterval = 60) -> Guaranteed<Bool> {
        if let lastRefresh = lastRefresh, Date().timeIntervalSince(lastRefresh) < maxAge {
            return Guaranteed(fulfilled: !present.isEmpty)
        }
        return refresh()
            .map(on: .immediate) { !$0.isEmpty }
            .recover(on: .immediate) { _ in false }
    }
}
