// PromiseState: every state and transition of a promise, in one place.
//
// Start reading here. A promise's mutable state (apart from its result and its two
// intrusive lists, see `PromiseCore`) is one 64-bit word. This file is the pure
// value-type view of that word: each event is a `mutating func` that returns what the
// caller must do *after* the word has been published with a compare-exchange. Nothing
// here runs user code, takes a lock or touches memory other than the word itself, so
// `PromiseCore.update(_:)` can retry a failed compare-exchange by re-running the pure
// transition on the fresh value.
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
// ```

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
    private static let observerShift: UInt64 = 8
    private static let cancelledShift: UInt64 = 36
    private static let countMask: UInt64 = (1 << 28) - 1

    /// A fresh pending promise with no observers, not sealed.
    static let initial = PromiseState(raw: 0)

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

    /// pending → resolving. Returns `false` if a result was already claimed (first wins, rule 2).
    /// Cancelling sets the cancel-requested bit, fulfilling or rejecting clears it, so that
    /// the bit alone answers `hasRequestedCancel` (rule 3) and tells a cancelled promise,
    /// whose new cancel handlers still run, from a fulfilled or rejected one (rule 4).
    mutating func claim(cancelling: Bool) -> Bool {
        guard !isResolvingOrResolved else { return false }
        raw = (raw & ~(Self.phaseMask | Self.cancelRequestedBit)) | Phase.resolving.rawValue
        if cancelling { raw |= Self.cancelRequestedBit }
        return true
    }

    /// resolving → resolved. Only the claimant calls this, after writing the result.
    /// `PromiseCore.publish` applies it as one atomic add of `publishIncrement` (no other
    /// transition can run while the promise is resolving) and checks in debug builds that
    /// the add gave what this transition gives.
    mutating func publish() {
        assert(raw & Self.phaseMask == Phase.resolving.rawValue, "Tomorrowland: publish without claim")
        raw = (raw & ~Self.phaseMask) | Phase.resolved.rawValue
    }

    /// What `publish()` adds to the raw word: resolving (1) → resolved (2) in the phase bits.
    @inline(__always)
    static var publishIncrement: UInt64 { Phase.resolved.rawValue - Phase.resolving.rawValue }

    /// pending → pending+cancelRequested. Returns `false` if already requested or already
    /// resolving/resolved: a request on a resolved promise does nothing (rule 3).
    mutating func requestCancel() -> Bool {
        guard !isResolvingOrResolved, !isCancelRequested else { return false }
        raw |= Self.cancelRequestedBit
        return true
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
}
