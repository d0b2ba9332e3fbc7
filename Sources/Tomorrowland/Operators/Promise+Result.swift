// tap() and the box of always and tap(on:). The public operators on the whole result (always,
// mapResult, flatMapResult, their throwing variants, tap(on:), onCancel) are generated into
// Generated/Promise+Callbacks.swift from the callback API table
// (Generator/Sources/CallbackAPI/Table.swift).

extension Promise {
    /// Returns a new promise with the same result that is not an observer of this one: it
    /// neither blocks nor triggers cancellation propagation, and cancel requests on it are
    /// not passed on.
    ///
    /// - Returns: A promise that takes this promise's result (rule 7).
    public func tap() -> Promise<Value, Error> {
        registerPassthrough(link: .none)
    }
}

/// `always` and `tap(on:)`: calls the callback with the result and passes it through.
@usableFromInline
final class AlwaysBox<Value, Error>: ChildBox<Value, Error, Value, Error, StoredVoidCallback<PromiseResult<Value, Error>>>, @unchecked Sendable {
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        callback: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void
    ) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredVoidCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        nonisolated callback: @escaping @Sendable (PromiseResult<Value, Error>) -> Void
    ) {
        self.init(context: context, token: token, isolation: nil, stored: StoredVoidCallback(callback))
    }

    /// A main-actor callback (`.main`): stored without its `@MainActor`, run only on the main actor.
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        mainActor callback: @escaping @MainActor @Sendable (PromiseResult<Value, Error>) -> Void
    ) {
        self.init(context: context, token: token, isolation: MainActor.shared, stored: StoredVoidCallback(mainActor: callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredVoidCallback<PromiseResult<Value, Error>>) {
        super.init(context: context, token: token, trigger: .all, kind: .observer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: AlwaysBox<Value, Error>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        callback(result)
        return .resolve(result)
    }
}
