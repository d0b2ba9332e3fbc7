// TaskPromiseBox: the promise of an async operation run in a Task (the machinery behind
// TomorrowlandAsync's `Promise(priority:operation:)` and `Promise(on:priority:operation:)`).

import Synchronization

/// A promise box that owns the operation of the Task resolving it, and is itself the
/// cancel handler that cancels that Task.
///
/// Allocation budget, and why the class looks like this:
/// - No wrapper closure around the operation, no resolver handle (the Task always resolves
///   the box before it ends, so it stands in for the creator's keeper).
/// - A root box is never in another promise's list, so its `next` link is free: the box
///   registers *itself* as its own cancel handler (one compare-exchange, no node). The list
///   owns one retain until the promise resolves or a cancel request takes it.
/// - The box is its own await target: the first Task that awaits the promise stores its
///   continuation in the box's await slot (see `AwaitPhase`), and the Task running the
///   operation resumes it right after resolving; no `PromiseAwaiter` node, no callback-list
///   registration. Only the Task resolves the box, so `finish` sees every resolution.
/// - Subclasses store the operation in an optional field of function type (a fixed layout:
///   destroying it needs no metadata lookup). `run()` takes it out before calling it, so the
///   operation's captures are released when it returns, not when the promise dies
///   (`self.p = Promise { self… }` must not be a cycle). Taking it allocates nothing; a
///   placeholder closure literal of the `@isolated(any)` type would allocate a context.
/// - The Task's closure captures only the box, so its context is the box itself: capturing
///   the operation as well would allocate one. `run()` is always inlined into it: out of
///   line (as the optimizer left it) it is one more async frame of the Task.
/// - There is one subclass per operation type: throwing or not,
///   `@isolated(any)` (the `Task {}`-like initializers) or nonisolated (the `on:` ones).
///
/// Safety of `@unchecked Sendable` (and of unchecked exclusivity on `task`): `task` is
/// written once by the creator before the registration compare-exchange publishes the box
/// in the cancel-handler list, and read only by the thread that took that list. A
/// subclass's `operation` is written in `init` and then taken once, by `run()`. The await
/// slot's fields: see `AwaitSlot` (`awaitStopsOnCancel` is written by the Task that claimed
/// the slot, before it installs the cancellation handler that reads it).
@usableFromInline
class TaskPromiseBox<Value, Error>: PromiseBox<Value, Error>, AwaitSlot, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) final var task: Task<Void, Never>?
    /// The await slot: the first Task awaiting this promise waits here, without a node.
    final let awaitPhase = Atomic<AwaitPhase>(.free)
    @exclusivity(unchecked) final var awaitContinuation: AwaitContinuation?
    @exclusivity(unchecked) final var awaitStopsOnCancel = false

    @inlinable
    override init() {
        super.init()
    }

    /// Publishes `task` and registers the box as its own cancel handler. If the Task already
    /// resolved the promise, registration just drops the handler.
    @usableFromInline
    final func attach(_ task: Task<Void, Never>) {
        self.task = task
        registerCancelHandler(self)
    }

    /// A cancel request reached the promise: cancel the Task (the operation decides what
    /// to do; its outcome still resolves the promise).
    override final func upstreamRequestedCancel(_ upstream: PromiseCore, synchronously: Bool) {
        task?.cancel()
    }

    /// Resolves the promise with the operation's outcome (only the Task does) and resumes
    /// the Task waiting in the await slot, if any, once the result is visible and before the
    /// callbacks are delivered: as an awaiting Task's node would be if it were first in the
    /// list, and never behind callbacks (an `.immediate` callback that waits for the awaiting
    /// Task must not stall it).
    @inlinable
    final func finish(_ result: PromiseResult<Value, Error>) {
        if !resolve(result, beforeDelivering: { awaitSlotResolved() }) { awaitSlotResolved() }
    }

    /// The promise resolved: resumes the Task waiting in the await slot, if armed; closes
    /// the slot otherwise.
    @usableFromInline
    final func awaitSlotResolved() {
        awaitResolved(phase: awaitPhase)
    }

    // MARK: The await slot

    /// Takes the await slot for the current Task and counts it as one propagating observer
    /// (as `PromiseAwaiter.init` does). `false` if another Task holds it or it closed: the
    /// caller waits with a `PromiseAwaiter` node instead.
    @usableFromInline
    override final func claimAwaitSlot(stopWaitingOnCancel: Bool) -> Bool {
        guard awaitPhase.claim() else { return false }
        awaitStopsOnCancel = stopWaitingOnCancel
        addObserver()
        return true
    }

    /// Stores the continuation of the Task holding the slot; resumes it at once if the
    /// promise resolved or the Task stopped waiting meanwhile.
    override final func armAwait(_ continuation: AwaitContinuation) {
        _ = storeAndArm(continuation, phase: awaitPhase)
    }

    /// The Task holding the slot was cancelled: as `PromiseAwaiter.awaitingTaskCancelled`.
    override final func awaitingTaskCancelled() {
        observerRequestedCancel(ignoringHandles: true)
        awaitCancelled(phase: awaitPhase)
    }
}

/// A Task promise whose `@isolated(any)` operation throws `Error`; `CancellationError` cancels it.
@usableFromInline
final class IsolatedThrowingTaskPromiseBox<Value, Error: Swift.Error>: TaskPromiseBox<Value, Error>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var operation: (@isolated(any) () async throws(Error) -> sending Value)?

    @inlinable
    init(operation: sending @escaping @isolated(any) () async throws(Error) -> sending Value) {
        self.operation = operation
        super.init()
    }

    /// Runs the operation and resolves the promise with its outcome.
    @inlinable @inline(__always)
    final func run() async {
        guard let operation = operation.take() else { fatalError("Tomorrowland: a Task promise's operation ran twice") }
        do throws(Error) {
            finish(.value(try await operation()))
        } catch {
            finish(error is CancellationError ? .cancelled : .error(error))
        }
    }
}

/// A Task promise whose nonisolated operation throws `Error`; `CancellationError` cancels it.
@usableFromInline
final class ThrowingTaskPromiseBox<Value, Error: Swift.Error>: TaskPromiseBox<Value, Error>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var operation: (() async throws(Error) -> Value)?

    @inlinable
    init(operation: sending @escaping () async throws(Error) -> Value) {
        self.operation = operation
        super.init()
    }

    /// Runs the operation and resolves the promise with its outcome.
    @inlinable @inline(__always)
    final func run() async {
        guard let operation = operation.take() else { fatalError("Tomorrowland: a Task promise's operation ran twice") }
        do throws(Error) {
            finish(.value(try await operation()))
        } catch {
            finish(error is CancellationError ? .cancelled : .error(error))
        }
    }
}

/// A Task promise whose `@isolated(any)` operation cannot fail.
@usableFromInline
final class IsolatedTaskPromiseBox<Value, Error>: TaskPromiseBox<Value, Error>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var operation: (@isolated(any) () async -> sending Value)?

    @inlinable
    init(operation: sending @escaping @isolated(any) () async -> sending Value) {
        self.operation = operation
        super.init()
    }

    /// Runs the operation and resolves the promise with its outcome.
    @inlinable @inline(__always)
    final func run() async {
        guard let operation = operation.take() else { fatalError("Tomorrowland: a Task promise's operation ran twice") }
        finish(.value(await operation()))
    }
}

/// A Task promise whose nonisolated operation cannot fail.
@usableFromInline
final class NonThrowingTaskPromiseBox<Value, Error>: TaskPromiseBox<Value, Error>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var operation: (() async -> Value)?

    @inlinable
    init(operation: sending @escaping () async -> Value) {
        self.operation = operation
        super.init()
    }

    /// Runs the operation and resolves the promise with its outcome.
    @inlinable @inline(__always)
    final func run() async {
        guard let operation = operation.take() else { fatalError("Tomorrowland: a Task promise's operation ran twice") }
        finish(.value(await operation()))
    }
}

extension Promise where Error: Swift.Error {
    /// Starts a Task running the throwing `operation` on its own isolation, and returns its promise.
    /// The promise's cancel requests cancel the Task. See `TaskPromiseBox`.
    @inlinable
    package static func _runningTask(
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        operation: sending @escaping @isolated(any) () async throws(Error) -> sending Value
    ) -> Promise {
        let box = IsolatedThrowingTaskPromiseBox<Value, Error>(operation: operation)
        let promise = Promise(box: box)
        box.attach(Task(executorPreference: executor, priority: priority) { [box] in await box.run() })
        return promise
    }

    /// Starts a Task running the throwing nonisolated `operation` (on the Task's executor),
    /// and returns its promise. The promise's cancel requests cancel the Task.
    @inlinable
    package static func _runningTask(
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        nonisolatedOperation operation: sending @escaping () async throws(Error) -> Value
    ) -> Promise {
        let box = ThrowingTaskPromiseBox<Value, Error>(operation: operation)
        let promise = Promise(box: box)
        box.attach(Task(executorPreference: executor, priority: priority) { [box] in await box.run() })
        return promise
    }
}

extension Promise {
    /// Starts a Task running the non-throwing `operation` on its own isolation, and returns its promise.
    /// The promise's cancel requests cancel the Task. See `TaskPromiseBox`.
    @inlinable
    package static func _runningTask(
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        operation: sending @escaping @isolated(any) () async -> sending Value
    ) -> Promise {
        let box = IsolatedTaskPromiseBox<Value, Error>(operation: operation)
        let promise = Promise(box: box)
        box.attach(Task(executorPreference: executor, priority: priority) { [box] in await box.run() })
        return promise
    }

    /// `_runningTask(executor:priority:operation:)` for a non-throwing operation of a promise
    /// whose `Error` is a `Swift.Error` (where the label alone would be ambiguous).
    @inlinable
    package static func _runningTask(
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        nonThrowingOperation operation: sending @escaping @isolated(any) () async -> sending Value
    ) -> Promise {
        _runningTask(executor: executor, priority: priority, operation: operation)
    }

    /// Starts a Task running the non-throwing nonisolated `operation` (on the Task's
    /// executor), and returns its promise. The promise's cancel requests cancel the Task.
    @inlinable
    package static func _runningTask(
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        nonisolatedOperation operation: sending @escaping () async -> Value
    ) -> Promise {
        let box = NonThrowingTaskPromiseBox<Value, Error>(operation: operation)
        let promise = Promise(box: box)
        box.attach(Task(executorPreference: executor, priority: priority) { [box] in await box.run() })
        return promise
    }
}
