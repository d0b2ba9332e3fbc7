// TaskPromiseBox: the promise of an async operation run in a Task (the machinery behind
// TomorrowlandAsync's `Promise(priority:operation:)` and `Promise(on:priority:operation:)`,
// including `Promise(on: .immediate)`, whose Task starts synchronously: `Task.immediate`).

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
/// - `_runningTask` creates it in the order that lets each reference move instead of being
///   copied (each copy is a retain and a release): the operation goes into the box (stored
///   after `super.init()`), the new Task's handle straight into `task`, and the box into the
///   `Promise` handle last. If the Task already resolved the promise by then, the handle has
///   no seal, which on a resolved promise would change nothing.
/// - There is one subclass per operation type: throwing or not,
///   `@isolated(any)` (the `Task {}`-like initializers, and `on:` given a caller-isolated
///   context: `.immediate`, `.auto`) or nonisolated (the other `on:` ones).
/// - `.immediate` starts the Task with `Task.immediate`: the operation runs synchronously in
///   the creator's call until its first suspension, so it may resolve the box before `task`
///   is stored and before the box registers as its cancel handler (registration then drops
///   the handler, as for any resolved promise). Nothing else can reach the box before the
///   creator returns the handle, so no cancel request can come before `task` is stored.
///
/// Safety of `@unchecked Sendable` (and of unchecked exclusivity on `task`): `task` is
/// written once by the creator before the registration compare-exchange publishes the box
/// in the cancel-handler list, and read only by the thread that took that list, or by the
/// creator itself if the registration finds cancellation already requested (the handler
/// then runs at once on the creator's thread, `.runNow`). A
/// subclass's `operation` is written in `init` and then taken once, by `run()`. The await
/// slot's fields: see `AwaitSlot` (`awaitStopsOnCancel` is written by the Task that claimed
/// the slot, before it installs the cancellation handler that reads it).
@usableFromInline
class TaskPromiseBox<Value, Error>: PromiseBox<Value, Error>, AwaitSlot, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) final var task = publishedField(Task<Void, Never>?.none, "task")
    /// The await slot: the first Task awaiting this promise waits here, without a node.
    final let awaitPhase = SharedAtomic<AwaitPhase>(.free, "awaitPhase")
    @exclusivity(unchecked) final var awaitContinuation = publishedField(AwaitContinuation?.none, "continuation")
    /// Published by the claim, read by the cancellation handler of the Task that claimed it.
    @exclusivity(unchecked) final var stopsOnCancel = publishedField(false, "awaitStopsOnCancel")
    final var awaitStopsOnCancel: Bool { readField(stopsOnCancel) }

    @inlinable
    override init() {
        super.init()
    }

    /// Registers the box as its own cancel handler, once `task` is stored (the creator stores
    /// the new Task's handle straight into the field, so it is neither retained nor released
    /// on the way). If the Task already resolved the promise, registration just drops the
    /// handler.
    @usableFromInline
    final func registerAsCancelHandler() {
        registerCancelHandler(self)
    }

    /// A cancel request reached the promise: cancel the Task (the operation decides what
    /// to do; its outcome still resolves the promise).
    override final func upstreamRequestedCancel(_ upstream: PromiseCore, synchronously: Bool) {
        readField(task)?.cancel()
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
    override final func takeAwaitSlotAndObserve(stopWaitingOnCancel: Bool) -> Bool {
        guard awaitPhase.apply(.claim) == .claimed else { return false }
        publishField(&stopsOnCancel, stopWaitingOnCancel)
        addObserver()
        return true
    }

    /// Stores the continuation of the Task holding the slot; resumes it at once if the
    /// promise resolved or the Task stopped waiting meanwhile.
    override final func storeContinuationAndWait(_ continuation: AwaitContinuation) {
        _ = storeAndArm(continuation, phase: awaitPhase)
    }

    /// The Task holding the slot was cancelled: as `PromiseAwaiter.requestCancelForAwaitingTask`.
    override final func requestCancelForAwaitingTask() {
        observerRequestedCancel(ignoringHandles: true)
        awaitCancelled(phase: awaitPhase)
    }
}

/// A Task promise whose `@isolated(any)` operation throws `Error`; `CancellationError` cancels it.
@usableFromInline
final class IsolatedThrowingTaskPromiseBox<Value, Error: Swift.Error>: TaskPromiseBox<Value, Error>, TaskPromiseRunner, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var operation: (@isolated(any) () async throws(Error) -> sending Value)? = nil

    @inlinable
    init(operation: consuming sending @escaping @isolated(any) () async throws(Error) -> sending Value) {
        super.init()
        self.operation = operation
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
final class ThrowingTaskPromiseBox<Value, Error: Swift.Error>: TaskPromiseBox<Value, Error>, TaskPromiseRunner, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var operation: (() async throws(Error) -> Value)? = nil

    @inlinable
    init(operation: consuming sending @escaping () async throws(Error) -> Value) {
        super.init()
        self.operation = operation
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
final class IsolatedTaskPromiseBox<Value, Error>: TaskPromiseBox<Value, Error>, TaskPromiseRunner, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var operation: (@isolated(any) () async -> sending Value)? = nil

    @inlinable
    init(operation: consuming sending @escaping @isolated(any) () async -> sending Value) {
        super.init()
        self.operation = operation
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
final class NonThrowingTaskPromiseBox<Value, Error>: TaskPromiseBox<Value, Error>, TaskPromiseRunner, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var operation: (() async -> Value)? = nil

    @inlinable
    init(operation: consuming sending @escaping () async -> Value) {
        super.init()
        self.operation = operation
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
        priority: TaskPriority?,
        operation: consuming sending @escaping @isolated(any) () async throws(Error) -> sending Value
    ) -> Promise {
        let box = IsolatedThrowingTaskPromiseBox<Value, Error>(operation: operation)
        // A literal `nil` preference is folded away (no record), and unlike `Task(priority:)`
        // it does not look up the closure's isolation (an executor lookup with its retains).
        publishField(&box.task, Task(executorPreference: nil, priority: priority) { await box.run() })
        box.registerAsCancelHandler()
        return Promise(box: box)
    }

    /// Starts a Task running the throwing nonisolated `operation` (on the Task's executor),
    /// and returns its promise. The promise's cancel requests cancel the Task.
    @inlinable
    package static func _runningTask(
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        nonisolatedOperation operation: consuming sending @escaping () async throws(Error) -> Value
    ) -> Promise {
        let box = ThrowingTaskPromiseBox<Value, Error>(operation: operation)
        publishField(&box.task, _startTask(running: box, executorPreference: executor, priority: priority))
        box.registerAsCancelHandler()
        return Promise(box: box)
    }
}

extension Promise {
    /// Starts a Task running the non-throwing `operation` on its own isolation, and returns its promise.
    /// The promise's cancel requests cancel the Task. See `TaskPromiseBox`.
    @inlinable
    package static func _runningTask(
        priority: TaskPriority?,
        operation: consuming sending @escaping @isolated(any) () async -> sending Value
    ) -> Promise {
        let box = IsolatedTaskPromiseBox<Value, Error>(operation: operation)
        // As in the throwing variant: a literal `nil` preference costs nothing.
        publishField(&box.task, Task(executorPreference: nil, priority: priority) { await box.run() })
        box.registerAsCancelHandler()
        return Promise(box: box)
    }

    /// `_runningTask(priority:operation:)` for a non-throwing operation of a promise whose
    /// `Error` is a `Swift.Error` (where the label alone would be ambiguous).
    @inlinable
    package static func _runningTask(
        priority: TaskPriority?,
        nonThrowingOperation operation: consuming sending @escaping @isolated(any) () async -> sending Value
    ) -> Promise {
        _runningTask(priority: priority, operation: operation)
    }

    /// Starts a Task running the non-throwing nonisolated `operation` (on the Task's
    /// executor), and returns its promise. The promise's cancel requests cancel the Task.
    @inlinable
    package static func _runningTask(
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        nonisolatedOperation operation: consuming sending @escaping () async -> Value
    ) -> Promise {
        let box = NonThrowingTaskPromiseBox<Value, Error>(operation: operation)
        publishField(&box.task, _startTask(running: box, executorPreference: executor, priority: priority))
        box.registerAsCancelHandler()
        return Promise(box: box)
    }
}

/// A Task promise box that `_startTask` and `_startImmediateTask` can start: `run()` runs its
/// operation (a nonisolated one on the Task's executor, an `@isolated(any)` one on its actor)
/// and resolves the promise.
@usableFromInline
protocol TaskPromiseRunner: AnyObject, Sendable {
    /// Runs the operation and resolves the promise with its outcome.
    func run() async
}

/// Starts the Task that runs `box`: preferring `executor`, if any. Without one, the Task is
/// created by a separate function with a *literal* `nil` preference: a `nil` the optimizer
/// cannot see still records a preference, and every executor switch of that Task then takes
/// its status-record lock. Written inline as the `else` branch, the two `Task` creations are
/// merged into one whose preference is a runtime value, which records it (measured:
/// `Promise(on: .immediate)` +1,200 instructions and +24 atomic RMWs per promise). A plain
/// `Task(priority:)` records none either, but converting the closure to `@isolated(any)`
/// allocates its context (one more allocation per promise).
@inlinable @inline(__always)
func _startTask<Box: TaskPromiseRunner>(
    running box: Box, executorPreference executor: (any TaskExecutor)?, priority: TaskPriority?
) -> Task<Void, Never> {
    if let executor {
        return Task(executorPreference: executor, priority: priority) { await box.run() }
    }
    return _startTask(running: box, priority: priority)
}

/// `_startTask` without an executor preference: out of line so that the `nil` stays literal.
@inlinable @inline(never)
func _startTask<Box: TaskPromiseRunner>(running box: Box, priority: TaskPriority?) -> Task<Void, Never> {
    Task(executorPreference: nil, priority: priority) { await box.run() }
}

// MARK: Caller-isolated and immediate starts (`Promise(on: .immediate)`, `.auto`)

extension Promise where Error: Swift.Error {
    /// Starts a Task running the throwing `@isolated(any)` operation of an initializer given a
    /// caller-isolated context, and returns its promise. With `startingImmediately` (the
    /// context is `.immediate`) the Task starts synchronously, in this call, when the operation
    /// is nonisolated or isolated to `isolation` (the caller's actor, on which this runs);
    /// otherwise it prefers `executor`. The promise's cancel requests cancel the Task.
    @inlinable
    package static func _runningTask(
        startingImmediately: Bool,
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        isolation: isolated (any Actor)?,
        operation: consuming sending @escaping @isolated(any) () async throws(Error) -> sending Value
    ) -> Promise {
        let operationIsolation = _isolation(of: operation)
        let box = IsolatedThrowingTaskPromiseBox<Value, Error>(operation: operation)
        publishField(&box.task, _startCallerIsolatedTask(
            running: box, operationIsolation: operationIsolation, startingImmediately: startingImmediately,
            executor: executor, priority: priority, isolation: isolation
        ))
        box.registerAsCancelHandler()
        return Promise(box: box)
    }

    /// Starts a Task running the throwing nonisolated `operation` synchronously, in this call,
    /// until its first suspension (a `.immediate` context held in a value), and returns its
    /// promise. The promise's cancel requests cancel the Task.
    @inlinable
    package static func _runningImmediateTask(
        priority: TaskPriority?,
        nonisolatedOperation operation: consuming sending @escaping () async throws(Error) -> Value
    ) -> Promise {
        let box = ThrowingTaskPromiseBox<Value, Error>(operation: operation)
        publishField(&box.task, _startImmediateTask(running: box, priority: priority))
        box.registerAsCancelHandler()
        return Promise(box: box)
    }
}

extension Promise {
    /// `_runningTask(startingImmediately:executor:priority:isolation:operation:)` for a
    /// non-throwing `@isolated(any)` operation.
    @inlinable
    package static func _runningTask(
        startingImmediately: Bool,
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        isolation: isolated (any Actor)?,
        operation: consuming sending @escaping @isolated(any) () async -> sending Value
    ) -> Promise {
        let operationIsolation = _isolation(of: operation)
        let box = IsolatedTaskPromiseBox<Value, Error>(operation: operation)
        publishField(&box.task, _startCallerIsolatedTask(
            running: box, operationIsolation: operationIsolation, startingImmediately: startingImmediately,
            executor: executor, priority: priority, isolation: isolation
        ))
        box.registerAsCancelHandler()
        return Promise(box: box)
    }

    /// The non-throwing caller-isolated start for a promise whose `Error` is a `Swift.Error`
    /// (where the label alone would be ambiguous).
    @inlinable
    package static func _runningTask(
        startingImmediately: Bool,
        executor: (any TaskExecutor)?,
        priority: TaskPriority?,
        isolation: isolated (any Actor)?,
        nonThrowingOperation operation: consuming sending @escaping @isolated(any) () async -> sending Value
    ) -> Promise {
        _runningTask(
            startingImmediately: startingImmediately, executor: executor, priority: priority, isolation: isolation,
            operation: operation
        )
    }

    /// `_runningImmediateTask(priority:nonisolatedOperation:)` for a non-throwing operation.
    @inlinable
    package static func _runningImmediateTask(
        priority: TaskPriority?,
        nonisolatedOperation operation: consuming sending @escaping () async -> Value
    ) -> Promise {
        let box = NonThrowingTaskPromiseBox<Value, Error>(operation: operation)
        publishField(&box.task, _startImmediateTask(running: box, priority: priority))
        box.registerAsCancelHandler()
        return Promise(box: box)
    }
}

/// The actor an `@isolated(any)` operation is isolated to, if any.
///
/// A function of its own because Swift 6.3.1's SILGen crashes (signal 11) on `.isolation` read
/// from a `sending` parameter, and from a stored optional of that function type; read from a
/// plain parameter it compiles.
@inlinable @inline(__always)
func _isolation<Value, Error>(of operation: @isolated(any) () async throws(Error) -> sending Value) -> (any Actor)? {
    operation.isolation
}

#if compiler(>=6.2)
/// A Task promise box whose `@isolated(any)` operation can also run on the executor it is
/// called on (the start of `Promise(on: .immediate)` on the caller's actor).
@usableFromInline
protocol CallerIsolatedTaskPromise: TaskPromiseRunner {
    /// `run()` without the hop to the generic executor that a nonisolated async method makes:
    /// called on the operation's actor, it calls the operation there, without suspending.
    nonisolated(nonsending) func runOnCallersExecutor() async
}

extension IsolatedThrowingTaskPromiseBox: CallerIsolatedTaskPromise {
    /// Runs the operation and resolves the promise with its outcome, on the caller's executor.
    @inlinable @inline(__always)
    nonisolated(nonsending) final func runOnCallersExecutor() async {
        guard let operation = operation.take() else { fatalError("Tomorrowland: a Task promise's operation ran twice") }
        do throws(Error) {
            finish(.value(try await operation()))
        } catch {
            finish(error is CancellationError ? .cancelled : .error(error))
        }
    }
}

extension IsolatedTaskPromiseBox: CallerIsolatedTaskPromise {
    /// Runs the operation and resolves the promise with its outcome, on the caller's executor.
    @inlinable @inline(__always)
    nonisolated(nonsending) final func runOnCallersExecutor() async {
        guard let operation = operation.take() else { fatalError("Tomorrowland: a Task promise's operation ran twice") }
        finish(.value(await operation()))
    }
}

/// Starts the Task of a caller-isolated initializer (`on: .immediate`, `.auto`, `.nowOr(_)`).
///
/// Not starting immediately: the Task prefers `executor` (`.auto`'s queue; none for `.nowOr`),
/// and an operation isolated to an actor hops there, as in `Promise { }`.
///
/// Starting immediately (`Task.immediate`): the Task's closure must have the operation's
/// isolation, or its synchronous start would run on the wrong executor and suspend to hop:
/// - a nonisolated operation: a nonisolated closure (`_startImmediateTask(running:priority:)`)
///   runs it on the caller's thread, whatever actor the caller is on;
/// - an operation isolated to the caller's actor (`isolation`, the `#isolation` of the call:
///   a closure written in `@MainActor` code, or in an actor method that uses `self`): a
///   closure written here inherits `isolation` (`Task.immediate` takes its operation with
///   `@_inheritActorContext(always)`) and calls `runOnCallersExecutor()`, which does not hop;
/// - an operation isolated to another actor (`{ @MainActor in … }` from nonisolated code):
///   `Task.immediate` would enqueue it on that actor anyway (the caller is not known to be on
///   it), so an ordinary Task, which hops there.
/// With an `executor` when starting immediately (`Promise(on: .immediate, executorPreference:)`),
/// a nonisolated operation's Task prefers it: after its first suspension it runs on `executor`,
/// not on the global concurrent executor. An operation isolated to the caller's actor starts as
/// without one (it runs on its actor anyway).
/// On an OS older than `Task.immediate` (macOS 26, iOS 26, …) it starts like `Promise { }`.
@inlinable
func _startCallerIsolatedTask<Box: CallerIsolatedTaskPromise>(
    running box: Box,
    operationIsolation: (any Actor)?,
    startingImmediately: Bool,
    executor: (any TaskExecutor)?,
    priority: TaskPriority?,
    isolation: isolated (any Actor)?
) -> Task<Void, Never> {
    guard startingImmediately else { return _startTask(running: box, executorPreference: executor, priority: priority) }
    guard let operationIsolation else {
        guard let executor else { return _startImmediateTask(running: box, priority: priority) }
        return _startImmediateTask(running: box, executorPreference: executor, priority: priority)
    }
    guard operationIsolation === isolation else { return _startTask(running: box, executorPreference: executor, priority: priority) }
    // No preference here: `Task.immediate(executorPreference:)` enqueues an operation isolated to an actor instead of
    // starting it in the call, and the operation runs on its actor anyway.
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
        return Task.immediate(priority: priority) { await box.runOnCallersExecutor() }
    }
    return _startTask(running: box, priority: priority)
}

/// Starts the Task of a nonisolated operation given to `Promise(on: .immediate,
/// executorPreference:)`: synchronously, on the caller's thread, until its first suspension,
/// then on `executor`. The closure calls `runOnCallersExecutor()`, which does not hop: `run()`,
/// a nonisolated async method, switches to the generic executor on entry, and under a
/// preference that switch is an enqueue on `executor`, so the operation would not start in the
/// call. On an OS older than `Task.immediate`, a Task that prefers `executor`.
///
/// The Task prefers `ImmediateStartTaskExecutor(executor)`, not `executor` itself: see there.
@inlinable
func _startImmediateTask<Box: CallerIsolatedTaskPromise>(
    running box: Box, executorPreference executor: any TaskExecutor, priority: TaskPriority?
) -> Task<Void, Never> {
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
        return Task.immediate(priority: priority, executorPreference: ImmediateStartTaskExecutor(executor)) { () async -> Void in
            await box.runOnCallersExecutor()
        }
    }
    return _startTask(running: box, executorPreference: executor, priority: priority)
}

/// The executor a Task started in the call prefers in place of `base`
/// (`Promise(on: .immediate, executorPreference: base)`): it hands every job to `base`, so the
/// Task runs where `base` runs it, but it is another executor to the runtime.
///
/// Why: `Task.immediate(executorPreference: base)` runs the Task's start on the caller's thread
/// with the runtime taking that thread to be `base` (the generic executor with `base` as its
/// task executor). A hop to `base` that nothing suspended before, such as the operation's first
/// `withTaskExecutorPreference(base) { @concurrent in … }`, is then no hop at all, and the step
/// runs on the caller's thread. Preferring this executor instead, the start runs on the caller's
/// thread as before (the operation's own switch to the generic executor finds the executor it
/// asks for current), and that first hop to `base` goes to `base`. After a suspension the Task
/// resumes through this executor, on `base`.
///
/// Cost: one allocation per promise. `base` runs the jobs as its own, so the runtime takes the
/// Task to be on `base` there, not on this executor. For an executor that runs jobs isolated to
/// a serial executor (`.queue(q)`, `.main`: every switch to nonisolated code is an enqueue
/// anyway) the Task makes the same hops as under `base` (measured: the same enqueue count after
/// the first step). For one that runs jobs on the generic executor (`.utility` and the other
/// global contexts), a switch back to the Task's nonisolated code after a suspension or a step
/// on `base` is one more enqueue on `base` (a hop between two of its threads).
@usableFromInline
final class ImmediateStartTaskExecutor: TaskExecutor {
    @usableFromInline let base: any TaskExecutor

    @inlinable
    init(_ base: any TaskExecutor) {
        self.base = base
    }

    @inlinable
    func enqueue(_ job: consuming ExecutorJob) {
        base.enqueue(job)
    }
}

/// Starts the Task that runs `box` with `Task.immediate` from a nonisolated function, so that
/// the Task's closure is nonisolated: it runs synchronously on the caller's thread until its
/// first suspension, then on the global concurrent executor. Like `Promise { }` on an OS
/// older than `Task.immediate`.
@inlinable
func _startImmediateTask<Box: TaskPromiseRunner>(running box: Box, priority: TaskPriority?) -> Task<Void, Never> {
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
        return Task.immediate(priority: priority) { await box.run() }
    }
    return _startTask(running: box, priority: priority)
}
#else
/// Starts the Task of a caller-isolated initializer. Before Swift 6.2 there is no
/// `Task.immediate`: `.immediate` starts the Task like `Promise { }`.
@inlinable
func _startCallerIsolatedTask<Box: TaskPromiseRunner>(
    running box: Box,
    operationIsolation: (any Actor)?,
    startingImmediately: Bool,
    executor: (any TaskExecutor)?,
    priority: TaskPriority?,
    isolation: isolated (any Actor)?
) -> Task<Void, Never> {
    _startTask(running: box, executorPreference: executor, priority: priority)
}

/// Before Swift 6.2 there is no `Task.immediate`: starts the Task like `Promise { }`.
@inlinable
func _startImmediateTask<Box: TaskPromiseRunner>(running box: Box, priority: TaskPriority?) -> Task<Void, Never> {
    _startTask(running: box, priority: priority)
}
#endif
