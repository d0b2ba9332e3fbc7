// The boxes of the operators on the value: then, map and flatMap. The public operators (and their
// throwing variants) are generated into Generated/Promise+Callbacks.swift from the callback API
// table (Generator/Sources/CallbackAPI/Table.swift).

/// `then`: calls the callback with the value and passes the result through.
@usableFromInline
final class ThenBox<Value, Error>: ChildBox<Value, Error, Value, Error, StoredVoidCallback<Value>>, @unchecked Sendable {
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (Value) -> Void) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredVoidCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, nonisolated callback: @escaping @Sendable (Value) -> Void) {
        self.init(context: context, token: token, isolation: nil, stored: StoredVoidCallback(callback))
    }

    /// A main-actor callback (`.main`): stored without its `@MainActor`, run only on the main actor.
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, mainActor callback: @escaping @MainActor @Sendable (Value) -> Void) {
        self.init(context: context, token: token, isolation: MainActor.shared, stored: StoredVoidCallback(mainActor: callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredVoidCallback<Value>) {
        super.init(context: context, token: token, trigger: .value, kind: .observer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: ThenBox<Value, Error>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        if case .value(let value) = result { callback(value) }
        return .resolve(result)
    }
}

/// `map`: replaces the value with the callback's result.
@usableFromInline
final class MapBox<ParentValue, Error, Value>: ChildBox<ParentValue, Error, Value, Error, StoredCallback<ParentValue, Value>>, @unchecked Sendable {
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (ParentValue) -> Value) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, nonisolated callback: @escaping @Sendable (ParentValue) -> Value) {
        self.init(context: context, token: token, isolation: nil, stored: StoredCallback(callback))
    }

    /// A main-actor callback (`.main`): stored without its `@MainActor`, run only on the main actor.
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, mainActor callback: @escaping @MainActor @Sendable (ParentValue) -> Value) {
        self.init(context: context, token: token, isolation: MainActor.shared, stored: StoredCallback(mainActor: callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredCallback<ParentValue, Value>) {
        super.init(context: context, token: token, trigger: .value, kind: .transformer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: MapBox<ParentValue, Error, Value>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        switch result {
        case .value(let value): return .resolve(.value(callback(value)))
        case .error(let error): return .resolve(.error(error))
        case .cancelled: return .resolve(.cancelled)
        }
    }
}

/// `flatMap`: adopts the promise the callback returns.
@usableFromInline
final class FlatMapBox<ParentValue, Error, Value>:
    ChildBox<ParentValue, Error, Value, Error, StoredPromiseCallback<ParentValue, Value, Error>>, @unchecked Sendable
{
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        callback: @escaping @isolated(any) @Sendable (ParentValue) -> Promise<Value, Error>
    ) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredPromiseCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        nonisolated callback: @escaping @Sendable (ParentValue) -> Promise<Value, Error>
    ) {
        self.init(context: context, token: token, isolation: nil, stored: StoredPromiseCallback(callback))
    }

    /// A main-actor callback (`.main`): stored without its `@MainActor`, run only on the main actor.
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        mainActor callback: @escaping @MainActor @Sendable (ParentValue) -> Promise<Value, Error>
    ) {
        self.init(context: context, token: token, isolation: MainActor.shared, stored: StoredPromiseCallback(mainActor: callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredPromiseCallback<ParentValue, Value, Error>) {
        super.init(context: context, token: token, trigger: .value, kind: .transformer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: FlatMapBox<ParentValue, Error, Value>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        switch result {
        case .value(let value): return .adopt(callback(value))
        case .error(let error): return .resolve(.error(error))
        case .cancelled: return .resolve(.cancelled)
        }
    }
}

