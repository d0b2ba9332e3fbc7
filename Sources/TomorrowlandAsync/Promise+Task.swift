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
    /// **Isolation:** `operation` is not isolated to the caller's actor: it runs on `context` (e.g. `.queue(q)` runs it
    /// on `q`, `.main` on the main queue); actor-isolated code it calls still runs on its
    /// actor. `.immediate` and `.nowOr(_)` have no executor: the operation then runs on the
    /// global concurrent executor. Task-locals and priority are inherited as by `Task { }`.
    ///
    /// **Cancellation:** as `init(priority:operation:)`.
    @inlinable
    public init(
        on context: PromiseContext,
        priority: TaskPriority? = nil,
        operation: consuming sending @escaping () async throws(Error) -> Value
    ) {
        self = Promise._runningTask(executor: context.taskExecutor, priority: priority, nonisolatedOperation: operation)
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
    /// `init(priority:operation:)` and `Promise(on:priority:operation:)` for throwing operations.
    @inlinable
    public init(
        on context: PromiseContext,
        priority: TaskPriority? = nil,
        operation: consuming sending @escaping () async -> Value
    ) {
        self = Promise._runningTask(executor: context.taskExecutor, priority: priority, nonisolatedOperation: operation)
    }
}
