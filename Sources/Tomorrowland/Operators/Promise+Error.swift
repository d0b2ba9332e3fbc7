// Operators on the error: catch, recover, mapError, flatMapError and throwing variants.

extension Promise {
    /// Runs `onError` on `context` when the promise is rejected.
    ///
    /// Returns a promise with the same result. With an invalidated `token` the callback is
    /// skipped and the returned promise still takes this promise's result.
    @inlinable @discardableResult
    public func `catch`(on context: PromiseContext = .auto, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Void) -> Promise<Value, Error> {
        register(CatchBox(context: context, token: token, callback: onError))
    }

    /// Replaces an error with a value, giving a promise that cannot be rejected.
    public func recover(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Value) -> Promise<Value, NoError> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: onError.isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error): return .resolve(.value(unisolated(onError)(error)))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Transforms the error on `context`.
    public func mapError<E>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> E) -> Promise<Value, E> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: onError.isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error): return .resolve(.error(unisolated(onError)(error)))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Replaces an error with the eventual result of the promise `onError` returns.
    public func flatMapError<E>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Promise<Value, E>) -> Promise<Value, E> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: onError.isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error): return .adopt(unisolated(onError)(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Transforms the error with a throwing function; a thrown error becomes the new error.
    public func tryMapError<E: Swift.Error>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> E) -> Promise<Value, Swift.Error> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: onError.isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error):
                do { return .resolve(.error(try unisolated(onError)(error))) } catch { return .resolve(.error(error)) }
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Replaces an error with the eventual result of the promise a throwing `onError` returns.
    public func tryFlatMapError<E: Swift.Error>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> Promise<Value, E>) -> Promise<Value, Swift.Error> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: onError.isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error):
                do { return .adopt(try unisolated(onError)(error).upcast) } catch { return .resolve(.error(error)) }
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}

extension Promise where Error == Swift.Error {
    /// Replaces an error with a value; a thrown error rejects the returned promise.
    public func tryRecover(on context: PromiseContext, token: PromiseInvalidationToken? = nil, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> Value) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: onError.isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error):
                do { return .resolve(.value(try unisolated(onError)(error))) } catch { return .resolve(.error(error)) }
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}

/// `catch`: calls the callback with the error and passes the result through.
@usableFromInline
final class CatchBox<Value, Error>: ChildBox<Value, Error, Value, Error, StoredVoidCallback<Error>>, @unchecked Sendable {
    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (Error) -> Void) {
        super.init(context: context, token: token, trigger: .error, kind: .observer, isolation: callback.isolation, callback: StoredVoidCallback(isolated: callback)) { child, upstream, phase in
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
