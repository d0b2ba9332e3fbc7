// PromiseOperation: an `Operation` that runs a promise handler and finishes when it resolves.

import Foundation
import Synchronization

/// An asynchronous `Operation` whose work is a promise handler: the operation starts the
/// handler and finishes when the promise resolves.
///
/// ```swift
/// let operation = StdPromiseOperation<Data>(on: .utility) { resolver in
///     download(url, completion: resolver.handleCallback())
/// }
/// operation.addDependency(loginOperation)
/// queue.addOperation(operation)
/// operation.promise.then { data in … }
/// ```
///
/// - `promise` is the same promise every time. It stays unresolved until the operation
///   starts; the operation keeps it resolvable until then (rule 1), and dropping an
///   operation that never started cancels it.
/// - `start()` runs the handler on `context`: `.immediate` means the thread that calls
///   `start()`, `.nowOr(c)` means `c`. Extra `start()` calls do nothing.
/// - `isFinished` becomes true when the promise resolves, *before* any of the promise's
///   observers run; the queue (dependencies, `maxConcurrentOperationCount`) waits for it.
///   The `isExecuting`/`isFinished` changes post the KVO notifications `OperationQueue`
///   needs (corelibs included).
/// - Cancellation: `cancel()` requests cancel of the promise, and `promise.requestCancel()`
///   calls `cancel()`. An operation cancelled before it starts never calls its handler; its
///   promise is cancelled when `start()` runs (which the queue still does). The operation
///   holds its promise, so a child's cancel request (`operation.promise.then { … }` asked to
///   cancel) stops there while the operation lives, as in 1.4: cancel the operation itself,
///   or its `promise`, or `queue.cancelAllOperations()`.
public final class PromiseOperation<Value, Error>: Operation, @unchecked Sendable {
    // Safety of `@unchecked Sendable` (required because `Operation` is): `handler` and
    // `resolver` are taken only by the thread that moves `phase` out of `.ready`, and
    // released by `deinit`; everything else is immutable or atomic.

    /// The resolver type the handler receives.
    public typealias Resolver = Promise<Value, Error>.Resolver

    private let context: PromiseContext
    /// The actor the handler is isolated to (`nil`: nonisolated); it runs only there.
    private let isolation: (any Actor)?
    private let _promise: Promise<Value, Error>
    private let phase = SharedAtomic(Phase.ready, "operation.phase")
    private var handler: PublishedField<(@Sendable (Resolver) -> Void)?>
    /// Holds the creator keeper until `start()` hands it to the handler (rule 1).
    private var resolver: PublishedField<Resolver?>

    /// `init(on:_:)` with the handler's isolation taken apart: `handler` may only run on
    /// `isolation` (anywhere if it is `nil`).
    init(on context: PromiseContext, isolation: (any Actor)?, _ handler: @escaping @Sendable (_ resolver: Resolver) -> Void) {
        let (promise, resolver) = Promise<Value, Error>.makeWithResolver()
        self.context = context
        self.isolation = isolation
        _promise = promise
        self.resolver = publishedField(resolver, "operation.resolver")
        self.handler = publishedField(handler, "operation.handler")
        super.init()
        // Registered first, so the operation finishes before any observer of the promise runs.
        promise._box.register(OperationNode { [weak self] in self?.promiseResolved() })
        promise._box.registerCancelHandler(OperationNode { [weak self] in self?.cancel() })
    }

    /// The operation's promise (the same one on every access).
    public var promise: Promise<Value, Error> {
        _promise
    }

    /// Always `true`: the operation finishes when its promise resolves.
    public override var isAsynchronous: Bool {
        true
    }

    /// Whether the handler was started and the promise has not resolved yet.
    public override var isExecuting: Bool {
        // Acquiring: KVO observers read the operation's state after this.
        return phase.load(ordering: .acquiring) == .executing
    }

    /// Whether the promise has resolved.
    public override var isFinished: Bool {
        // Acquiring: an operation queue that sees it finished runs the dependent operations,
        // which must see what the handler did before the promise resolved.
        return phase.load(ordering: .acquiring) == .finished
    }

    /// Starts the operation: runs the handler on its context, or, if the operation was
    /// cancelled, cancels the promise without running the handler. Only the first call does
    /// anything.
    public override func start() {
        // Acquiring and releasing: the winner takes the handler and the resolver, written by
        // the creator.
        guard phase.compareExchange(expected: .ready, desired: .starting, ordering: .acquiringAndReleasing).exchanged else { return }
        let handler = takeField(&self.handler)!
        let resolver = takeField(&self.resolver)!
        willChangeValue(forKey: "isExecuting")
        // Releasing: pairs with `isExecuting`'s acquire.
        phase.store(.executing, ordering: .releasing)
        didChangeValue(forKey: "isExecuting")
        if isCancelled {
            resolver.cancel()
            return
        }
        if let isolation {
            let resolver = UncheckedSendable(resolver)
            let context: PromiseContext = context == .immediate ? .immediate : context.timerContext
            ActorDelivery.execute(on: context, synchronously: false, isolation: isolation) { handler(resolver.value) }
            return
        }
        switch context {
        case .immediate:
            handler(resolver)
        default:
            let resolver = UncheckedSendable(resolver)
            context.timerContext.schedule { handler(resolver.value) }
        }
    }

    /// Cancels the operation and requests cancellation of its promise.
    public override func cancel() {
        super.cancel()
        _promise.requestCancel()
    }

    /// Not used: the operation's work is its promise handler.
    @available(*, unavailable, message: "PromiseOperation runs its promise handler from start()")
    public override func main() {}

    /// The promise resolved: executing → finished, with KVO.
    fileprivate func promiseResolved() {
        // Acquiring and releasing: pairs with `isFinished`'s acquire, and orders the two
        // finishing paths (only the first sends the notifications).
        guard phase.exchange(.finished, ordering: .acquiringAndReleasing) != .finished else { return }
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}

/// A node on the operation's promise that calls back into the operation, which it holds
/// weakly, and holds no resolver, so it never keeps the promise resolvable (rule 1).
/// In the callback list (registered first): the promise resolved, mark the operation
/// finished before any observer runs. In the cancel-handler list: pass the request on.
private final class OperationNode: PromiseNode, @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `action` is immutable; the node fires at most once.
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    override func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        action()
    }

    override func upstreamRequestedCancel(_ upstream: PromiseCore, synchronously: Bool) {
        action()
    }
}

/// `PromiseOperation` with `Swift.Error` as its error type.
public typealias StdPromiseOperation<Value> = PromiseOperation<Value, Swift.Error>

/// The life of a `PromiseOperation`, stored in an atomic byte. `start()` moves it from
/// `ready` to `starting` (once: the winner takes the handler), then to `executing` between
/// the KVO notifications; the promise's resolution moves it to `finished`.
private enum Phase: UInt8, AtomicRepresentable {
    case ready, starting, executing, finished
}
