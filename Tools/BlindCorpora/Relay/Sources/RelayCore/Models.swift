import Foundation
import Tomorrowland

struct Message: Equatable {
    let id: Int
    let from: String
    let text: String
}

struct Receipt: Equatable {
    let messageID: Int
    let text: String
}

struct Contact: Equatable {
    let id: String
    let name: String
}

enum Presence: Equatable {
    case online, away, offline
}

enum RelayError: Error, Equatable {
    case offline
    case notFound(String)
    case rejected(String)
}

/// What happened, in order. Every component writes to it; the tests read it.
final class Journal: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func log(_ entry: String) {
        lock.lock()
        storage.append(entry)
        lock.unlock()
    }

    var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// The app's serial queues, each tagged with its name (and the main queue with "main").
enum RelayQueues {
    static let key: DispatchSpecificKey<String> = {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        return key
    }()

    static let inbox = RelayQueues.make("inbox")
    static let outbox = RelayQueues.make("outbox")
    static let network = DispatchQueue(label: "relay.network")

    private static func make(_ name: String) -> DispatchQueue {
        let queue = DispatchQueue(label: "relay.\(name)")
        queue.setSpecific(key: key, value: name)
        return queue
    }

    /// The name of the queue the caller runs on, "other" for an untagged one.
    static func currentName() -> String {
        DispatchQueue.getSpecific(key: key) ?? "other"
    }
}

extension PromiseContext {
    /// Inbox bookkeeping runs here.
    static let relayInbox = PromiseContext.queue(RelayQueues.inbox)
}
