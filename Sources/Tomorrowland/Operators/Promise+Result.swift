// Operators on the whole result: always, mapResult, flatMapResult and throwing variants.

extension Promise {
    /// Runs `onComplete` on `context` with the result, whatever it is (including cancelled).
    ///
    /// Returns a promise with the same result, resolved after `onComplete` returns.
    @inlinable @discardableResult
    public func always(on context: PromiseContext = .auto, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void) -> Promise<Value, Error> {
        register(AlwaysBox(context: context, token: token, callback: onComplete))
    }

    /// Transforms the result, whatever it is.
    public func mapResult<T, E>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> PromiseResult<T, E>) -> Promise<T, E> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: onComplete.isolation) { result in
            .resolve(unisolated(onComplete)(result))
        }
    }

    /// Replaces the result with the eventual result of the promise `onComplete` returns.
    public func flatMapResult<T, E>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Promise<T, E>) -> Promise<T, E> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: onComplete.isolation) { result in
            .adopt(unisolated(onComplete)(result))
        }
    }

    /// Transforms the result with a throwing function; a thrown error rejects.
    public func tryMapResult<T, E: Swift.Error>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) throws -> PromiseResult<T, E>) -> Promise<T, Swift.Error> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: onComplete.isolation) { result in
            do { return .resolve(try unisolated(onComplete)(result).mapError { $0 as Swift.Error }) } catch { return .resolve(.error(error)) }
        }
    }

    /// Replaces the result with the eventual result of the promise a throwing `onComplete`
    /// returns; a thrown error rejects.
    public func tryFlatMapResult<T, E: Swift.Error>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) throws -> Promise<T, E>) -> Promise<T, Swift.Error> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: onComplete.isolation) { result in
            do { return .adopt(try unisolated(onComplete)(result).upcast) } catch { return .resolve(.error(error)) }
        }
    }

    /// Runs `onComplete` with the result without taking part in cancellation propagation.
    ///
    /// Returns **this** promise (not a child), so it can be inserted into a chain without
    /// affecting it. With an invalidated `token` the callback is skipped.
    @inlinable @discardableResult
    public func tap(on context: PromiseContext = .auto, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void) -> Promise<Value, Error> {
        _box.register(AlwaysBox(context: context, token: token, callback: onComplete))
        return self
    }

    /// Returns a new promise with the same result that is not an observer of this one: it
    /// neither blocks nor triggers cancellation propagation, and cancel requests on it are
    /// not passed on.
    public func tap() -> Promise<Value, Error> {
        registerPassthrough(link: .none)
    }

    /// Runs `onCancel` on `context` if the promise is cancelled.
    ///
    /// Returns a promise with the same result. It does not block propagation when this
    /// promise has other children; if it is asked to cancel it counts as one child that has
    /// requested cancellation (rule 7).
    @discardableResult
    public func onCancel(on context: PromiseContext = .auto, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onCancel: @escaping @isolated(any) @Sendable () -> Void) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .cancelled, kind: .observer, link: .onlyWhenCancelled, isolation: onCancel.isolation) { result in
            if case .cancelled = result { unisolated(onCancel)() }
            return .resolve(result)
        }
    }
}

/// `always` and `tap(on:)`: calls the callback with the result and passes it through.
@usableFromInline
final class AlwaysBox<Value, Error>: ChildBox<Value, Error, Value, Error, StoredVoidCallback<PromiseResult<Value, Error>>>, @unchecked Sendable {
    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void) {
        super.init(context: context, token: token, trigger: .all, kind: .observer, isolation: callback.isolation, callback: StoredVoidCallback(isolated: callback)) { child, upstream, phase in
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
