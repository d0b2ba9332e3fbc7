// Async → promise: run an async operation in a Task and expose it as a promise.

extension Promise where Error: Swift.Error {
    /// Runs `operation` in a new unstructured Task and returns a promise of its outcome.
    ///
    /// Works for `StdPromise` (`StdPromise<Data> { try await load() }`) and, with typed
    /// throws, for any `Error: Swift.Error`.
    ///
    /// **Isolation and inheritance:** like `Task { }`: the Task inherits task-local values
    /// and priority (unless `priority` is given), and a closure written in an actor-isolated
    /// context (e.g. on the main actor) is isolated to that actor and runs there; a
    /// nonisolated one runs on the global concurrent executor.
    ///
    /// **Cancellation:** a cancel request reaching the promise (`requestCancel()`, or
    /// propagated from its children / awaiting Tasks) cancels the Task. Throwing
    /// `CancellationError` cancels the promise instead of rejecting it; any other error
    /// rejects it; a value fulfils it, even after a cancel request.
    @inlinable
    public init(
        priority: TaskPriority? = nil,
        @_inheritActorContext operation: consuming sending @escaping @isolated(any) () async throws(Error) -> sending Value
    ) {
        self = Promise._runningTask(priority: priority, operation: operation)
    }

    /// `init(priority:operation:)` for an operation that cannot throw (`StdPromise<Int> { 2 }`).
    ///
    /// A separate overload because converting a non-throwing closure to the typed-throws one
    /// wraps it in a thunk, which Swift 6 rejects ("sending value of non-Sendable type …
    /// risks causing data races") when the closure is isolated to the caller's actor (written
    /// in `@MainActor` code or an actor). Isolation and inheritance as there; a cancel
    /// request cancels the Task, and the promise is fulfilled with the value it returns.
    @inlinable
    public init(
        priority: TaskPriority? = nil,
        @_inheritActorContext operation: consuming sending @escaping @isolated(any) () async -> sending Value
    ) {
        self = Promise._runningTask(priority: priority, nonThrowingOperation: operation)
    }

    /// Runs `operation` in a new unstructured Task that prefers `context`'s task executor
    /// (`context.taskExecutor`) and returns a promise of its outcome.
    ///
    /// **Isolation:** `operation` is not isolated to the caller's actor: it runs on `context`
    /// (`.utility` on that queue, `.queue(q)` on `q`); actor-isolated code it calls still runs
    /// on its actor. `.nowOr(_)` has no executor: the operation then runs on the global
    /// concurrent executor. Task-locals and priority are inherited as by `Task { }`.
    ///
    /// **Cancellation:** as `init(priority:operation:)`.
    @inlinable
    public init(
        on context: PromiseContext.Named,
        priority: TaskPriority? = nil,
        operation: consuming sending @escaping () async throws(Error) -> Value
    ) {
        self = Promise._runningTask(on: context.context, priority: priority, nonisolatedOperation: operation)
    }

    /// Runs `operation` in a new unstructured Task that prefers the main queue's task executor
    /// and returns a promise of its outcome.
    ///
    /// **Isolation:** unlike a `.main` callback, `operation` is not `@MainActor`: it is a
    /// nonisolated async function whose Task prefers the main queue, so it and the nonisolated
    /// async functions it calls run there, and main-actor state needs `await` (or
    /// `MainActor.assumeIsolated`). To use main-actor state directly, write the operation in
    /// `@MainActor` code with no context (`Promise { }`) or with `.immediate`. Task-locals and
    /// priority are inherited as by `Task { }`.
    ///
    /// **Cancellation:** as `init(priority:operation:)`.
    @inlinable
    public init(
        on context: PromiseContext.Main,
        priority: TaskPriority? = nil,
        operation: consuming sending @escaping () async throws(Error) -> Value
    ) {
        self = Promise._runningTask(on: context.context, priority: priority, nonisolatedOperation: operation)
    }

    /// Runs `operation` in a new unstructured Task on the context held in `context` (a
    /// `PromiseContext` value: a property, a parameter, `PromiseContext(qos:)`) and returns a
    /// promise of its outcome.
    ///
    /// **Isolation:** `operation` is nonisolated, as for a context spelled out
    /// (`init(on:priority:operation:)` with `.utility`): its Task prefers the context's task
    /// executor. A value holding `.immediate` starts the Task synchronously, in this call, on
    /// the caller's thread (`Task.immediate`): the operation runs there until its first
    /// suspension, then on the global concurrent executor. `.nowOr(_)` has no executor: the
    /// global concurrent executor. Task-locals and priority are inherited as by `Task { }`.
    ///
    /// **Cancellation:** as `init(priority:operation:)`.
    @inlinable
    public init(
        on context: any PromiseContextConvertible,
        priority: TaskPriority? = nil,
        operation: consuming sending @escaping () async throws(Error) -> Value
    ) {
        self = Promise._runningTask(on: context.promiseContext, priority: priority, nonisolatedOperation: operation)
    }

    /// Runs `operation` in a new unstructured Task that keeps the caller's actor, and returns a
    /// promise of its outcome; with `.immediate`, the Task starts at once, in this call.
    ///
    /// `StdPromise<Data>(on: .immediate) { try await load() }` runs the operation synchronously,
    /// in the caller's isolation, until its first suspension (`Task.immediate`), as
    /// Tomorrowland 1.x's `.immediate` ran a handler in the call: every statement before the
    /// first `await` that suspends has run when the initializer returns, and an operation that
    /// never suspends has already resolved the promise. No initializer of its own: `.immediate`
    /// already means "in the call" for every handler, and the spelling needs no new word.
    ///
    /// **Isolation and inheritance:** like `Task { }` (`init(priority:operation:)`): the
    /// operation is isolated to the actor of the code it is written in (`@MainActor` code, an
    /// actor method that uses `self`) and may use its state directly; task-locals and
    /// priority (unless `priority` is given) are inherited. With `.immediate`, an operation
    /// isolated to the caller's actor starts on it, and a nonisolated one on the caller's
    /// thread; after a suspension each resumes on its actor, or on the global concurrent
    /// executor. An operation isolated to another actor (`{ @MainActor in … }` in nonisolated
    /// code) is enqueued on it. With `.auto` a nonisolated operation runs on `.auto`'s queue
    /// (the main queue when called there, otherwise `.default`); `.nowOr(_)` has no executor.
    /// Before Swift 6.2, or on an OS older than `Task.immediate` (macOS 26, iOS 26, …),
    /// `.immediate` starts the Task like `Promise { }`.
    ///
    /// `isolation` is the caller's actor (`#isolation`); leave it out.
    ///
    /// **Cancellation:** as `init(priority:operation:)`: a cancel request reaching the promise
    /// cancels the Task, even one made while the operation waits at its first suspension;
    /// `CancellationError` cancels the promise.
    @inlinable
    public init(
        on context: PromiseContext.CallerIsolated,
        priority: TaskPriority? = nil,
        isolation: isolated (any Actor)? = #isolation,
        @_inheritActorContext operation: consuming sending @escaping @isolated(any) () async throws(Error) -> sending Value
    ) {
        let (immediately, executor) = Promise._start(on: context.context)
        self = Promise._runningTask(
            startingImmediately: immediately, executor: executor, priority: priority, isolation: isolation,
            operation: operation
        )
    }

    /// Runs `operation` in a new unstructured Task that starts like `init(on:priority:isolation:operation:)`
    /// (with `.immediate`, at once, in this call, until its first suspension) and then prefers
    /// `executorPreference`: after a suspension, its nonisolated code resumes on that executor
    /// instead of the global concurrent executor.
    ///
    /// For an async function whose steps run on one context, as a 1.x chain whose callbacks all
    /// ran on one queue: `StdPromise(on: .immediate, executorPreference: PromiseContext.queue(q).taskExecutor)
    /// { try await f() }` sends `f`'s first request in the call, as `init(on:priority:isolation:operation:)`
    /// does, and each of `f`'s awaits then resumes on `q`, where its next step runs, instead of
    /// resuming on a thread of the global executor only to hop to `q`
    /// (`withTaskExecutorPreference(PromiseContext.queue(q).taskExecutor) { @concurrent in … }` on `q`
    /// is then a re-enqueue on the queue it is already on, and the Task ends on `q`). Such a step
    /// before anything suspended (as when the chain's base had resolved) hops to `q` too, whatever
    /// the caller's thread or actor: it is the operation's first suspension, what ran before it ran
    /// in the call, and the code after it runs on `q`. A serial
    /// queue runs the Task's nonisolated code one job at a time, with the queue's other work:
    /// prefer a queue whose work does not block on that code (`q.sync { }` from it deadlocks).
    ///
    /// **Isolation:** as `init(on:priority:isolation:operation:)`. The preference is for a
    /// nonisolated operation: one isolated to the caller's actor starts and runs on that actor as
    /// without a preference (`Task.immediate(executorPreference:)` would not start it in the
    /// call); one isolated to another actor hops there, and the nonisolated code it calls
    /// prefers the executor. `nil` is `init(on:priority:isolation:operation:)`. On an OS older than `Task.immediate`,
    /// `.immediate` starts the Task like `Promise { }`, preferring `executorPreference`.
    ///
    /// **Cancellation:** as `init(on:priority:isolation:operation:)`.
    @inlinable
    public init(
        on context: PromiseContext.CallerIsolated,
        executorPreference: (any TaskExecutor)?,
        priority: TaskPriority? = nil,
        isolation: isolated (any Actor)? = #isolation,
        @_inheritActorContext operation: consuming sending @escaping @isolated(any) () async throws(Error) -> sending Value
    ) {
        let (immediately, executor) = Promise._start(on: context.context)
        self = Promise._runningTask(
            startingImmediately: immediately, executor: executorPreference ?? executor, priority: priority, isolation: isolation,
            operation: operation
        )
    }

    /// `init(on:priority:isolation:operation:)` for an operation that cannot throw
    /// (`StdPromise<Int>(on: .immediate) { 2 }`).
    ///
    /// A separate overload for the reason given at the non-throwing `init(priority:operation:)`.
    /// Isolation, start and cancellation as there; the promise is fulfilled with the value the
    /// operation returns.
    @inlinable
    public init(
        on context: PromiseContext.CallerIsolated,
        priority: TaskPriority? = nil,
        isolation: isolated (any Actor)? = #isolation,
        @_inheritActorContext operation: consuming sending @escaping @isolated(any) () async -> sending Value
    ) {
        let (immediately, executor) = Promise._start(on: context.context)
        self = Promise._runningTask(
            startingImmediately: immediately, executor: executor, priority: priority, isolation: isolation,
            nonThrowingOperation: operation
        )
    }
}

extension Promise where Error == NoError {
    /// Runs the non-throwing `operation` in a new unstructured Task and returns a promise of
    /// its value.
    ///
    /// **Isolation and inheritance:** like `Task { }`: task-locals, priority, and the
    /// actor isolation of the context the closure is written in.
    ///
    /// **Cancellation:** a cancel request reaching the promise cancels the Task; the promise
    /// is still fulfilled with whatever value the operation returns.
    @inlinable
    public init(
        priority: TaskPriority? = nil,
        @_inheritActorContext operation: consuming sending @escaping @isolated(any) () async -> sending Value
    ) {
        self = Promise._runningTask(priority: priority, operation: operation)
    }

    /// Runs the non-throwing `operation` in a new unstructured Task that prefers `context`'s
    /// task executor, and returns a promise of its value. Isolation and cancellation as in
    /// `Promise(on:priority:operation:)` for throwing operations.
    @inlinable
    public init(
        on context: PromiseContext.Named,
        priority: TaskPriority? = nil,
        operation: consuming sending @escaping () async -> Value
    ) {
        self = Promise._runningTask(on: context.context, priority: priority, nonisolatedOperation: operation)
    }

    /// Runs the non-throwing, nonisolated `operation` in a new unstructured Task that prefers
    /// the main queue, and returns a promise of its value. Isolation and cancellation as in
    /// `Promise(on: .main, priority:operation:)` for throwing operations.
    @inlinable
    public init(
        on context: PromiseContext.Main,
        priority: TaskPriority? = nil,
        operation: consuming sending @escaping () async -> Value
    ) {
        self = Promise._runningTask(on: context.context, priority: priority, nonisolatedOperation: operation)
    }

    /// Runs the non-throwing, nonisolated `operation` in a new unstructured Task on the context
    /// held in `context`, and returns a promise of its value (`.immediate` starts it in this
    /// call). Isolation and cancellation as in the throwing `Promise(on:priority:operation:)`
    /// that takes a context value.
    @inlinable
    public init(
        on context: any PromiseContextConvertible,
        priority: TaskPriority? = nil,
        operation: consuming sending @escaping () async -> Value
    ) {
        self = Promise._runningTask(on: context.promiseContext, priority: priority, nonisolatedOperation: operation)
    }

    /// Runs the non-throwing `operation` in a new unstructured Task that keeps the caller's
    /// actor, and returns a promise of its value; with `.immediate` the Task starts at once,
    /// in this call, and runs synchronously until its first suspension. Isolation, start and
    /// cancellation as in `Promise(on:priority:isolation:operation:)` for throwing operations;
    /// the promise is fulfilled with the value the operation returns, even after a cancel
    /// request.
    @inlinable
    public init(
        on context: PromiseContext.CallerIsolated,
        priority: TaskPriority? = nil,
        isolation: isolated (any Actor)? = #isolation,
        @_inheritActorContext operation: consuming sending @escaping @isolated(any) () async -> sending Value
    ) {
        let (immediately, executor) = Promise._start(on: context.context)
        self = Promise._runningTask(
            startingImmediately: immediately, executor: executor, priority: priority, isolation: isolation,
            operation: operation
        )
    }
}

extension Promise {
    /// How a caller-isolated context starts a Task: `.immediate` at once, in the call; the
    /// others on their task executor (`.auto`'s queue; none for `.nowOr(_)`).
    @inlinable
    static func _start(on context: PromiseContext) -> (immediately: Bool, executor: (any TaskExecutor)?) {
        if case .immediate = context { return (true, nil) }
        return (false, context.taskExecutor)
    }
}

extension Promise where Error: Swift.Error {
    /// Starts the Task of a nonisolated throwing `operation` on `context`: synchronously, in
    /// this call, for `.immediate`; otherwise preferring the context's task executor.
    @inlinable
    static func _runningTask(
        on context: PromiseContext,
        priority: TaskPriority?,
        nonisolatedOperation operation: consuming sending @escaping () async throws(Error) -> Value
    ) -> Promise {
        if case .immediate = context {
            return _runningImmediateTask(priority: priority, nonisolatedOperation: operation)
        }
        return _runningTask(executor: context.taskExecutor, priority: priority, nonisolatedOperation: operation)
    }
}

extension Promise {
    /// `_runningTask(on:priority:nonisolatedOperation:)` for a non-throwing operation.
    @inlinable
    static func _runningTask(
        on context: PromiseContext,
        priority: TaskPriority?,
        nonisolatedOperation operation: consuming sending @escaping () async -> Value
    ) -> Promise {
        if case .immediate = context {
            return _runningImmediateTask(priority: priority, nonisolatedOperation: operation)
        }
        return _runningTask(executor: context.taskExecutor, priority: priority, nonisolatedOperation: operation)
    }
}
