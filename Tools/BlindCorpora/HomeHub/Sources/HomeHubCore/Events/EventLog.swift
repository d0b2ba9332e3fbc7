import Foundation
import Tomorrowland

/// The hub's event log: state changes, scenes, automations, failures.
///
/// Everything runs on `HubQueues.eventLog`; the array is only touched there.
public final class EventLog: @unchecked Sendable {
    private var events: [HubEvent] = []
    private let capacity: Int

    public init(capacity: Int = 500) {
        self.capacity = capacity
    }

    /// Appends `event` in the background; returns at once.
    public func append(_ event: HubEvent) {
        HubQueues.eventLog.async {
            self.store(event)
        }
    }

    /// Appends `event` and fulfils with the number of events stored once it is written.
    @discardableResult
    public func record(_ event: HubEvent) -> Guaranteed<Int> {
        Promise(on: .queue(HubQueues.eventLog)) { [weak self] resolver in
            guard let self = self else {
                resolver.cancel()
                return
            }
            self.store(event)
            resolver.fulfill(with: self.events.count)
        }
    }

    /// The newest events first, optionally only of one kind.
    public func entries(of kind: HubEvent.Kind? = nil, limit: Int = 50) -> Guaranteed<[HubEvent]> {
        Promise(on: .queue(HubQueues.eventLog)) { [weak self] resolver in
            let events = self?.events ?? []
            let matching = events.reversed().filter { kind == nil || $0.kind == kind }
            resolver.fulfill(with: Array(matching.prefix(limit)))
        }
    }

    /// The whole log as JSON, oldest first.
    public func export() -> StdPromise<Data> {
        entries(limit: capacity).upcast.tryMap(on: .utility) { newestFirst in
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            return try encoder.encode(Array(newestFirst.reversed()))
        }
    }

    /// Removes every event; fulfils with how many there were.
    public func clear() -> Guaranteed<Int> {
        let (promise, resolver) = Guaranteed<Int>.makeWithResolver()
        HubQueues.eventLog.async {
            let count = self.events.count
            self.events.removeAll()
            resolver.fulfill(with: count)
        }
        return promise
    }

    private func store(_ event: HubEvent) {
        assertOnQueue(.eventLog)
        events.append(event)
        if events.count > capacity {
            events.removeFirst(events.count - capacity)
        }
    }
}
