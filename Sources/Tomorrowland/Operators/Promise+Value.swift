// Operators on the value: then, map, flatMap and their throwing variants.

extension Promise {
    /// Runs `onSuccess` on `context` when the promise is fulfilled.
    ///
    /// Returns a promise with the same result, resolved after `onSuccess` returns. A child
    /// for cancellation propagation. With an invalidated `token` the callback is skipped and
    /// the returned promise still takes this promise's result.
    @inlinable
    public func then(on context: PromiseContext = .auto, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> Void) -> Promise<Value, Error> {
        register(ThenBox(context: context, token: token, callback: onSuccess))
    }

    /// Transforms the value on `context`. Errors and cancellation pass through; with an
    /// invalidated `token` the returned promise is cancelled instead.
    @inlinable
    public func map<U>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> U) -> Promise<U, Error> {
        register(MapBox(context: context, token: token, callback: onSuccess))
    }

    /// Replaces the value with the eventual result of the promise `onSuccess` returns.
    ///
    /// The returned promise adopts that promise without a context hop and is its child for
    /// cancellation propagation (rule 27).
    @inlinable
    public func flatMap<U>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> Promise<U, Error>) -> Promise<U, Error> {
        register(FlatMapBox(context: context, token: token, callback: onSuccess))
    }
}

/// `then`: calls the callback with the value and passes the result through.
@usableFromInline
final class ThenBox<Value, Error>: ChildBox<Value, Error, Value, Error, StoredVoidCallback<Value>>, @unchecked Sendable {
    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (Value) -> Void) {
        super.init(context: context, token: token, trigger: .value, kind: .observer, isolation: callback.isolation, callback: StoredVoidCallback(isolated: callback)) { child, upstream, phase in
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
    init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (ParentValue) -> Value) {
        super.init(context: context, token: token, trigger: .value, kind: .transformer, isolation: callback.isolation, callback: StoredCallback(isolated: callback)) { child, upstream, phase in
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
final class FlatMapBox<ParentValue, Error, Value>: ChildBox<ParentValue, Error, Value, Error, StoredPromiseCallback<ParentValue, Value, Error>>, @unchecked Sendable {
    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (ParentValue) -> Promise<Value, Error>) {
        super.init(context: context, token: token, trigger: .value, kind: .transformer, isolation: callback.isolation, callback: StoredPromiseCallback(isolated: callback)) { child, upstream, phase in
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

extension Promise where Error == Swift.Error {
    /// Like `then`, but `onSuccess` may throw, rejecting the returned promise.
    public func tryThen(on context: PromiseContext = .auto, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> Void) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .value, kind: .observer, isolation: onSuccess.isolation) { result in
            if case .value(let value) = result {
                do { try unisolated(onSuccess)(value) } catch { return .resolve(.error(error)) }
            }
            return .resolve(result)
        }
    }

    /// Like `map`, but `onSuccess` may throw, rejecting the returned promise.
    public func tryMap<U>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> U) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer, isolation: onSuccess.isolation) { result in
            switch result {
            case .value(let value):
                do { return .resolve(.value(try unisolated(onSuccess)(value))) } catch { return .resolve(.error(error)) }
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Like `flatMap`, but `onSuccess` may throw, and the returned promise's error type is
    /// upcast to `Swift.Error`.
    public func tryFlatMap<U, E: Swift.Error>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> Promise<U, E>) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer, isolation: onSuccess.isolation) { result in
            switch result {
            case .value(let value):
                do { return .adopt(try unisolated(onSuccess)(value).upcast) } catch { return .resolve(.error(error)) }
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}
