// DelayedPromise: a promise whose handler runs only when someone asks for the promise.

import Synchronization

/// A promise whose handler does not run until its `promise` is first accessed.
///
/// Use it for work that should only start if someone actually wants the result:
///
/// ```swift
/// let thumbnail = DelayedPromise<Image, Error>(on: .utility) { resolver in
///     resolver.fulfill(with: renderThumbnail())
/// }
/// // … later, maybe:
/// thumbnail.promise.then { image in show(image) }
/// ```
///
/// - The handler runs once, on the first access to `promise`, always asynchronously on
///   `context` (`.nowOr(c)` means `c`), except `.immediate`, which runs it synchronously on
///   the accessing thread before `promise` returns.
/// - Every access returns the same promise (they compare equal). The handler is released
///   right after it runs, or when the `DelayedPromise` is dropped without ever being accessed.
/// - Until the handler runs, the `DelayedPromise` keeps its promise resolvable (rule 1);
///   dropping an unaccessed `DelayedPromise` cancels the promise nobody could see.
/// - Cancellation: cancel requests on the promise reach the handler through
///   `Resolver.onRequestCancel` as usual; a request made before the handler runs is seen
///   by `resolver.hasRequestedCancel` and by handlers registered later (rule 4).
///
/// Copies share one identity; two `DelayedPromise`s are equal when they are copies.
public struct DelayedPromise<Value, Error>: Equatable {
    /// The resolver type the handler receives.
    public typealias Resolver = Promise<Value, Error>.Resolver

    private let storage: DelayedPromiseStorage<Value, Error>

    /// `init(on:_:)` with the handler's isolation taken apart: `handler` may only run on
    /// `isolation` (anywhere if it is `nil`).
    init(context: PromiseContext, isolation: (any Actor)?, handler: @escaping @Sendable (_ resolver: Resolver) -> Void) {
        storage = DelayedPromiseStorage(context: context, isolation: isolation, handler: handler)
    }

    /// The promise. The first access starts the handler; every access returns the same
    /// promise.
    public var promise: Promise<Value, Error> {
        storage.start()
        return storage.promise
    }

    /// Two delayed promises are equal when they are copies of the same one.
    public static func == (lhs: DelayedPromise, rhs: DelayedPromise) -> Bool {
        lhs.storage === rhs.storage
    }
}

extension DelayedPromise: Sendable where Value: Sendable, Error: Sendable {}

/// The shared state of a `DelayedPromise`: the promise, and the handler and resolver until
/// the first access takes them.
///
/// Safety of `@unchecked Sendable`: `handler` and `resolver` are read and cleared only by
/// the one thread that wins `started`'s exchange (or by `deinit`, which is exclusive).
final class DelayedPromiseStorage<Value, Error>: @unchecked Sendable {
    let promise: Promise<Value, Error>
    private let context: PromiseContext
    /// The actor the handler is isolated to (`nil`: nonisolated); it runs only there.
    private let isolation: (any Actor)?
    private let started = SharedAtomic(false, "delayed.started")
    private var handler: PublishedField<(@Sendable (Promise<Value, Error>.Resolver) -> Void)?>
    /// Holds the creator keeper until the handler runs (rule 1).
    private var resolver: PublishedField<Promise<Value, Error>.Resolver?>

    init(context: PromiseContext, isolation: (any Actor)?, handler: @escaping @Sendable (Promise<Value, Error>.Resolver) -> Void) {
        self.isolation = isolation
        let (promise, resolver) = Promise<Value, Error>.makeWithResolver()
        self.promise = promise
        self.resolver = publishedField(resolver, "delayed.resolver")
        self.context = context
        self.handler = publishedField(handler, "delayed.handler")
    }

    /// Runs the handler on the first call; later calls do nothing.
    func start() {
        // Acquiring and releasing: the winner takes the handler, written by the creator (and
        // `deinit` reads the fields only if nobody won).
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let work = UncheckedSendable((takeField(&handler)!, takeField(&resolver)!))
        if let isolation {
            let context: PromiseContext = context == .immediate ? .immediate : context.timerContext
            ActorDelivery.execute(on: context, synchronously: false, isolation: isolation) { work.value.0(work.value.1) }
            return
        }
        switch context {
        case .immediate:
            work.value.0(work.value.1)
        default:
            context.timerContext.schedule { work.value.0(work.value.1) }
        }
    }
}

/// `DelayedPromise` with `Swift.Error` as its error type.
public typealias StdDelayedPromise<Value> = DelayedPromise<Value, Swift.Error>
