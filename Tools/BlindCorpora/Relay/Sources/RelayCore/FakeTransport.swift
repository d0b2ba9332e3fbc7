import Foundation
import Tomorrowland

/// The server, faked: answers at once (`.synchronous`) or later from a queue (`.delayed`).
final class FakeTransport {
    enum Mode {
        case synchronous
        case delayed(TimeInterval)
    }

    var mode: Mode
    var isOnline = true
    var mailbox: [Message] = []
    var directory: [String: Contact] = [:]
    var presences: [String: Presence] = [:]
    let journal: Journal

    private let lock = NSLock()
    private var requestCount = 0
    private var cancelCount = 0
    private var nextMessageID = 100

    init(mode: Mode = .synchronous, journal: Journal) {
        self.mode = mode
        self.journal = journal
    }

    var requests: Int {
        lock.lock()
        defer { lock.unlock() }
        return requestCount
    }

    var cancelledRequests: Int {
        lock.lock()
        defer { lock.unlock() }
        return cancelCount
    }

    func fetchMessages(since id: Int) -> Promise<[Message], RelayError> {
        let fresh = mailbox.filter { $0.id > id }
        return answer("fetch", isOnline ? .value(fresh) : .error(.offline))
    }

    func send(_ text: String) -> Promise<Receipt, RelayError> {
        guard !text.isEmpty else {
            return Promise(rejected: .rejected("empty"))
        }
        nextMessageID += 1
        let receipt = Receipt(messageID: nextMessageID, text: text)
        return answer("send \(text)", isOnline ? .value(receipt) : .error(.offline))
    }

    func lookup(_ id: String) -> Promise<Contact, RelayError> {
        guard isOnline else { return answer("lookup \(id)", .error(.offline)) }
        if let contact = directory[id] {
            return answer("lookup \(id)", .value(contact))
        }
        return answer("lookup \(id)", .error(.notFound(id)))
    }

    func presence(of user: String) -> StdPromise<Presence> {
        let result: PromiseResult<Presence, RelayError> = isOnline ? .value(presences[user] ?? .offline) : .error(.offline)
        return answer("presence \(user)", result).upcast
    }

    private func answer<T>(_ what: String, _ result: PromiseResult<T, RelayError>) -> Promise<T, RelayError> {
        lock.lock()
        requestCount += 1
        lock.unlock()
        switch mode {
        case .synchronous:
            // The fake network answers before the request returns.
            return Promise(on: .immediate) { resolver in
                resolver.resolve(with: result)
            }
        case .delayed(let delay):
            return Promise(on: .immediate) { resolver in
                resolver.onRequestCancel(on: .immediate) { resolver in
                    self.lock.lock()
                    self.cancelCount += 1
                    self.lock.unlock()
                    self.journal.log("transport cancelled \(what)")
                    resolver.cancel()
                }
                RelayQueues.network.asyncAfter(deadline: .now() + delay) {
                    resolver.resolve(with: result)
                }
            }
        }
    }
}
