// WhenAggregate: the shared bookkeeping of when(fulfilled:) for arrays and tuples.

import Dispatch
import Synchronization

/// Counts down the inputs of a `when(fulfilled:)` and resolves its output.
///
/// `remaining` starts at the number of inputs plus one; the extra one belongs to the
/// registering call. Whoever brings it to zero fulfils the output: the registering call
/// (every input was already fulfilled: synchronous result, rule 20) or the last input
/// (dispatched once to the `qos` queue, where the values are assembled). Each input writes
/// its own slot before its acquiring-and-releasing decrement, so the thread that reaches
/// zero sees every value. A failure resolves the output where 1.4's `.nowOr(qos)` delivery
/// did: synchronously when the input had already failed when `when` registered on it,
/// otherwise on the global queue of `qos`, never on the failing input's own thread (a
/// callback on the output must not run on, say, a database queue that rejected an input).
/// The first failure to arrive claims the output (`decided`), on the failing thread; later
/// failures are ignored. With `cancelOnFailure` the winner asks every input to cancel *before*
/// it resolves the output, so whoever observes the output's failure knows the requests are
/// made; the inputs' own cancellations that follow lose to it.
///
/// Safety of `@unchecked Sendable`: `assemble` is called once, after `remaining` reached
/// zero; everything else is immutable or atomic.
final class WhenAggregate<Output, Error>: @unchecked Sendable {
    private let remaining: SharedAtomic<Int>
    /// Whether a failure has claimed the output (first wins).
    private let decided = SharedAtomic<Bool>(false, "when.decided")
    private let resolver: Promise<Output, Error>.Resolver
    private let qos: DispatchQoS.QoSClass
    private let inputsToCancel: [PromiseCore]?
    private let assemble: () -> Output

    /// - Parameter inputsToCancel: the inputs to `requestCancel()` on the first failure
    ///   (`cancelOnFailure`), or `nil`.
    init(count: Int, resolver: Promise<Output, Error>.Resolver, qos: DispatchQoS.QoSClass, inputsToCancel: [PromiseCore]?, assemble: @escaping () -> Output) {
        remaining = SharedAtomic(count + 1, "when.remaining")
        self.resolver = resolver
        self.qos = qos
        self.inputsToCancel = inputsToCancel
        self.assemble = assemble
    }

    /// Whether the output has resolved (or is resolving).
    var isDecided: Bool { resolver._box.currentState.isResolvingOrResolved }

    /// Registers `observer` as one propagating observer of `input`. Returns it: its
    /// `requestCancel()` passes the output's cancel request to `input` (rule 20).
    func observe<V>(_ input: Promise<V, Error>, with observer: WhenInputObserver<V, Output, Error>) -> PromiseCore {
        observer.linkUpstream(input._box)
        input._box.register(observer)
        return observer
    }

    /// Called once by the registering call after every input is observed. Returns whether
    /// the output is already resolved.
    func finishRegistration(observers: ContiguousArray<PromiseCore>) -> Bool {
        countDown(registering: true)
        if isDecided { return true }
        resolver.onRequestCancel(on: .immediate) { _ in
            for observer in observers { observer.requestCancel() }
        }
        return false
    }

    private func dispatch(_ work: @escaping @Sendable () -> Void) {
        dispatchOnGlobalQueue(qos: qos, work)
    }

    func countDown(registering: Bool) {
        // Acquiring and releasing: each input's value is stored (`store`) before its
        // countdown releases it, and the countdown that reaches zero acquires every one of
        // them before the assembly reads them (the explorer checks it: a releasing-only
        // countdown races with the assembly's reads).
        guard remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        if registering {
            resolver._box.resolve(.value(assemble()))
        } else {
            dispatch { [self] in resolver._box.resolve(.value(assemble())) }
        }
    }

    /// An input failed with `result` (`.error` or `.cancelled`); `synchronously`: it had
    /// already failed when it was registered, so the output fails now, during `when`'s call.
    ///
    /// The first failure to arrive claims the output at once, on the failing thread, so the
    /// order in which inputs fail decides, not the order of the queue's threads; the output
    /// then fails on the `qos` queue.
    func fail(_ result: PromiseResult<Output, Error>, synchronously: Bool) {
        // Relaxed: the flag only elects one failure; the output's resolution publishes the rest.
        guard decided.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        if synchronously {
            decide(result)
        } else {
            let failure = UncheckedSendable(result)
            dispatch { [self] in decide(failure.value) }
        }
    }

    /// Resolves the output with the failure that claimed it, after asking every input to cancel
    /// (`cancelOnFailure`): whoever sees the output fail knows the requests are made.
    private func decide(_ result: PromiseResult<Output, Error>) {
        if let inputsToCancel {
            for input in inputsToCancel { input.requestCancel() }
        }
        resolver._box.resolve(result)
    }
}

/// One input of a `when(fulfilled:)`: the node registered on the input (one allocation per
/// input: no child promise, no closure). It is a `PromiseCore` linked to the input as one
/// propagating observer, so the output's cancel request reaches the input as this observer's
/// own request (rule 20). Subclasses say where the value goes.
///
/// Safety of `@unchecked Sendable`: immutable apart from the atomic core; fires once.
class WhenInputObserver<Value, Output, Error>: PromiseCore, @unchecked Sendable {
    let aggregate: WhenAggregate<Output, Error>

    init(aggregate: WhenAggregate<Output, Error>) {
        self.aggregate = aggregate
        super.init(pending: ())
    }

    /// Keeps the input's value for the assembly.
    func store(_ value: Value) {
        fatalError("WhenInputObserver.store must be overridden")
    }

    override final func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        switch unsafeDowncast(upstream, to: PromiseBox<Value, Error>.self).publishedResult {
        case .value(let value):
            store(value)
            aggregate.countDown(registering: false)
        case .error(let error):
            aggregate.fail(.error(error), synchronously: synchronously)
        case .cancelled:
            aggregate.fail(.cancelled, synchronously: synchronously)
        }
        // Done observing: resolving this (callback-free) core drops its link to the input.
        if claim(cancelling: false) == .writeResult { publish() }
    }

    override final func dropped() {
        aggregate.fail(.cancelled, synchronously: false)
    }
}

/// An input of the array form: stores into its slot of the shared buffer.
final class WhenArrayInputObserver<Value, Error>: WhenInputObserver<Value, [Value], Error>, @unchecked Sendable {
    let buffer: WhenValueBuffer<Value>
    let index: Int

    init(aggregate: WhenAggregate<[Value], Error>, buffer: WhenValueBuffer<Value>, index: Int) {
        self.buffer = buffer
        self.index = index
        super.init(aggregate: aggregate)
    }

    override func store(_ value: Value) {
        buffer.store(value, at: index)
    }
}

/// An input of the tuple form: stores into its own slot.
final class WhenSlotInputObserver<Value, Output, Error>: WhenInputObserver<Value, Output, Error>, @unchecked Sendable {
    let slot: WhenValueSlot<Value>

    init(aggregate: WhenAggregate<Output, Error>, slot: WhenValueSlot<Value>) {
        self.slot = slot
        super.init(aggregate: aggregate)
    }

    override func store(_ value: Value) {
        slot.store(value)
    }
}

/// Where `when(fulfilled:)` over an array keeps its values: one slot per input, written once
/// by the thread that fulfils that input, read once by `WhenAggregate`'s assembly.
///
/// Safety of `@unchecked Sendable`: slots are disjoint, each written by one thread before
/// the countdown's release; the reader runs after the acquire that saw zero.
final class WhenValueBuffer<Value>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<PublishedField<Value?>>
    let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        initializePublishedFields(slots, count: count, nil, "when.value")
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    @inline(__always)
    func store(_ value: Value, at index: Int) {
        publishField(&slots[index], value)
    }

    /// Moves every value out, in input order.
    func takeAll() -> [Value] {
        var values = [Value]()
        values.reserveCapacity(count)
        for index in 0..<count { values.append(takeField(&slots[index])!) }
        return values
    }
}

/// Where the tuple form of `when(fulfilled:)` keeps one input's value.
///
/// Safety of `@unchecked Sendable`: written once before the countdown's release, read once
/// after the acquire that saw zero.
final class WhenValueSlot<Value>: @unchecked Sendable {
    private var value = publishedField(Value?.none, "when.value")
    init() {}
    func store(_ value: Value) {
        publishField(&self.value, value)
    }
    func take() -> Value { takeField(&value)! }
}

/// Runs `work` on the global queue of `qos`, where `when`'s outputs resolve when an input
/// resolves after the call (under the interleaving explorer, on a scenario thread instead).
func dispatchOnGlobalQueue(qos: DispatchQoS.QoSClass, _ work: @escaping @Sendable () -> Void) {
    #if TOMORROWLAND_SCHEDULE_POINTS
    if schedulePointTakesDeferredWork() {
        schedulePointDefer(work)
        return
    }
    #endif
    DispatchQueue.global(qos: qos).async(execute: work)
}
