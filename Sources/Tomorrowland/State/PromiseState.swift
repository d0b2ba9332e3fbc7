// PromiseState: every state and transition of a promise, in one place.
//
// Start reading here. A promise's shared mutable state is five atomics in `PromiseCore`:
// the state word, the callback list head, the cancel-handler list head, the keeper count and
// the upstream link. This file is the pure value-type view of the first three, and the rules
// for the other two: each event is a `mutating func` (or a `static func`) that returns the
// action the caller must take *after* the change has been published with one atomic
// operation. Nothing here runs user code, takes a lock or touches memory other than the
// value itself (and the `next` link of a node not yet published), so `PromiseCore` can retry
// a failed compare-exchange by re-running the pure transition on the fresh value. Only
// `PromiseCore` applies these transitions; code outside State/ calls its named methods.
//
// ```
//  phase:   pending ──claim──▶ resolving ──publish──▶ resolved
//               │                                         ▲
//               └──requestCancel──▶ pending+cancelRequested┘ (still resolvable)
//
//  automatic cancellation propagation (rule 5), while pending:
//      observers          propagating children registered on this promise
//      cancelledObservers how many of them have requested cancellation
//      sealed             no `Promise` handle is left (or the promise is pre-sealed)
//      propagated         the request upstream has been made (at most once)
//      handlesWaived      an awaiting Task asked: handles no longer block (sticky)
//  fires when observers > 0 && cancelledObservers == observers
//        && (sealed || handlesWaived) && !propagated
//
//  callback list:        open ──publish──▶ resolved sentinel
//  cancel-handler list:  open ──requestCancel──▶ cancelRequested sentinel
//                        either ──publish──▶ resolved sentinel (fulfilled or rejected)
//                                         or cancelRequested sentinel (cancelled)
//  keepers (rule 1):     n ──release──▶ 0 while pending: resolve as cancelled
//  upstream link:        none ──link──▶ up ──taken once, by a cancel request or publish──▶ none
//                        (publish skips taking when it sees none; link then re-reads the phase)
// ```
//
// A callback's path, in five hops:
//  1. `promise.then { … }` (Generated/Promise+Callbacks.swift) makes a `ChildBox` (`ThenBox`,
//     Operators/Promise+Value.swift) and calls `register` (Operators/Register.swift), the one
//     registration path.
//  2. `PromiseCore.register` pushes the child onto the callback list (`ListHead.registerCallback`
//     below): `.pushed`, or `.fireNow` if the promise already resolved.
//  3. `resolver.fulfill(with:)` calls `PromiseBox.resolve`: `PromiseCore.claim`
//     (`PromiseState.claim`: `.writeResult` for the first resolution only), the result is
//     written, then `PromiseCore.publish` (`PromiseState.publish`; both lists closed).
//  4. `Delivery.deliver` fires the callback list in registration order, iteratively.
//  5. `ChildBox.upstreamResolved` → `handle` (Operators/ChildBox.swift) runs the callback at
//     once or schedules it on its context, then resolves the child: back to step 3.

/// The atomic state word of a promise.
///
/// Layout (low to high bits): 2 bits phase, 1 bit cancel requested, 1 bit sealed,
/// 1 bit propagated, 1 bit "upstream link counts only on cancel", 1 bit handles waived, 1 spare bit,
/// 28 bits observer count, 28 bits cancelled-observer count.
@usableFromInline
struct PromiseState: Equatable, Sendable {
    @usableFromInline var raw: UInt64

    @inlinable init(raw: UInt64) { self.raw = raw }

    /// Where the promise is in its one-way life.
    enum Phase: UInt64 {
        /// No result yet; callbacks are queued.
        case pending = 0
        /// One resolver won the race and is writing the result; everyone else loses.
        case resolving = 1
        /// The result is written and visible; it never changes again.
        case resolved = 2
    }

    @usableFromInline static let phaseMask: UInt64 = 0b11
    private static let cancelRequestedBit: UInt64 = 1 << 2
    private static let sealedBit: UInt64 = 1 << 3
    private static let propagatedBit: UInt64 = 1 << 4
    private static let linkOnCancelBit: UInt64 = 1 << 5
    private static let handlesWaivedBit: UInt64 = 1 << 6
    private static let spareBit: UInt64 = 1 << 7
    private static let observerShift: UInt64 = 8
    private static let cancelledShift: UInt64 = 36
    private static let countMask: UInt64 = (1 << 28) - 1

    /// A fresh pending promise with no observers, not sealed.
    @inlinable static var initial: PromiseState { PromiseState(raw: 0) }

    /// A promise created already resolved (`Promise(fulfilled:)` and friends).
    static let resolvedAtCreation = PromiseState(raw: Phase.resolved.rawValue | sealedBit)

    // MARK: Reading

    /// Whether a result has been claimed (resolving or resolved).
    @usableFromInline var isResolvingOrResolved: Bool { raw & Self.phaseMask != Phase.pending.rawValue }
    /// Whether the result is written and visible.
    @usableFromInline var isResolved: Bool { raw & Self.phaseMask == Phase.resolved.rawValue }
    /// Whether cancellation was requested and the promise is still pending, or the promise
    /// was cancelled. Rule 3: "`hasRequestedCancel` is true while a cancel request is pending
    /// and after the promise was cancelled; once the promise is fulfilled or rejected it is
    /// `false` again" (`claim` clears the bit for a fulfilment or rejection).
    @usableFromInline var isCancelRequested: Bool { raw & Self.cancelRequestedBit != 0 }
    /// Whether the promise was claimed by a fulfilment or a rejection (not a cancellation).
    var isFulfilledOrRejected: Bool { isResolvingOrResolved && !isCancelRequested }
    /// Whether no handle is left (or the promise was sealed at creation).
    var isSealed: Bool { raw & Self.sealedBit != 0 }
    /// Whether automatic propagation has already fired.
    var hasPropagated: Bool { raw & Self.propagatedBit != 0 }
    /// Whether an awaiting Task requested cancel: from then on, handles no longer block
    /// propagation (rule 5), since the awaiting code's own handle must not hold it back.
    var areHandlesWaived: Bool { raw & Self.handlesWaivedBit != 0 }
    /// Whether the upstream link only counts as an observer once it requests cancel (`onCancel`).
    var linkCountsOnlyOnCancel: Bool { raw & Self.linkOnCancelBit != 0 }
    /// Number of propagating observers ever registered.
    var observers: UInt64 { (raw >> Self.observerShift) & Self.countMask }
    /// Number of propagating observers that have requested cancellation.
    var cancelledObservers: UInt64 { (raw >> Self.cancelledShift) & Self.countMask }

    // MARK: Actions returned to the caller

    /// What the caller of `claim` must do.
    @usableFromInline
    enum ClaimAction: Equatable {
        /// This caller won: write the result, then `publish`.
        case writeResult
        /// A result was already claimed (first wins, rule 2): do nothing.
        case alreadyClaimed
    }

    /// What `PromiseCore.publish` must do with the cancel-handler list once the word says resolved.
    enum PublishAction: Equatable {
        /// The promise was cancelled: close the list with the cancel-requested sentinel, so
        /// that handlers registered from now on run at once (rule 4).
        case closeHandlersAsCancelled
        /// The promise was fulfilled or rejected: close the list with the resolved sentinel,
        /// so that handlers registered from now on never run (rule 4).
        case closeHandlersAsResolved
    }

    /// What the caller of `requestCancel` must do.
    enum CancelRequestAction: Equatable {
        /// The first request while pending: run the cancel handlers, then tell the upstream.
        case runHandlers
        /// Already requested, or already resolving or resolved (rule 3): nothing.
        case none
    }

    /// What the caller must do after a propagation-related transition is published.
    enum PropagationAction: Equatable {
        /// Nothing.
        case none
        /// Every observer asked to cancel and no handle is left: request cancel of this promise.
        case requestCancel
    }

    // MARK: Transitions

    /// Marks the upstream link of this promise as one that only counts as an observer
    /// of its upstream once this promise is asked to cancel (`onCancel`, rule 7).
    mutating func setLinkCountsOnlyOnCancel() { raw |= Self.linkOnCancelBit }

    /// Pre-seals the promise: handles do not block propagation (`propagatingCancellation`, rule 8).
    mutating func preseal() { raw |= Self.sealedBit }

    /// pending → resolving. Nothing if a result was already claimed (first wins, rule 2).
    /// Cancelling sets the cancel-requested bit, fulfilling or rejecting clears it, so that
    /// the bit alone answers `hasRequestedCancel` (rule 3) and tells a cancelled promise,
    /// whose new cancel handlers still run, from a fulfilled or rejected one (rule 4).
    @inline(__always)
    mutating func claim(cancelling: Bool) -> ClaimAction {
        guard !isResolvingOrResolved else { return .alreadyClaimed }
        raw = (raw & ~(Self.phaseMask | Self.cancelRequestedBit)) | Phase.resolving.rawValue
        if cancelling { raw |= Self.cancelRequestedBit }
        return .writeResult
    }

    /// resolving → resolved. Only the claimant calls this, after writing the result.
    /// `PromiseCore.publish` applies it as one atomic add of `publishIncrement` (no other
    /// transition changes a resolving word) and checks in debug builds that the add gave
    /// what this transition gives.
    @inline(__always)
    mutating func publish() -> PublishAction {
        assert(raw & Self.phaseMask == Phase.resolving.rawValue, "Tomorrowland: publish without claim")
        raw = (raw & ~Self.phaseMask) | Phase.resolved.rawValue
        return isCancelRequested ? .closeHandlersAsCancelled : .closeHandlersAsResolved
    }

    /// What `publish()` adds to the raw word: resolving (1) → resolved (2) in the phase bits.
    @inline(__always)
    static var publishIncrement: UInt64 { Phase.resolved.rawValue - Phase.resolving.rawValue }

    /// pending → pending+cancelRequested. Nothing if already requested or already
    /// resolving/resolved: a request on a resolved promise does nothing (rule 3).
    @inline(__always)
    mutating func requestCancel() -> CancelRequestAction {
        guard !isResolvingOrResolved, !isCancelRequested else { return .none }
        raw |= Self.cancelRequestedBit
        return .runHandlers
    }

    /// A propagating observer (child, pipe, awaiting task) registered.
    @usableFromInline
    mutating func addObserver() {
        precondition(observers < Self.countMask, "Tomorrowland: too many observers on one promise")
        raw += 1 << Self.observerShift
    }

    /// A registered observer requested cancellation. With `ignoringHandles`, the caller
    /// vouches that the only handles left belong to itself (an awaiting Task).
    /// The waiver is sticky: a later request from another observer does not wait for handles.
    mutating func observerRequestedCancel(ignoringHandles: Bool = false) -> PropagationAction {
        raw += 1 << Self.cancelledShift
        if ignoringHandles { raw |= Self.handlesWaivedBit }
        return checkPropagation()
    }

    /// An `onCancel` child was asked to cancel: it now counts as one observer that has
    /// requested cancellation (rule 7).
    mutating func addCancelledObserver() -> PropagationAction {
        precondition(observers < Self.countMask, "Tomorrowland: too many observers on one promise")
        raw += (1 << Self.observerShift) + (1 << Self.cancelledShift)
        return checkPropagation()
    }

    /// The last `Promise` handle went away.
    mutating func seal() -> PropagationAction {
        raw |= Self.sealedBit
        return checkPropagation()
    }

    private mutating func checkPropagation() -> PropagationAction {
        guard !isResolvingOrResolved, !hasPropagated, isSealed || areHandlesWaived,
              observers > 0, cancelledObservers >= observers else { return .none }
        raw |= Self.propagatedBit
        return .requestCancel
    }

    // MARK: The upstream link (rules 5 and 27)

    /// What `PromiseCore.linkUpstream` must do once the link to the upstream is stored.
    enum LinkAction: Equatable {
        /// Pending and not asked to cancel: keep the link until a cancel request or resolution.
        case keep
        /// Already resolving or resolved: resolution may have passed the link by, so drop it.
        case drop
        /// Already asked to cancel: pass the request on to the upstream at once.
        case passCancelRequestOn
    }

    /// The link to the upstream was stored while the word reads `self`.
    @inline(__always)
    func linkStored() -> LinkAction {
        if isResolvingOrResolved { return .drop }
        return isCancelRequested ? .passCancelRequestOn : .keep
    }

    // MARK: Keepers (rule 1)

    /// What the caller of `PromiseCore.releaseKeeper` must do.
    enum KeeperAction: Equatable {
        /// Something can still resolve the promise, or it already resolved: nothing.
        case none
        /// The last keeper is gone while the promise is pending: nothing can resolve it any
        /// more, so resolve it as cancelled (rule 1).
        case resolveCancelled
    }

    /// A keeper went away, leaving `remaining`. `state` is read only if none remains.
    @inline(__always)
    static func keeperReleased(remaining: Int, state: () -> PromiseState) -> KeeperAction {
        remaining == 0 && !state().isResolvingOrResolved ? .resolveCancelled : .none
    }

    // MARK: Invariants (checked in debug builds)

    /// Why `self` cannot follow `old` (or cannot exist at all, with `old == nil`); `nil` if it
    /// can. `PromiseCore` asserts this after every transition it applies, so it costs
    /// nothing in release builds.
    func invariantViolation(after old: PromiseState? = nil) -> String? {
        if raw & Self.phaseMask == Self.phaseMask { return "no such phase" }
        if raw & Self.spareBit != 0 { return "the spare bit is set" }
        if hasPropagated && (observers == 0 || !(isSealed || areHandlesWaived)) {
            return "propagated without an observer, or while handles could block it"
        }
        guard let old else { return nil }
        let phase = raw & Self.phaseMask, oldPhase = old.raw & Self.phaseMask
        if phase < oldPhase { return "the phase went back" }
        if observers < old.observers || cancelledObservers < old.cancelledObservers { return "a count went down" }
        if (old.isSealed && !isSealed) || (old.hasPropagated && !hasPropagated)
            || (old.areHandlesWaived && !areHandlesWaived) || (old.linkCountsOnlyOnCancel && !linkCountsOnlyOnCancel) {
            return "a sticky bit was cleared"
        }
        if old.isResolvingOrResolved && old.isCancelRequested != isCancelRequested {
            return "a claimed promise changed how it resolves"
        }
        if !old.isResolvingOrResolved && !isResolvingOrResolved && old.isCancelRequested && !isCancelRequested {
            return "a pending cancel request was withdrawn"
        }
        return nil
    }

    /// Whether `self` can follow `old`; if not, stops a debug build saying why. Only called
    /// inside `assert`, so release builds never evaluate it.
    @usableFromInline
    func isValid(after old: PromiseState) -> Bool {
        guard let violation = invariantViolation(after: old) else { return true }
        assertionFailure("Tomorrowland: \(violation): \(String(old.raw, radix: 16)) -> \(String(raw, radix: 16))")
        return false
    }
}

// MARK: - The two lists

/// The head of one of a promise's two intrusive lists, as a value: `nil` (empty), the last
/// node pushed (a Treiber stack of retained nodes, in reverse registration order), or a
/// sentinel (`Sentinel`) that closes the list to new nodes for good.
///
/// The callback list is open until the promise resolves, then holds `Sentinel.resolvedRef`.
/// The cancel-handler list is closed by the first cancel request (`Sentinel.cancelRequestedRef`)
/// or by resolution: `Sentinel.resolvedRef` if the promise was fulfilled or rejected,
/// `Sentinel.cancelRequestedRef` if it was cancelled (rule 4: a handler registered after
/// cancellation still runs at once).
struct ListHead {
    var node: Unmanaged<PromiseNode>?

    @inline(__always) init(_ node: Unmanaged<PromiseNode>?) { self.node = node }

    /// What the caller of `registerCallback` must do.
    enum CallbackRegistration {
        /// The node is in the list; it fires when the promise resolves.
        case pushed
        /// The promise already resolved: the registrant fires the node itself, at once.
        case fireNow
    }

    /// What the caller of `registerCancelHandler` must do.
    enum HandlerRegistration {
        /// The node is in the list; it runs on a cancel request, or is dropped on resolution.
        case pushed
        /// Cancel was already requested, or the promise was cancelled: run it at once (rule 4).
        case runNow
        /// The promise was fulfilled or rejected: drop it unrun (rule 4).
        case drop
    }

    /// Pushes `node` (retained by the caller for the list) unless the list is closed.
    @inline(__always)
    mutating func registerCallback(_ node: Unmanaged<PromiseNode>) -> CallbackRegistration {
        if Sentinel.isResolved(self.node) { return .fireNow }
        push(node)
        return .pushed
    }

    /// Pushes a cancel handler (retained by the caller for the list) unless the list is closed.
    @inline(__always)
    mutating func registerCancelHandler(_ node: Unmanaged<PromiseNode>) -> HandlerRegistration {
        if Sentinel.isResolved(self.node) { return .drop }
        if Sentinel.isCancelRequested(self.node) { return .runNow }
        push(node)
        return .pushed
    }

    /// Makes `node` the head, linked to the old one. Writes `node.next`, which no other
    /// thread reads until the push is published.
    @inline(__always)
    private mutating func push(_ node: Unmanaged<PromiseNode>) {
        let head = self.node
        node._withUnsafeGuaranteedRef { $0.next = head }
        self.node = node
    }

    /// The first cancel request closes the cancel-handler list: handlers registered from now
    /// on run at once. Returns the handlers to run (in reverse registration order); `nil` if
    /// the list was already closed or empty.
    @inline(__always)
    mutating func takeForCancelRequest() -> Unmanaged<PromiseNode>? {
        if Sentinel.isSentinel(node) { return nil }
        let taken = node
        node = Sentinel.cancelRequestedRef
        return taken
    }

    /// Whether `self` can follow `old`: a closed list never changes again, except that
    /// resolution (`closedCancelHandlers`) replaces the cancel-requested sentinel. Checked in
    /// debug builds only (`PromiseCore` calls it inside `assert`).
    func isValid(after old: ListHead) -> Bool {
        !Sentinel.isSentinel(old.node) || old.node?.toOpaque() == node?.toOpaque()
    }

    /// The head resolution leaves in the callback list, whatever it held.
    @inline(__always)
    static var closedCallbacks: ListHead { ListHead(Sentinel.resolvedRef) }

    /// The head resolution leaves in the cancel-handler list, whatever it held.
    @inline(__always)
    static func closedCancelHandlers(_ action: PromiseState.PublishAction) -> ListHead {
        ListHead(action == .closeHandlersAsCancelled ? Sentinel.cancelRequestedRef : Sentinel.resolvedRef)
    }
}
