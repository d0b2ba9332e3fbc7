import Foundation
import Tomorrowland

/// The messages received so far. Bookkeeping happens on the inbox queue.
final class Inbox {
    let transport: FakeTransport
    let journal: Journal
    private(set) var messages: [Message] = []
    private(set) var isRefreshing = false
    private(set) var refreshCount = 0

    init(transport: FakeTransport, journal: Journal) {
        self.transport = transport
        self.journal = journal
    }

    /// Fetches what arrived since the last refresh.
    func refresh() -> Promise<[Message], RelayError> {
        refreshCount += 1
        isRefreshing = true
        let number = refreshCount
        journal.log("refresh \(number) start")
        let since = messages.last?.id ?? 0
        return transport.fetchMessages(since: since)
            .then(on: .relayInbox) { fresh in
                self.messages += fresh.filter { !self.messages.contains($0) }
                self.journal.log("refresh \(number) got \(fresh.count) @\(RelayQueues.currentName())")
            }
            .always(on: .relayInbox) { _ in
                self.isRefreshing = false
                self.journal.log("refresh \(number) end")
            }
    }

    /// How many messages there are once a refresh is done.
    func unreadCount() -> Promise<Int, RelayError> {
        journal.log("count requested")
        return refresh().map(on: .immediate) { _ in
            self.messages.count
        }
    }

    /// Refreshes, then counts: two requests in a row, then a note that both are out.
    func refreshAndCount() -> Promise<Int, RelayError> {
        let refreshed = refresh()
        let counted = unreadCount()
        journal.log("refresh+count issued, refreshing \(isRefreshing)")
        return when(fulfilled: refreshed, counted).map(on: .immediate) { _, count in
            count
        }
    }

    /// The newest message, or `.notFound` when the inbox is empty.
    func latest() -> Promise<Message, RelayError> {
        refresh().flatMap(on: .relayInbox) { _ -> Promise<Message, RelayError> in
            guard let last = self.messages.last else {
                return Promise(rejected: .notFound("latest"))
            }
            return Promise(fulfilled: last)
        }
    }
}
