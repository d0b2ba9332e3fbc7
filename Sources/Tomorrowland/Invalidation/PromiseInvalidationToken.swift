// PromiseInvalidationToken: suppresses callbacks and requests cancellation in bulk.

import Synchronization

/// A token that suppresses callbacks registered with it, and requests cancellation of the
/// promises registered with `requestCancelOnInvalidate(_:)`.
///
/// A callback registered with a token is skipped if the token was invalidated between
/// registration and the moment the callback would run (tokens are checked then, not at
/// registration). An observer callback (`then`, `catch`, `always`, `tap`, `onCancel`) is
/// skipped and its promise still takes the parent's result; a transforming callback
/// (`map`, `flatMap`, `recover`, …) is skipped and its promise is cancelled.
///
/// `invalidate()` affects only callbacks registered before it, so a token can be reused.
/// Copies share one identity. Callbacks do not keep a token alive: with
/// `invalidateOnDeinit: true` (the default), releasing the last copy invalidates it.
///
/// Thread-safe: any method may be called from any thread at any time. No lock is held while
/// cancel requests or chained invalidations run.
public struct PromiseInvalidationToken: CustomStringConvertible, CustomDebugStringConvertible, Hashable, Sendable {
    @usableFromInline let handle: TokenHandle

    @usableFromInline var box: TokenBox { handle.box }

    /// Creates a token.
    /// - Parameter invalidateOnDeinit: invalidate the token when its last copy is released.
    public init(invalidateOnDeinit: Bool = true) {
        handle = TokenHandle(invalidateOnDeinit: invalidateOnDeinit)
    }

    /// Invalidates the token: suppresses every callback registered with it so far, requests
    /// cancellation of every promise registered with `requestCancelOnInvalidate(_:)` (and
    /// forgets them), and invalidates every token chained from this one.
    public func invalidate() {
        box.invalidate()
    }

    /// Requests cancellation of the registered promises (and forgets them) without
    /// suppressing any callback; passed on to chained tokens that asked for it.
    public func cancelWithoutInvalidating() {
        box.cancelWithoutInvalidating()
    }

    /// Requests cancellation of `promise` the next time this token is invalidated (or
    /// `cancelWithoutInvalidating()` is called). The promise is held weakly.
    public func requestCancelOnInvalidate<V, E>(_ promise: Promise<V, E>) {
        box.requestCancelOnInvalidate(promise._box)
    }

    /// Invalidates this token whenever `token` is invalidated, forever.
    ///
    /// Neither token retains the other; chaining a token from itself does nothing.
    ///
    /// - Parameters:
    ///   - token: The token whose invalidations are passed on to this one.
    ///   - includingCancelWithoutInvalidating: Also pass on `token`'s
    ///     `cancelWithoutInvalidating()`.
    public func chainInvalidation(from token: PromiseInvalidationToken, includingCancelWithoutInvalidating: Bool = true) {
        guard token.box !== box else { return }
        token.box.chain(box, includingCancelWithoutInvalidating: includingCancelWithoutInvalidating)
    }

    /// A short description of the token.
    public var description: String {
        "PromiseInvalidationToken(\(ObjectIdentifier(box)))"
    }

    /// A description including the number of registered promises and chained tokens, in the
    /// form `callbackLinkedList=(N nodes)` and `tokenChainLinkedList=(N nodes)`.
    public var debugDescription: String {
        let (promises, tokens) = box.counts
        func nodes(_ n: Int) -> String { "(\(n) node\(n == 1 ? "" : "s"))" }
        return "<PromiseInvalidationToken: \(ObjectIdentifier(box)); callbackLinkedList=\(nodes(promises)) tokenChainLinkedList=\(nodes(tokens))>"
    }

    /// Tokens are equal when they are copies of the same token.
    public static func == (lhs: PromiseInvalidationToken, rhs: PromiseInvalidationToken) -> Bool {
        lhs.box === rhs.box
    }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(box))
    }
}

extension PromiseInvalidationToken {
    /// The token from now on: `isValid` stays true until the token is next invalidated.
    ///
    /// A callback registered with a token records this at registration and checks it when it
    /// would run. Straight-line async code keeps the same rule with it: take the validity where
    /// the chain registered its callbacks, and check it where each would have run.
    ///
    /// ```swift
    /// // 1.x: fetchStatus(id).map(on: .utility, token: token) { decode($0) }
    /// let validity = token.validity()
    /// let body = try await fetchStatus(id)
    /// guard validity.isValid else { throw CancellationError() } // skipped: the promise was cancelled
    /// return decode(body)
    /// ```
    ///
    /// Like the token's callbacks, it does not keep the token alive (releasing the token's last
    /// copy invalidates it, with `invalidateOnDeinit`), and only `invalidate()` counts (on this
    /// token, or one it is chained from), not `cancelWithoutInvalidating()`.
    public func validity() -> Validity {
        Validity(box: box, generation: box.currentGeneration)
    }

    /// Whether a token was invalidated since `PromiseInvalidationToken.validity()` was called.
    public struct Validity: Sendable {
        let box: TokenBox
        let generation: UInt

        /// False once the token has been invalidated since the validity was taken.
        public var isValid: Bool {
            box.currentGeneration == generation
        }
    }
}

/// Shared by all copies of one token; invalidates on deinit if asked to.
@usableFromInline
final class TokenHandle: Sendable {
    @usableFromInline let box = TokenBox()
    let invalidateOnDeinit: Bool

    init(invalidateOnDeinit: Bool) {
        self.invalidateOnDeinit = invalidateOnDeinit
    }

    deinit {
        if invalidateOnDeinit { box.invalidate() }
        box.notifyTokenReleased()
    }
}

/// The state of a token that callbacks hold: a generation counter (bumped by each
/// invalidation) and the weak lists behind `requestCancelOnInvalidate` and chaining.
@usableFromInline
final class TokenBox: Sendable {
    private struct WeakPromise {
        weak var core: PromiseCore?
    }

    private struct WeakToken {
        weak var box: TokenBox?
        let includingCancel: Bool
    }

    private struct Lists {
        /// Newest last ("head" of 1.x's linked list is the end of the array).
        var promises: [WeakPromise] = []
        var chained: [WeakToken] = []
    }

    private let generation = SharedAtomic<UInt>(0, "token.generation")
    private let lists = Locked(Lists())

    /// The generation a callback records at registration and compares when it would run.
    @usableFromInline
    var currentGeneration: UInt {
        // Acquiring: pairs with the invalidation's add, so a callback that sees the new
        // generation also sees what the invalidating thread did before it.
        return generation.load(ordering: .acquiring)
    }

    var counts: (Int, Int) {
        lists.withLock { ($0.promises.count, $0.chained.count) }
    }

    func invalidate() {
        walkChain(invalidating: true)
    }

    func cancelWithoutInvalidating() {
        walkChain(invalidating: false)
    }

    /// Visits this token and the tokens chained from it depth-first, each at most once, with
    /// an explicit stack: chains of any length, and cycles (`a` chained from `b` and `b` from
    /// `a`), neither recurse nor loop forever.
    private func walkChain(invalidating: Bool) {
        var stack: [TokenBox] = [self]
        var visited: Set<ObjectIdentifier> = []
        while let box = stack.popLast() {
            guard visited.insert(ObjectIdentifier(box)).inserted else { continue }
            // Acquiring and releasing: ordered with the generation loads of callbacks (above).
            if invalidating { box.generation.wrappingAdd(1, ordering: .acquiringAndReleasing) }
            let (promises, chained) = box.takeForCancel()
            promises.forEach { $0.requestCancel() }
            if invalidating { box.notifyInvalidationObservers() }
            for token in chained.reversed() where invalidating || token.includingCancel {
                stack.append(token.box)
            }
        }
    }

    /// Takes the promise list and a snapshot of the live chained tokens.
    private func takeForCancel() -> ([PromiseCore], [(box: TokenBox, includingCancel: Bool)]) {
        lists.withLock { lists in
            let promises = lists.promises.compactMap(\.core)
            lists.promises.removeAll()
            let chained = lists.chained.compactMap { entry in
                entry.box.map { (box: $0, includingCancel: entry.includingCancel) }
            }
            return (promises, chained)
        }
    }

    func requestCancelOnInvalidate(_ core: PromiseCore) {
        // The live entry that stops the pruning is handed out of the lock: if the strong
        // reference taken to check it turned out to be the last one, the promise's deinit
        // (which releases user values) must not run while the lock is held.
        let liveHead: PromiseCore? = lists.withLock { lists in
            // Prune dead entries from the head only, stopping at the first live one (rule 17).
            var live: PromiseCore?
            while let last = lists.promises.last {
                live = last.core
                if live != nil { break }
                lists.promises.removeLast()
            }
            lists.promises.append(WeakPromise(core: core))
            return live
        }
        withExtendedLifetime(liveHead) {}
    }

    func chain(_ child: TokenBox, includingCancelWithoutInvalidating: Bool) {
        lists.withLock { lists in
            while let last = lists.chained.last, last.box == nil { lists.chained.removeLast() }
            lists.chained.append(WeakToken(box: child, includingCancel: includingCancelWithoutInvalidating))
        }
    }
}
