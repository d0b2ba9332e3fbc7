import Foundation
import Tomorrowland

/// Signs in to the cloud account (callback API of the auth SDK).
public protocol AuthProvider: AnyObject, Sendable {
    func authenticate(email: String, password: String,
                      completion: @escaping @Sendable (CloudSession?, Swift.Error?) -> Void)
}

/// Keeps the home's configuration in sync with the cloud account.
///
/// Pull brings the changes made elsewhere; push sends the changes queued in the outbox.
public final class CloudSyncClient {
    /// The parts the promise callbacks need, all thread-safe.
    private struct Engine: Sendable {
        let transport: HubTransport
        let cursor: HubLock<Int>
        let outbox: HubLock<[ChangeRecord]>
        let log: EventLog?

        func pull() -> HubPromise<[ChangeRecord]> {
            let cursor = self.cursor
            return Command<[ChangeRecord]>(HubRequest(.get, "/sync/since/\(cursor.snapshot)")).send(via: transport)
                .then(on: .sync) { changes in
                    if let last = changes.map(\.sequence).max() {
                        cursor.withLock { $0 = max($0, last) }
                    }
                }
        }

        func push() -> StdPromise<SyncReceipt> {
            let pending = outbox.snapshot
            let outbox = self.outbox
            let transport = self.transport
            guard !pending.isEmpty else {
                return StdPromise(fulfilled: SyncReceipt(acceptedThrough: cursor.snapshot))
            }
            return StdPromise(on: .sync) { resolver in
                let request = try HubRequest.json(.post, "/sync/changes", pending)
                resolver.resolve(with: Command<SyncReceipt>(request).send(via: transport).upcast)
            }.then(on: .sync) { receipt in
                outbox.withLock { $0.removeAll { $0.sequence <= receipt.acceptedThrough } }
            }
        }
    }

    private let engine: Engine
    private let auth: AuthProvider
    private let remembered = HubLock<CloudSession?>(nil)
    /// Seconds before a pull that failed because the hub was offline is tried again.
    public var retryDelay: TimeInterval = 0.05

    public init(transport: HubTransport, auth: AuthProvider, log: EventLog? = nil, cursor: Int = 0) {
        engine = Engine(transport: transport, cursor: HubLock(cursor), outbox: HubLock([]), log: log)
        self.auth = auth
    }

    /// The sequence number of the newest change pulled.
    public var cursor: Int {
        engine.cursor.snapshot
    }

    /// Changes waiting to be pushed.
    public var pendingChanges: [ChangeRecord] {
        engine.outbox.snapshot
    }

    /// Signs in; the session is kept for later requests.
    public func signIn(email: String, password: String) -> StdPromise<CloudSession> {
        let auth = self.auth
        return StdPromise<CloudSession>(on: .utility) { resolver in
            auth.authenticate(email: email, password: password, completion: resolver.handleCallback())
        }
    }

    /// The session of the last successful `signInAndRemember`.
    public var session: CloudSession? {
        remembered.snapshot
    }

    /// Signs in and remembers the session.
    public func signInAndRemember(email: String, password: String) -> HubPromise<CloudSession> {
        remembered.withLock { $0 = nil }
        let remembered = self.remembered
        return signIn(email: email, password: password)
            .asHubPromise()
            .then(on: .sync) { session in
                remembered.withLock { $0 = session }
            }
    }

    /// Queues a local change for the next push.
    public func enqueue(_ change: ChangeRecord) {
        engine.outbox.withLock { $0.append(change) }
    }

    /// Fetches the changes made elsewhere since the last pull.
    public func pull() -> HubPromise<[ChangeRecord]> {
        engine.pull()
    }

    /// Sends the queued changes.
    public func push() -> StdPromise<SyncReceipt> {
        engine.push()
    }

    /// Sends `records` directly, bypassing the outbox. Throws when they cannot be encoded.
    public func upload(_ records: [ChangeRecord]) throws -> HubPromise<SyncReceipt> {
        let request = try HubRequest.json(.post, "/sync/changes", records)
        return Command<SyncReceipt>(request).send(via: engine.transport)
    }

    /// Pull, then push. A pull that fails because the hub is offline is tried once more after
    /// `retryDelay`.
    public func sync() -> HubPromise<SyncSummary> {
        let engine = self.engine
        let retryDelay = self.retryDelay
        let retried = HubLock(false)
        let pushedCount = engine.outbox.snapshot.count
        return engine.pull()
            .flatMapError(on: .sync) { error -> HubPromise<[ChangeRecord]> in
                guard error == .offline else {
                    return HubPromise(rejected: error)
                }
                retried.withLock { $0 = true }
                return CompletionPromise(on: .sync, fulfilled: (), after: retryDelay)
                    .flatMap(on: .sync) { engine.pull() }
            }
            .flatMap(on: .sync) { pulled -> HubPromise<SyncSummary> in
                engine.push().mapResult(on: .sync) { result -> PromiseResult<SyncSummary, HubError> in
                    switch result {
                    case .value(let receipt):
                        return .value(SyncSummary(pulled: pulled.count, pushed: pushedCount,
                                                  cursor: max(receipt.acceptedThrough, engine.cursor.snapshot),
                                                  usedRetry: retried.snapshot))
                    case .error(let error):
                        return .error(HubError(error))
                    case .cancelled:
                        return .cancelled
                    }
                }
            }
            .tap(on: .utility) { result in
                if case .value(let summary) = result {
                    engine.log?.append(HubEvent(kind: .syncCompleted, message: "pulled \(summary.pulled), pushed \(summary.pushed)"))
                }
            }
    }

    /// Syncs every `interval` seconds until `token` is invalidated; fulfils with the number of
    /// syncs that ran when it stops.
    public func syncPeriodically(every interval: TimeInterval, token: PromiseInvalidationToken) -> Guaranteed<Int> {
        let (promise, resolver) = Guaranteed<Int>.makeWithResolver()
        let engine = self.engine
        let count = HubLock(0)
        let retryDelay = self.retryDelay
        let timer = RepeatingTimer(interval: interval, queue: HubQueues.sync)
        timer.start {
            _ = CloudSyncClient.syncOnce(engine: engine, retryDelay: retryDelay)
                .then(on: .sync, token: token) { _ in count.withLock { $0 += 1 } }
        }
        resolver.onRequestCancel(on: .sync) { resolver in
            timer.stop()
            resolver.fulfill(with: count.snapshot)
        }
        promise.requestCancelOnInvalidate(token)
        return promise
    }

    private static func syncOnce(engine: Engine, retryDelay: TimeInterval) -> HubPromise<Int> {
        engine.pull().flatMap(on: .sync) { pulled in
            engine.push().asHubPromise().map(on: .immediate) { _ in pulled.count }
        }
    }
}

/// A Dispatch timer that fires every `interval` seconds until stopped.
private final class RepeatingTimer: @unchecked Sendable {
    private let source: DispatchSourceTimer
    private let stopped = HubLock(false)

    init(interval: TimeInterval, queue: DispatchQueue) {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + interval, repeating: interval)
    }

    func start(_ handler: @escaping @Sendable () -> Void) {
        let stopped = self.stopped
        source.setEventHandler {
            if !stopped.snapshot {
                handler()
            }
        }
        source.resume()
    }

    func stop() {
        stopped.withLock { $0 = true }
        source.cancel()
    }
}
