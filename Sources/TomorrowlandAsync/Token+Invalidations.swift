// Invalidation tokens in Swift concurrency: `token.invalidations` and
// `Task.requestCancelOnInvalidate(_:)`.

extension PromiseInvalidationToken {
    /// The token's invalidations as an `AsyncSequence` of `Void`, which never throws.
    ///
    /// ```swift
    /// for await _ in token.invalidations { reload() }
    /// ```
    ///
    /// - Each iterator yields once per `invalidate()` made after the iterator was created
    ///   (including invalidations passed on by `chainInvalidation(from:)`, and the one made
    ///   by releasing a token created with `invalidateOnDeinit: true`). Invalidations that
    ///   happen while the consumer is busy are coalesced into one element. Several
    ///   iterators each see every invalidation.
    /// - The sequence does not keep the token alive. An iterator finishes (returns `nil`)
    ///   when the token's last copy is released.
    /// - **Cancellation:** when the consuming Task is cancelled, `next()` returns `nil` at
    ///   once and the iterator unregisters itself from the token; a dropped iterator also
    ///   unregisters, so a token never accumulates dead entries.
    /// - **Isolation:** `next()` runs on the consumer's isolation (no hop off its actor).
    public var invalidations: Invalidations {
        Invalidations(token: _weakReference)
    }

    /// An `AsyncSequence` of a token's invalidations; see `PromiseInvalidationToken.invalidations`.
    public struct Invalidations: AsyncSequence, Sendable {
        /// One element per invalidation (coalesced while the consumer is busy).
        public typealias Element = Void
        /// The sequence never throws.
        public typealias Failure = Never

        let token: TokenHandleReference

        /// Creates an iterator; it sees the invalidations made from now on.
        public func makeAsyncIterator() -> Iterator {
            Iterator(observer: TokenInvalidationObserver(token: token))
        }

        /// Iterates a token's invalidations. Use one iterator from one Task at a time.
        public struct Iterator: AsyncIteratorProtocol {
            /// One element per invalidation (coalesced while the consumer is busy).
            public typealias Element = Void
            /// The iterator never throws.
            public typealias Failure = Never

            let observer: TokenInvalidationObserver

            /// The next invalidation, or `nil` once the token is released or the Task is
            /// cancelled. Runs on the caller's isolation.
            public nonisolated(nonsending) mutating func next() async -> Void? {
                await observer.next() ? () : nil
            }

            /// The next invalidation, or `nil` once the token is released or the Task is
            /// cancelled. Runs on `actor`'s isolation.
            public mutating func next(isolation actor: isolated (any Actor)?) async -> Void? {
                await observer.next() ? () : nil
            }
        }
    }

    /// The number of live iterators registered with this token (tests use it to check that
    /// cancelled or dropped iterators leave nothing behind).
    package var _invalidationObserverCount: Int {
        _weakReference.observerCount
    }
}

@available(*, unavailable)
extension PromiseInvalidationToken.Invalidations.Iterator: Sendable {}

extension Task {
    /// Cancels this task the next time `token` is invalidated (mirrors
    /// `Promise.requestCancelOnInvalidate(_:)`). Returns `self`.
    ///
    /// The token holds the task handle until it is invalidated or released (it does not
    /// keep the token alive). `cancelWithoutInvalidating()` does not cancel the task.
    /// Cancellation is cooperative, as with `Task.cancel()`.
    @discardableResult
    public func requestCancelOnInvalidate(_ token: PromiseInvalidationToken) -> Task<Success, Failure> {
        TokenInvalidationAction(token: token._weakReference) { self.cancel() }.register()
        return self
    }
}
