// Operators on the value: then, map, flatMap and their throwing variants.

extension Promise {
    /// Runs `onSuccess` on `context` when the promise is fulfilled.
    ///
    /// Returns a promise with the same result, resolved after `onSuccess` returns. A child
    /// for cancellation propagation. With an invalidated `token` the callback is skipped and
    /// the returned promise still takes this promise's result.
    public func then(on context: PromiseContext = .auto, token: PromiseInvalidationToken? = nil, _ onSuccess: @escaping @Sendable (Value) -> Void) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .value, kind: .observer) { result in
            if case .value(let value) = result { onSuccess(value) }
            return .resolve(result)
        }
    }

    /// Transforms the value on `context`. Errors and cancellation pass through; with an
    /// invalidated `token` the returned promise is cancelled instead.
    public func map<U>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, _ onSuccess: @escaping @Sendable (Value) -> U) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer) { result in
            switch result {
            case .value(let value): return .resolve(.value(onSuccess(value)))
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Replaces the value with the eventual result of the promise `onSuccess` returns.
    ///
    /// The returned promise adopts that promise without a context hop and is its child for
    /// cancellation propagation (rule 27).
    public func flatMap<U>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, _ onSuccess: @escaping @Sendable (Value) -> Promise<U, Error>) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer) { result in
            switch result {
            case .value(let value): return .adopt(onSuccess(value))
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}

extension Promise where Error == Swift.Error {
    /// Like `then`, but `onSuccess` may throw, rejecting the returned promise.
    public func tryThen(on context: PromiseContext = .auto, token: PromiseInvalidationToken? = nil, _ onSuccess: @escaping @Sendable (Value) throws -> Void) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .value, kind: .observer) { result in
            if case .value(let value) = result {
                do { try onSuccess(value) } catch { return .resolve(.error(error)) }
            }
            return .resolve(result)
        }
    }

    /// Like `map`, but `onSuccess` may throw, rejecting the returned promise.
    public func tryMap<U>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, _ onSuccess: @escaping @Sendable (Value) throws -> U) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer) { result in
            switch result {
            case .value(let value):
                do { return .resolve(.value(try onSuccess(value))) } catch { return .resolve(.error(error)) }
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Like `flatMap`, but `onSuccess` may throw, and the returned promise's error type is
    /// upcast to `Swift.Error`.
    public func tryFlatMap<U, E: Swift.Error>(on context: PromiseContext, token: PromiseInvalidationToken? = nil, _ onSuccess: @escaping @Sendable (Value) throws -> Promise<U, E>) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer) { result in
            switch result {
            case .value(let value):
                do { return .adopt(try onSuccess(value).upcast) } catch { return .resolve(.error(error)) }
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}
