// Promise: a handle to a value that will be available later.

/// A promise of a `Value` or an `Error`, which may also be cancelled.
///
/// `Promise` is a cheap handle (a struct); copies refer to the same underlying promise and
/// compare equal. `Error` is unconstrained, so `Promise<Int, String>` is legal; use
/// `StdPromise<Value>` for `Promise<Value, Swift.Error>`.
///
/// ## Threading
/// Every method is thread-safe. Callbacks run on the `PromiseContext` they were registered
/// with; callbacks registered on one promise run in registration order. Resolution never
/// recurses: arbitrarily long chains resolve in constant stack.
///
/// A context that names a queue — spelled out or in a variable — runs your closure on that
/// queue; no context, `.main`, `.auto` or `.immediate` runs it on your actor. A callback given
/// a named context (`.utility`, `.queue(q)`, …) or a `PromiseContext` value is an ordinary
/// nonisolated closure run on that context. Any other callback keeps the isolation of the
/// code that writes it: written in `@MainActor` code or in an actor method that uses
/// `self`, it is isolated to that actor and runs only on it (delivered there when its context
/// cannot run it there); it is released there too. See "Name a queue and your closure runs
/// there" in the Threading article for each context.
///
/// ## Cancellation
/// `requestCancel()` only *asks*; the promise's handler decides (see `Resolver.onRequestCancel`).
/// Children created by callback methods propagate cancel requests to their parent once every
/// child of that parent has asked and no handle to the parent is left.
///
/// ## Difference from Tomorrowland 1.x: unresolvable promises cancel at once
/// A promise is cancelled as soon as nothing can resolve it any more: its last `Resolver`
/// copy is gone, no `onRequestCancel` handler is pending, it is not adopting another
/// promise, and no delayed handler is still to run. Handles to the promise do not keep it
/// pending (1.x waited for the last handle to go, which would leave an awaiting Task
/// suspended forever).
///
/// ## Sendable
/// `Promise` is `Sendable` when `Value` and `Error` are. Callbacks are
/// `@isolated(any) @Sendable`: in Swift 6 mode, capturing a non-`Sendable` value in a
/// nonisolated one is an error; Swift 5 mode clients (Tomorrowland 1.x code) compile, with at
/// most warnings.
public struct Promise<Value, Error> {
    @usableFromInline let _box: PromiseBox<Value, Error>
    @usableFromInline let _seal: PromiseSeal?

    /// Wraps a box in a new handle group. Only for boxes that have no handles yet.
    @inlinable
    init(box: PromiseBox<Value, Error>) {
        _box = box
        _seal = box.currentState.isResolved ? nil : PromiseSeal(box)
    }

    /// Returns a new pending promise and the resolver that resolves it.
    ///
    /// If every copy of the resolver is released before resolving, the promise is cancelled.
    @inlinable
    public static func makeWithResolver() -> (Promise<Value, Error>, Promise<Value, Error>.Resolver) {
        let box = PromiseBox<Value, Error>()
        let resolver = Resolver(handle: ResolverHandle(box))
        return (Promise(box: box), resolver)
    }

    /// `init(on:_:)` with the handler's isolation taken apart: `handler` may only run on
    /// `isolation` (or anywhere if it is `nil`).
    init(on context: PromiseContext, isolation: (any Actor)?, _ handler: @escaping @Sendable (_ resolver: Promise<Value, Error>.Resolver) -> Void) {
        let (promise, resolver) = Promise.makeWithResolver()
        if let isolation {
            let resolver = UncheckedSendable(resolver)
            ActorDelivery.execute(on: context, synchronously: true, isolation: isolation) { handler(resolver.value) }
            self = promise
            return
        }
        switch context {
        case .immediate: handler(resolver)
        case .nowOr: PromiseContext.withExecutingNow(true) { handler(resolver) }
        default:
            let resolver = UncheckedSendable(resolver)
            context.schedule { handler(resolver.value) }
        }
        self = promise
    }

    /// Creates an already-fulfilled promise.
    ///
    /// Disfavoured so that `StdPromise { try await load() }` (a trailing closure, which may
    /// satisfy the `fulfilled:` label) picks the async initializer of TomorrowlandAsync
    /// instead of creating a promise *of the closure*. `Promise(fulfilled: x)` is unaffected.
    @inlinable @_disfavoredOverload
    public init(fulfilled value: Value) {
        self.init(box: PromiseBox(result: .value(value)))
    }

    /// Creates an already-rejected promise.
    ///
    /// - Parameter error: The error the promise is rejected with.
    @inlinable
    public init(rejected error: Error) {
        self.init(box: PromiseBox(result: .error(error)))
    }

    /// Creates an already-resolved promise.
    ///
    /// - Parameter result: The result: a value, an error, or `.cancelled` for an
    ///   already-cancelled promise.
    @inlinable
    public init(with result: PromiseResult<Value, Error>) {
        self.init(box: PromiseBox(result: result))
    }

    /// Creates an already-resolved promise.
    @available(*, deprecated, renamed: "init(with:)")
    public init(result: PromiseResult<Value, Error>) {
        self.init(with: result)
    }

    /// The result, or `nil` if the promise has not resolved yet.
    @inlinable
    public var result: PromiseResult<Value, Error>? {
        _box.result
    }

    /// Requests cancellation. Only a request: the promise may still fulfill or reject.
    /// Does nothing if the promise has already resolved.
    public func requestCancel() {
        _box.requestCancel()
    }
}

extension Promise: Sendable where Value: Sendable, Error: Sendable {}

extension Promise: Equatable {
    /// Two promises are equal when they are handles to the same underlying promise.
    public static func == (lhs: Promise, rhs: Promise) -> Bool {
        lhs._box === rhs._box
    }
}

extension Promise where Error == Swift.Error {
    /// The throwing `init(on:_:)` with the handler's isolation taken apart.
    init(on context: PromiseContext, isolation: (any Actor)?, throwing body: @escaping @Sendable (_ resolver: Promise<Value, Error>.Resolver) throws -> Void) {
        self.init(on: context, isolation: isolation) { (resolver: Resolver) in
            do { try body(resolver) } catch { resolver.reject(with: error) }
        }
    }
}
