import Foundation
import Tomorrowland

/// A change made offline that must reach the bank eventually.
public struct OutboxItem: Hashable, Codable, Sendable, Identifiable {
    public enum Kind: String, Codable, Sendable {
        case transfer
        case recategorise
        case note
    }

    public var id: String
    public var kind: Kind
    public var payload: String

    public init(id: String = UUID().uuidString, kind: Kind, payload: String) {
        self.id = id
        self.kind = kind
        self.payload = payload
    }
}

/// Delivers one outbox item to the server.
public protocol OutboxSending: AnyObject, Sendable {
    func deliver(_ item: OutboxItem) -> LedgerPromise<Void>
}

public struct FlushReport: Hashable, Sendable {
    public var delivered: [String]
    public var failed: [String]

    public init(delivered: [String] = [], failed: [String] = []) {
        self.delivered = delivered
        self.failed = failed
    }
}

/// The offline outbox: items are kept until delivered, retried with a delay while the error is
/// retryable, and flushed one at a time in the order they were enqueued.
public final class Outbox: @unchecked Sendable {
    private let sender: OutboxSending
    private let lock = NSLock()
    private var pending: [OutboxItem] = []
    private let operationQueue: OperationQueue
    public let maxAttempts: Int
    public let retryDelay: TimeInterval

    public init(sender: OutboxSending, maxAttempts: Int = 3, retryDelay: TimeInterval = 2) {
        self.sender = sender
        self.maxAttempts = maxAttempts
        self.retryDelay = retryDelay
        self.operationQueue = OperationQueue()
        operationQueue.name = "com.example.ledger.outbox"
        operationQueue.maxConcurrentOperationCount = 1
    }

    public var pendingItems: [OutboxItem] {
        lock.lock()
        defer { lock.unlock() }
        return pending
    }

    public var pendingCount: Int { pendingItems.count }

    /// Stores `item` (it is pending when this returns) and tries to deliver it right away.
    @discardableResult
    public func enqueue(_ item: OutboxItem) -> LedgerPromise<Void> {
        lock.lock()
        pending.append(item)
        lock.unlock()
        return deliver(item, attempt: 1)
    }

    /// Delivers every pending item, one at a time, in order. Never fails: the report says which
    /// items are still pending.
    public func flush() -> Guaranteed<FlushReport> {
        let items = pendingItems
        guard !items.isEmpty else {
            return Promise(fulfilled: FlushReport())
        }
        let operations = items.map { item in
            PromiseOperation<Bool, NoError>(on: .immediate) { [weak self] resolver in
                guard let self = self else {
                    resolver.cancel()
                    return
                }
                resolver.resolve(with: self.deliver(item, attempt: 1).mapResult(on: .immediate) { result -> PromiseResult<Bool, NoError> in
                    switch result {
                    case .value: return .value(true)
                    case .error, .cancelled: return .value(false)
                    }
                })
            }
        }
        for (earlier, later) in zip(operations, operations.dropFirst()) {
            later.addDependency(earlier)
        }
        operationQueue.addOperations(operations, waitUntilFinished: false)
        return when(fulfilled: operations.map { $0.promise })
            .map(on: .utility) { outcomes in
                var report = FlushReport()
                for (item, delivered) in zip(items, outcomes) {
                    if delivered {
                        report.delivered.append(item.id)
                    } else {
                        report.failed.append(item.id)
                    }
                }
                return report
            }
    }

    /// Drops an item the user discarded; its delivery in flight is not cancelled.
    public func discard(_ id: String) {
        lock.lock()
        pending.removeAll { $0.id == id }
        lock.unlock()
    }

    private func deliver(_ item: OutboxItem, attempt: Int) -> LedgerPromise<Void> {
        let delay = retryDelay
        let maxAttempts = self.maxAttempts
        return sender.deliver(item)
            .flatMapError(on: .utility) { [weak self] error -> LedgerPromise<Void> in
                guard let self = self, error.isRetryable, attempt < maxAttempts else {
                    return Promise(rejected: error)
                }
                LedgerLog.shared.record("outbox \(item.id): attempt \(attempt) failed (\(error)), retrying")
                return Promise<Void, LedgerError>(on: .utility, fulfilled: (), after: delay)
                    .flatMap(on: .utility) { self.deliver(item, attempt: attempt + 1) }
            }
            .then(on: .immediate) { [weak self] in
                self?.discard(item.id)
            }
    }
}
