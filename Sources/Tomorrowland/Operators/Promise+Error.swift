// The box of catch. The public operators on the error (catch, recover, mapError, flatMapError
// and their throwing variants) are generated into Generated/Promise+Callbacks.swift from the
// callback API table (Generator/Sources/CallbackAPI/Table.swift).

/// `catch`: calls the callback with the error and passes the result through.
@usableFromInline
final class CatchBox<Value, Error>: ChildBox<Value, Error, Value, Error, StoredVoidCallback<Error>>, @unchecked Sendable {
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (Error) -> Void) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredVoidCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, nonisolated callback: @escaping @Sendable (Error) -> Void) {
        self.init(context: context, token: token, isolation: nil, stored: StoredVoidCallback(callback))
    }

    /// A main-actor callback (`.main`): stored without its `@MainActor`, run only on the main actor.
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, mainActor callback: @escaping @MainActor @Sendable (Error) -> Void) {
        self.init(context: context, token: token, isolation: MainActor.shared, stored: StoredVoidCallback(mainActor: callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredVoidCallback<Error>) {
        super.init(context: context, token: token, trigger: .error, kind: .observer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: CatchBox<Value, Error>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        if case .error(let error) = result { callback(error) }
        return .resolve(result)
    }
}
