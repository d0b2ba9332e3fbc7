// The callback API table: every public API that takes a context and a closure, one row each.
//
// `swift run --package-path Generator generate-callback-api` writes from these rows (see
// Render.swift): the four overloads of each row (caller-isolated, main actor, context value,
// named context) with their doc comments, in Sources/Tomorrowland/Generated/; a row's `with:` variant
// and `TokenPromise` forwarder; the migration tool's operator facts (with OtherOperators.swift); the
// placement tests' list of cases.
// To add an operator, add a row and its body here (the checklist is in
// Sources/Tomorrowland/Tomorrowland.docc/Internals.md, "Adding an operator").
//
// A row's `doc` is the caller-isolated overload's doc comment; the generator writes the other
// two overloads' comments. A `.helper` body becomes `_name(on:token:isolation:_:)`: it gets
// `context` (a `PromiseContext`), `token`, `isolation` (the actor the callback must run on,
// `nil`: anywhere) and the callback, nonisolated, and registers it. An `.inline` body is the
// overloads' own, with `{context}`, `{isolation}`, `{box}` and `{callback name}` filled in per
// overload (see `CallbackAPI.Body`).

/// Every API that takes a context and a closure.
public let callbackAPITable: [CallbackAPI] = [
    .op(
        "then",
        mark: "On the value: then, map, flatMap and their throwing variants",
        callback: "onSuccess",
        type: "(Value) -> Void",
        returns: "Promise<Value, Error>",
        defaultAuto: true,
        attributes: ["@inlinable"],
        doc: """
            Runs `onSuccess` on `context` when the promise is fulfilled.

            Returns a promise with the same result, resolved after `onSuccess` returns. A child
            for cancellation propagation. With an invalidated `token` the callback is skipped
            and the returned promise still takes this promise's result.

            - Parameters:
              {context}
              {token}
              - onSuccess: Called with the value; not called on rejection or cancellation.
                Released on `context` right after it runs, or when the promise resolves without
                calling it.
            - Returns: A new promise with this promise's result. Asking it to cancel counts as
              one child of this promise asking (rule 5).
            """,
        body: .inline("""
            register(ThenBox(context: {context}, token: token, {box}: onSuccess))
            """),
        weakOwner: .init(
            type: "(_ object: Object, _ value: Value) -> Void",
            doc: """
                Runs `onSuccess` on `context` with `object` and the value, if `object` is still alive.

                `object` is held weakly until the callback would run; the callback gets it strongly.
                If it was deallocated by then, the callback is skipped and the returned promise still
                takes this promise's result, like an invalidated token. Cancellation as `then(on:_:)`.

                ```swift
                loadFeed().then(on: .main, with: self) { owner, feed in owner.show(feed) }
                ```
                """,
            body: """
                register(on: context, token: token, trigger: .value, kind: .observer, isolation: isolation) { [weak object] result in
                    if case .value(let value) = result, let object { onSuccess(object, value) }
                    return .resolve(result)
                }
                """),
        tokenForwarder: .init(
            summary: """
                runs `onSuccess` on `context` when the promise is fulfilled, unless the token was invalidated \
                after this call.
                """,
            callback: "Called with the value.",
            returns: "A promise with this promise's result"),
        recognised: .byName,
        whenSkipped: .passesResult,
        placement: .init(on: "value", "_ in {record}")
    ),
    .op(
        "map",
        generics: ["U"],
        callback: "onSuccess",
        type: "(Value) -> U",
        returns: "Promise<U, Error>",
        attributes: ["@inlinable"],
        owned: true,
        doc: """
            Transforms the value on `context`. Errors and cancellation pass through; with an
            invalidated `token` the returned promise is cancelled instead.

            - Parameters:
              {context}
              {token}
              - onSuccess: Called with the value; what it returns fulfils the returned promise.
                Released on `context` right after it runs, or when the promise resolves without
                it.
            - Returns: A promise of the transformed value; a child of this promise for
              cancellation propagation (rule 5).
            """,
        body: .inline("""
            // Taken `__owned` and consumed: the closure's context moves into the box.
            register(MapBox(context: {context}, token: token, {box}: consume onSuccess))
            """),
        weakOwner: .init(
            type: "(_ object: Object, _ value: Value) -> U",
            doc: """
                Transforms the value on `context` with `object`, if `object` is still alive.

                If `object` was deallocated when the callback would run, the returned promise is
                cancelled, like an invalidated token. Errors and cancellation pass through.
                """,
            body: """
                register(on: context, token: token, trigger: .value, kind: .transformer, isolation: isolation) { [weak object] result in
                    switch result {
                    case .value(let value):
                        guard let object else { return .resolve(.cancelled) }
                        return .resolve(.value(onSuccess(object, value)))
                    case .error(let error): return .resolve(.error(error))
                    case .cancelled: return .resolve(.cancelled)
                    }
                }
                """),
        tokenForwarder: .init(
            summary: """
                transforms the value on `context`; if the token was invalidated after this call, the returned \
                promise is cancelled instead.
                """,
            callback: "Called with the value; what it returns fulfils the returned promise.",
            returns: "A promise of the transformed value"),
        recognised: .withContextArgument,
        whenSkipped: .cancels,
        placement: .init(on: "value", "x in {record}; return x")
    ),
    .op(
        "flatMap",
        generics: ["U"],
        callback: "onSuccess",
        type: "(Value) -> Promise<U, Error>",
        returns: "Promise<U, Error>",
        attributes: ["@inlinable"],
        doc: """
            Replaces the value with the eventual result of the promise `onSuccess` returns.

            The returned promise adopts that promise without a context hop and is its child for
            cancellation propagation (rule 27).

            - Parameters:
              {context}
              {token}
              - onSuccess: Called with the value; returns the promise to adopt. An error or
                cancellation of this promise passes through without calling it.
            - Returns: A promise of the adopted promise's result. Its cancel requests go to this
              promise until `onSuccess` has run, then to the adopted promise.
            """,
        body: .inline("""
            register(FlatMapBox(context: {context}, token: token, {box}: onSuccess))
            """),
        weakOwner: .init(
            type: "(_ object: Object, _ value: Value) -> Promise<U, Error>",
            doc: """
                Replaces the value with the eventual result of the promise `onSuccess` returns, if
                `object` is still alive; otherwise the returned promise is cancelled.

                The returned promise adopts the inner promise without a context hop (rule 27).
                """,
            body: """
                register(on: context, token: token, trigger: .value, kind: .transformer, isolation: isolation) { [weak object] result in
                    switch result {
                    case .value(let value):
                        guard let object else { return .resolve(.cancelled) }
                        return .adopt(onSuccess(object, value))
                    case .error(let error): return .resolve(.error(error))
                    case .cancelled: return .resolve(.cancelled)
                    }
                }
                """),
        tokenForwarder: .init(
            summary: """
                adopts the promise `onSuccess` returns; if the token was invalidated after this call, the \
                returned promise is cancelled instead.
                """,
            callback: "Called with the value; returns the promise to adopt.",
            returns: "A promise of the adopted promise's result"),
        recognised: .withContextArgument,
        whenSkipped: .cancels,
        placement: .init(on: "value", "x in {record}; return StdPromise(fulfilled: x)")
    ),
    .op(
        "tryThen",
        in: .stdPromise,
        callback: "onSuccess",
        type: "(Value) throws -> Void",
        returns: "Promise<Value, Error>",
        defaultAuto: true,
        doc: """
            Like `then`, but `onSuccess` may throw, rejecting the returned promise.

            - Parameters:
              {context}
              {token}
              - onSuccess: Called with the value; an error it throws rejects the returned
                promise.
            - Returns: A promise with this promise's result, or the thrown error; a child of
              this promise for cancellation propagation.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .value, kind: .observer, isolation: isolation) { result in
                if case .value(let value) = result {
                    do { try onSuccess(value) } catch { return .resolve(.error(error)) }
                }
                return .resolve(result)
            }
            """),
        tokenForwarder: .init(
            summary: """
                runs `onSuccess` on `context` when the promise is fulfilled, unless the token was invalidated \
                after this call; an error it throws rejects the returned promise.
                """,
            callback: "Called with the value; may throw.",
            returns: "A promise with this promise's result or the thrown error"),
        recognised: .byName,
        whenSkipped: .passesResult,
        placement: .init(on: "value", "_ in {record}")
    ),
    .op(
        "tryMap",
        in: .stdPromise,
        generics: ["U"],
        callback: "onSuccess",
        type: "(Value) throws -> U",
        returns: "Promise<U, Error>",
        doc: """
            Like `map`, but `onSuccess` may throw, rejecting the returned promise.

            - Parameters:
              {context}
              {token}
              - onSuccess: Called with the value; what it returns fulfils the returned promise,
                an error it throws rejects it. Errors and cancellation pass through without
                calling it.
            - Returns: A promise of the transformed value; a child of this promise for
              cancellation propagation.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .value, kind: .transformer, isolation: isolation) { result in
                switch result {
                case .value(let value):
                    do { return .resolve(.value(try onSuccess(value))) } catch { return .resolve(.error(error)) }
                case .error(let error): return .resolve(.error(error))
                case .cancelled: return .resolve(.cancelled)
                }
            }
            """),
        tokenForwarder: .init(
            summary: """
                transforms the value, or rejects with the error `onSuccess` throws; if the token was \
                invalidated after this call, the returned promise is cancelled instead.
                """,
            callback: "Called with the value; returns the new value, or throws.",
            returns: "A promise of the transformed value"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "value", "x in {record}; return x")
    ),
    .op(
        "tryFlatMap",
        in: .stdPromise,
        generics: ["U", "E: Swift.Error"],
        callback: "onSuccess",
        type: "(Value) throws -> Promise<U, E>",
        returns: "Promise<U, Error>",
        doc: """
            Like `flatMap`, but `onSuccess` may throw, and the returned promise's error type is
            upcast to `Swift.Error`.

            - Parameters:
              {context}
              {token}
              - onSuccess: Called with the value; returns the promise to adopt (without a
                context hop, rule 27), or throws to reject the returned promise.
            - Returns: A promise of the adopted promise's result, its error upcast to
              `Swift.Error`. Its cancel requests go to this promise until `onSuccess` has run,
              then to the adopted one.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .value, kind: .transformer, isolation: isolation) { result in
                switch result {
                case .value(let value):
                    do { return .adopt(try onSuccess(value).upcast) } catch { return .resolve(.error(error)) }
                case .error(let error): return .resolve(.error(error))
                case .cancelled: return .resolve(.cancelled)
                }
            }
            """),
        tokenForwarder: .init(
            summary: """
                adopts the promise `onSuccess` returns, or rejects with the error it throws; if the token was \
                invalidated after this call, the returned promise is cancelled instead.
                """,
            callback: "Called with the value; returns the promise to adopt, or throws.",
            returns: "A promise of the adopted promise's result"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "value", "x in {record}; return StdPromise(fulfilled: x)")
    ),
    .op(
        "catch",
        mark: "On the error: catch, recover, mapError, flatMapError and their throwing variants",
        callback: "onError",
        type: "(Error) -> Void",
        returns: "Promise<Value, Error>",
        defaultAuto: true,
        attributes: ["@inlinable", "@discardableResult"],
        doc: """
            Runs `onError` on `context` when the promise is rejected.

            Returns a promise with the same result. With an invalidated `token` the callback is
            skipped and the returned promise still takes this promise's result.

            - Parameters:
              {context}
              {token}
              - onError: Called with the error; not called on fulfilment or cancellation.
                Released on `context` right after it runs, or when the promise resolves without
                calling it.
            - Returns: A new promise with this promise's result, resolved after `onError`
              returns; a child of this promise for cancellation propagation (rule 5).
            """,
        body: .inline("""
            register(CatchBox(context: {context}, token: token, {box}: onError))
            """),
        weakOwner: .init(
            type: "(_ object: Object, _ error: Error) -> Void",
            doc: """
                Runs `onError` on `context` with `object` and the error, if `object` is still alive.

                Otherwise the callback is skipped; the returned promise takes this promise's result
                either way.
                """,
            body: """
                register(on: context, token: token, trigger: .error, kind: .observer, isolation: isolation) { [weak object] result in
                    if case .error(let error) = result, let object { onError(object, error) }
                    return .resolve(result)
                }
                """),
        tokenForwarder: .init(
            summary: """
                runs `onError` on `context` when the promise is rejected, unless the token was invalidated \
                after this call.
                """,
            callback: "Called with the error.",
            returns: "A promise with this promise's result"),
        recognised: .byName,
        whenSkipped: .passesResult,
        placement: .init(on: "error", "_ in {record}")
    ),
    .op(
        "recover",
        callback: "onError",
        type: "(Error) -> Value",
        returns: "Promise<Value, NoError>",
        doc: """
            Replaces an error with a value, giving a promise that cannot be rejected.

            - Parameters:
              {context}
              {token}
              - onError: Called with the error; what it returns fulfils the returned promise. A
                value or cancellation of this promise passes through without calling it.
            - Returns: A promise that is fulfilled or cancelled, never rejected; a child of this
              promise for cancellation propagation.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
                switch result {
                case .value(let value): return .resolve(.value(value))
                case .error(let error): return .resolve(.value(onError(error)))
                case .cancelled: return .resolve(.cancelled)
                }
            }
            """),
        weakOwner: .init(
            type: "(_ object: Object, _ error: Error) -> Value",
            doc: """
                Replaces an error with a value computed on `context` with `object`, if `object` is
                still alive; otherwise the returned promise is cancelled. Cancellation passes through.
                """,
            body: """
                register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { [weak object] result in
                    switch result {
                    case .value(let value): return .resolve(.value(value))
                    case .error(let error):
                        guard let object else { return .resolve(.cancelled) }
                        return .resolve(.value(onError(object, error)))
                    case .cancelled: return .resolve(.cancelled)
                    }
                }
                """),
        tokenForwarder: .init(
            summary: """
                replaces an error with a value; if the token was invalidated after this call, the returned \
                promise is cancelled instead.
                """,
            callback: "Called with the error; what it returns fulfils the returned promise.",
            returns: "A promise that cannot be rejected"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "error", "_ in {record}; return 0")
    ),
    .op(
        "mapError",
        generics: ["E"],
        callback: "onError",
        type: "(Error) -> E",
        returns: "Promise<Value, E>",
        doc: """
            Transforms the error on `context`. Values and cancellation pass through.

            - Parameters:
              {context}
              {token}
              - onError: Called with the error; what it returns rejects the returned promise.
            - Returns: A promise with this promise's value, or the transformed error; a child of
              this promise for cancellation propagation.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
                switch result {
                case .value(let value): return .resolve(.value(value))
                case .error(let error): return .resolve(.error(onError(error)))
                case .cancelled: return .resolve(.cancelled)
                }
            }
            """),
        tokenForwarder: .init(
            summary: """
                transforms the error on `context`; if the token was invalidated after this call, the returned \
                promise is cancelled instead.

                Tomorrowland 1.x forgot to pass the token here, so the callback ran even after invalidation; \
                this package passes it, like every other method.
                """,
            callback: "Called with the error; what it returns rejects the returned promise.",
            returns: "A promise with this promise's value or the transformed error"),
        recognised: .withContextArgument,
        whenSkipped: .cancels,
        placement: .init(on: "error", "_ -> PlacementError in {record}; return .failed")
    ),
    .op(
        "flatMapError",
        generics: ["E"],
        callback: "onError",
        type: "(Error) -> Promise<Value, E>",
        returns: "Promise<Value, E>",
        doc: """
            Replaces an error with the eventual result of the promise `onError` returns.

            - Parameters:
              {context}
              {token}
              - onError: Called with the error; returns the promise to adopt, without a context
                hop (rule 27). A value or cancellation of this promise passes through without
                calling it.
            - Returns: A promise with this promise's value, or the adopted promise's result. Its
              cancel requests go to this promise until `onError` has run, then to the adopted
              one.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
                switch result {
                case .value(let value): return .resolve(.value(value))
                case .error(let error): return .adopt(onError(error))
                case .cancelled: return .resolve(.cancelled)
                }
            }
            """),
        tokenForwarder: .init(
            summary: """
                replaces an error with the result of the promise `onError` returns; if the token was \
                invalidated after this call, the returned promise is cancelled instead.
                """,
            callback: "Called with the error; returns the promise to adopt.",
            returns: "A promise with this promise's value or the adopted promise's result"),
        recognised: .withContextArgument,
        whenSkipped: .cancels,
        placement: .init(on: "error", "_ -> Promise<Int, PlacementError> in {record}; return Promise(rejected: .failed)")
    ),
    .op(
        "tryMapError",
        generics: ["E: Swift.Error"],
        callback: "onError",
        type: "(Error) throws -> E",
        returns: "Promise<Value, Swift.Error>",
        doc: """
            Transforms the error with a throwing function; a thrown error becomes the new error.

            - Parameters:
              {context}
              {token}
              - onError: Called with the error; what it returns or throws rejects the returned
                promise. Values and cancellation pass through without calling it.
            - Returns: A promise with this promise's value, or the new error as `Swift.Error`; a
              child of this promise for cancellation propagation.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
                switch result {
                case .value(let value): return .resolve(.value(value))
                case .error(let error):
                    do { return .resolve(.error(try onError(error))) } catch { return .resolve(.error(error)) }
                case .cancelled: return .resolve(.cancelled)
                }
            }
            """),
        tokenForwarder: .init(
            summary: """
                what `onError` returns or throws becomes the error; if the token was invalidated after this \
                call, the returned promise is cancelled instead.
                """,
            callback: "Called with the error; returns or throws the new error.",
            returns: "A promise with this promise's value or the new error"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "error", "_ -> PlacementError in {record}; return .failed")
    ),
    .op(
        "tryFlatMapError",
        generics: ["E: Swift.Error"],
        callback: "onError",
        type: "(Error) throws -> Promise<Value, E>",
        returns: "Promise<Value, Swift.Error>",
        doc: """
            Replaces an error with the eventual result of the promise a throwing `onError`
            returns.

            - Parameters:
              {context}
              {token}
              - onError: Called with the error; returns the promise to adopt (without a context
                hop, rule 27), or throws to reject the returned promise.
            - Returns: A promise with this promise's value, or the adopted promise's result with
              its error upcast to `Swift.Error`. Its cancel requests go to this promise until
              `onError` has run, then to the adopted one.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
                switch result {
                case .value(let value): return .resolve(.value(value))
                case .error(let error):
                    do { return .adopt(try onError(error).upcast) } catch { return .resolve(.error(error)) }
                case .cancelled: return .resolve(.cancelled)
                }
            }
            """),
        tokenForwarder: .init(
            summary: """
                replaces an error with the result of the promise `onError` returns, or with the error it \
                throws; if the token was invalidated after this call, the returned promise is cancelled \
                instead.
                """,
            callback: "Called with the error; returns the promise to adopt, or throws.",
            returns: "A promise with this promise's value or the adopted promise's result"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "error", "_ -> Promise<Int, PlacementError> in {record}; return Promise(rejected: .failed)")
    ),
    .op(
        "tryRecover",
        in: .stdPromise,
        callback: "onError",
        type: "(Error) throws -> Value",
        returns: "Promise<Value, Error>",
        doc: """
            Replaces an error with a value; a thrown error rejects the returned promise.

            - Parameters:
              {context}
              {token}
              - onError: Called with the error; what it returns fulfils the returned promise, an
                error it throws rejects it. Values and cancellation pass through without calling
                it.
            - Returns: A promise with this promise's value, the recovered value, or the thrown
              error; a child of this promise for cancellation propagation.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
                switch result {
                case .value(let value): return .resolve(.value(value))
                case .error(let error):
                    do { return .resolve(.value(try onError(error))) } catch { return .resolve(.error(error)) }
                case .cancelled: return .resolve(.cancelled)
                }
            }
            """),
        tokenForwarder: .init(
            summary: """
                replaces an error with the value `onError` returns, or with the error it throws; if the token \
                was invalidated after this call, the returned promise is cancelled instead.
                """,
            callback: "Called with the error; returns a value, or throws.",
            returns: "A promise with this promise's value, the recovered value or the thrown error"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "error", "_ in {record}; return 0")
    ),
    .op(
        "always",
        mark: "On the whole result: always, mapResult, flatMapResult, their throwing variants, tap, onCancel",
        callback: "onComplete",
        type: "(PromiseResult<Value, Error>) -> Void",
        returns: "Promise<Value, Error>",
        defaultAuto: true,
        attributes: ["@inlinable", "@discardableResult"],
        doc: """
            Runs `onComplete` on `context` with the result, whatever it is (including
            cancelled).

            Returns a promise with the same result, resolved after `onComplete` returns.

            - Parameters:
              {context}
              {token}
              - onComplete: Called with the result. Released on `context` right after it runs.
            - Returns: A new promise with this promise's result; a child of this promise for
              cancellation propagation (rule 5).
            """,
        body: .inline("""
            register(AlwaysBox(context: {context}, token: token, {box}: onComplete))
            """),
        weakOwner: .init(
            type: "(_ object: Object, _ result: PromiseResult<Value, Error>) -> Void",
            doc: """
                Runs `onComplete` on `context` with `object` and the result (including cancellation),
                if `object` is still alive. The returned promise takes this promise's result.
                """,
            body: """
                register(on: context, token: token, trigger: .all, kind: .observer, isolation: isolation) { [weak object] result in
                    if let object { onComplete(object, result) }
                    return .resolve(result)
                }
                """),
        tokenForwarder: .init(
            summary: """
                runs `onComplete` on `context` with the result, whatever it is, unless the token was \
                invalidated after this call.
                """,
            callback: "Called with the result.",
            returns: "A promise with this promise's result"),
        recognised: .byName,
        whenSkipped: .passesResult,
        placement: .init(on: "value", "_ in {record}")
    ),
    .op(
        "mapResult",
        generics: ["T", "E"],
        callback: "onComplete",
        type: "(PromiseResult<Value, Error>) -> PromiseResult<T, E>",
        returns: "Promise<T, E>",
        doc: """
            Transforms the result, whatever it is (including cancelled).

            - Parameters:
              {context}
              {token}
              - onComplete: Called with the result; what it returns resolves the returned
                promise (it may turn a value into an error, an error into a value, or either
                into `.cancelled`).
            - Returns: A promise of the transformed result; a child of this promise for
              cancellation propagation.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { result in
                .resolve(onComplete(result))
            }
            """),
        weakOwner: .init(
            type: "(_ object: Object, _ result: PromiseResult<Value, Error>) -> PromiseResult<T, E>",
            doc: """
                Transforms the result on `context` with `object`, if `object` is still alive;
                otherwise the returned promise is cancelled.
                """,
            body: """
                register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { [weak object] result in
                    guard let object else { return .resolve(.cancelled) }
                    return .resolve(onComplete(object, result))
                }
                """),
        tokenForwarder: .init(
            summary: """
                transforms the result; if the token was invalidated after this call, the returned promise is \
                cancelled instead. (The `onComplete:` label matches Tomorrowland 1.x.)
                """,
            callback: "Called with the result; what it returns resolves the returned promise.",
            returns: "A promise of the transformed result", label: "onComplete"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "value", "r -> PromiseResult<Int, Error> in {record}; return r")
    ),
    .op(
        "flatMapResult",
        generics: ["T", "E"],
        callback: "onComplete",
        type: "(PromiseResult<Value, Error>) -> Promise<T, E>",
        returns: "Promise<T, E>",
        doc: """
            Replaces the result with the eventual result of the promise `onComplete` returns.

            - Parameters:
              {context}
              {token}
              - onComplete: Called with the result, whatever it is; returns the promise to
                adopt, without a context hop (rule 27).
            - Returns: A promise of the adopted promise's result. Its cancel requests go to this
              promise until `onComplete` has run, then to the adopted one.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { result in
                .adopt(onComplete(result))
            }
            """),
        weakOwner: .init(
            type: "(_ object: Object, _ result: PromiseResult<Value, Error>) -> Promise<T, E>",
            doc: """
                Replaces the result with the eventual result of the promise `onComplete` returns, if
                `object` is still alive; otherwise the returned promise is cancelled.
                """,
            body: """
                register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { [weak object] result in
                    guard let object else { return .resolve(.cancelled) }
                    return .adopt(onComplete(object, result))
                }
                """),
        tokenForwarder: .init(
            summary: """
                adopts the promise `onComplete` returns; if the token was invalidated after this call, the \
                returned promise is cancelled instead.
                """,
            callback: "Called with the result; returns the promise to adopt.",
            returns: "A promise of the adopted promise's result"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "value", "r -> StdPromise<Int> in {record}; return Promise(with: r)")
    ),
    .op(
        "tryMapResult",
        generics: ["T", "E: Swift.Error"],
        callback: "onComplete",
        type: "(PromiseResult<Value, Error>) throws -> PromiseResult<T, E>",
        returns: "Promise<T, Swift.Error>",
        doc: """
            Transforms the result with a throwing function; a thrown error rejects.

            - Parameters:
              {context}
              {token}
              - onComplete: Called with the result, whatever it is; what it returns resolves the
                returned promise (its error upcast to `Swift.Error`), an error it throws rejects
                it.
            - Returns: A promise of the transformed result; a child of this promise for
              cancellation propagation.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { result in
                do { return .resolve(try onComplete(result).mapError { $0 as Swift.Error }) } catch { return .resolve(.error(error)) }
            }
            """),
        tokenForwarder: .init(
            summary: """
                transforms the result, or rejects with the error `onComplete` throws; if the token was \
                invalidated after this call, the returned promise is cancelled instead.
                """,
            callback: "Called with the result; returns the new result, or throws.",
            returns: "A promise of the transformed result"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "value", "r -> PromiseResult<Int, Error> in {record}; return r")
    ),
    .op(
        "tryFlatMapResult",
        generics: ["T", "E: Swift.Error"],
        callback: "onComplete",
        type: "(PromiseResult<Value, Error>) throws -> Promise<T, E>",
        returns: "Promise<T, Swift.Error>",
        doc: """
            Replaces the result with the eventual result of the promise a throwing `onComplete`
            returns; a thrown error rejects.

            - Parameters:
              {context}
              {token}
              - onComplete: Called with the result, whatever it is; returns the promise to adopt
                (without a context hop, rule 27), or throws to reject the returned promise.
            - Returns: A promise of the adopted promise's result, its error upcast to
              `Swift.Error`. Its cancel requests go to this promise until `onComplete` has run,
              then to the adopted one.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { result in
                do { return .adopt(try onComplete(result).upcast) } catch { return .resolve(.error(error)) }
            }
            """),
        tokenForwarder: .init(
            summary: """
                adopts the promise `onComplete` returns, or rejects with the error it throws; if the token was \
                invalidated after this call, the returned promise is cancelled instead.
                """,
            callback: "Called with the result; returns the promise to adopt, or throws.",
            returns: "A promise of the adopted promise's result"),
        recognised: .byName,
        whenSkipped: .cancels,
        placement: .init(on: "value", "r -> StdPromise<Int> in {record}; return Promise(with: r)")
    ),
    .op(
        "tap",
        callback: "onComplete",
        type: "(PromiseResult<Value, Error>) -> Void",
        returns: "Promise<Value, Error>",
        defaultAuto: true,
        attributes: ["@inlinable", "@discardableResult"],
        doc: """
            Runs `onComplete` with the result without taking part in cancellation propagation.

            Returns **this** promise (not a child), so it can be inserted into a chain without
            affecting it. With an invalidated `token` the callback is skipped.

            - Parameters:
              {context}
              {token}
              - onComplete: Called with the result, whatever it is. Released on `context` right
                after it runs.
            - Returns: `self`. The callback neither blocks nor triggers automatic cancellation
              of this promise (rule 7).
            """,
        body: .inline("""
            registerUnheld(AlwaysBox(context: {context}, token: token, {box}: onComplete))
            return self
            """),
        tokenForwarder: .init(doc: """
                Registers `tap` with the token. Returns `self` (so an initial `withToken` wrapper
                stays one); `tap` itself is never registered for cancellation.

                - Parameters:
                  - context: Where `onComplete` runs (see `PromiseContext`). The default, `.auto`,
                    is evaluated now: `.main` on the main queue or main actor, else `.default`.
                  - onComplete: Called with the result, whatever it is, unless the token was
                    invalidated after this call. It is not an observer for cancellation propagation (rule
                    7).
                - Returns: `self`.
                """, body: """
                _ = inner.tap(on: context, token: token, onComplete)
                return self
                """),
        recognised: .withContextArgument,
        whenSkipped: .skipsOnly,
        placement: .init(on: "value", "_ in {record}")
    ),
    .op(
        "onCancel",
        callback: "onCancel",
        type: "() -> Void",
        returns: "Promise<Value, Error>",
        defaultAuto: true,
        attributes: ["@discardableResult"],
        doc: """
            Runs `onCancel` on `context` if the promise is cancelled.

            Returns a promise with the same result. It does not block propagation when this
            promise has other children; if it is asked to cancel it counts as one child that has
            requested cancellation (rule 7).

            - Parameters:
              {context}
              {token}
              - onCancel: Called when the promise is cancelled; not called on fulfilment or
                rejection. Released on `context` right after it runs, or when the promise
                resolves without calling it.
            - Returns: A new promise with this promise's result.
            """,
        body: .helper("""
            register(on: context, token: token, trigger: .cancelled, kind: .observer, link: .onlyWhenCancelled, isolation: isolation) { result in
                if case .cancelled = result { onCancel() }
                return .resolve(result)
            }
            """),
        tokenForwarder: .init(
            summary: """
                runs `onCancel` on `context` if the promise is cancelled, unless the token was invalidated \
                after this call.
                """,
            callback: "Called when the promise is cancelled.",
            returns: "A promise with this promise's result"),
        recognised: .byName,
        whenSkipped: .passesResult,
        placement: .init(on: "cancelled", "{record}")
    ),
    CallbackAPI(
        "propagatingCancellation", in: .promise,
        parameters: [.context(defaultAuto: false), .callback(label: "cancelRequested", name: "cancelRequested", type: "(Promise<Value, Error>) -> Void", defaultValue: nil)],
        returns: "Promise<Value, Error>",
        doc: """
            Returns a promise that propagates cancellation to this one as soon as all of *its*
            children have requested cancel, even while handles to it are still held (rule 8).

            Use it to share one piece of work between clients (with `makeChild()` for each) and
            still cancel the work when every client lost interest. When the returned promise is
            asked to cancel, because all its children requested cancel or because
            `requestCancel()` was called on it directly, `cancelRequested` runs once on `context`
            with the returned promise (synchronously for `.immediate` and `.nowOr`), and then the
            request is passed upstream as one observer's request, exactly like automatic
            propagation. Passing it on does not cancel the returned promise: it keeps taking
            this promise's result, so if this promise ignores the request and is fulfilled, the
            returned promise is fulfilled too (and children attached meanwhile with it).
            `cancelRequested` is released when the returned promise resolves.

            With no named context, a `cancelRequested` written in `@MainActor` code or an actor
            method is isolated to that actor and runs on it instead; with a named context
            (`.utility`, `.queue(q)`, …) it is nonisolated and runs there (see the Threading article).
            """,
        body: .inline("_propagatingCancellation(on: {context}, isolation: {isolation}, cancelRequested: {cancelRequested})"),
        mark: "Cancellation",
        placementLabels: ["propagatingCancellation(on:)"],
        recognition: .byName
    ),
    CallbackAPI(
        "init", in: .promise, declaration: .initializer,
        parameters: [.context(defaultAuto: false), .callback("handler", "(_ resolver: Promise<Value, Error>.Resolver) -> Void")],
        returns: nil,
        doc: """
            Creates a promise whose `handler` runs on `context` with a resolver.

            `.immediate` and `.nowOr(_)` run the handler synchronously, before `init` returns
            (`.nowOr` with `PromiseContext.isExecutingNow` set). If the handler releases the
            resolver without resolving, the promise is cancelled.

            With a named context (`.utility`, `.queue(q)`, …) the handler is nonisolated and runs
            there. Otherwise a handler isolated to an actor (written in `@MainActor` code, or in an
            actor method that uses `self`) runs on that actor: synchronously only when the context
            allows it and the caller is already there (see the Threading article).
            """,
        body: .inline("self.init(on: {context}, isolation: {isolation}, {handler})"),
        mark: "Promise bodies",
        placementLabels: ["Promise(on:)"]
    ),
    CallbackAPI(
        "init", in: .stdPromise, declaration: .initializer,
        parameters: [.context(defaultAuto: false), .callback("handler", "(_ resolver: Promise<Value, Error>.Resolver) throws -> Void")],
        returns: nil,
        doc: """
            Creates a promise whose throwing `handler` runs on `context`; a thrown error rejects
            it.

            Runs like the non-throwing `init(on:_:)`: `.immediate` and `.nowOr(_)` run the
            handler before `init` returns, and a handler that releases the resolver without
            resolving cancels the promise. If the promise is already resolved when the handler
            throws, the error is dropped (first resolution wins).

            - Parameters:
              - context: Where `handler` runs (see `PromiseContext`).
              - handler: Called once with the promise's resolver.
            """,
        body: .inline("self.init(on: {context}, isolation: {isolation}, throwing: {handler})"),
        subject: "The throwing `init(on:_:)`",
        placementLabels: ["Promise(on:) throwing"]
    ),
    CallbackAPI(
        "init", in: .delayedPromise, declaration: .initializer,
        parameters: [.context(defaultAuto: false), .callback("handler", "(_ resolver: Resolver) -> Void")],
        returns: nil,
        doc: """
            Creates a delayed promise whose `handler` runs on `context` on first access to
            `promise`. With no named context, a handler written in `@MainActor` code or an actor
            method is isolated to that actor and runs on it instead; with a named context
            (`.utility`, `.queue(q)`, …) it is nonisolated and runs there (see the Threading article).
            """,
        body: .inline("self.init(context: {context}, isolation: {isolation}, handler: {handler})"),
        placementLabels: ["DelayedPromise(on:)"]
    ),
    CallbackAPI(
        "init", in: .promiseOperation, declaration: .convenienceInitializer,
        parameters: [.context(defaultAuto: false), .callback("handler", "(_ resolver: Resolver) -> Void")],
        returns: nil,
        doc: """
            Creates an operation that runs `handler` on `context` when started. With no named
            context, a handler written in `@MainActor` code or an actor method is isolated to that
            actor and runs on it instead; with a named context (`.utility`, `.queue(q)`, …) it is
            nonisolated and runs there (see the Threading article).
            """,
        body: .inline("self.init(on: {context}, isolation: {isolation}, {handler})"),
        placementLabels: ["PromiseOperation(on:)"]
    ),
    CallbackAPI(
        "onRequestCancel", in: .resolver,
        parameters: [.context(defaultAuto: false), .callback("callback", "(_ resolver: Promise<Value, Error>.Resolver) -> Void")],
        returns: nil,
        doc: """
            Registers a handler to run when cancellation is requested.

            The handler runs on `context` with a resolver of this promise. If cancel was
            already requested, or the promise was already cancelled, it runs at once
            (synchronously for `.immediate` and `.nowOr`); if the promise was fulfilled or
            rejected, it never runs. A handler scheduled on a non-`.immediate` context that gets
            to run after the promise was meanwhile fulfilled or rejected is skipped; one whose
            promise was meanwhile cancelled still runs, so several handlers that each call
            `resolver.cancel()` all run, in registration order. Handlers still pending when
            the promise resolves are released then, without running. A pending handler keeps
            the promise resolvable.

            A handler given no named context and written in `@MainActor` code or an actor
            method is isolated to that actor and runs on it; with a named context (`.utility`,
            `.queue(q)`, …) it is nonisolated and runs there (see the Threading article).
            """,
        body: .inline("""
            _box.registerCancelHandler(CancelHandlerNode(
                context: {context}, resolver: self, isolation: {isolation}, handler: {callback}
            ))
            """),
        mark: "Cancel handlers",
        placementLabels: ["onRequestCancel(on:)"]
    ),
    CallbackAPI(
        "retry", in: .global, generics: ["Value", "Error"],
        parameters: [
            .context(defaultAuto: false), .plain("attempts: Int"), .plain("delay: TimeInterval = 0"),
            .callback(label: "while", name: "shouldRetry", type: "(Error) -> Bool", defaultValue: "{ _ in true }"),
            .callback("body", "() -> Promise<Value, Error>"),
        ],
        returns: "Promise<Value, Error>",
        doc: """
            Runs `body` and, while the promise it returns rejects, runs it again, up to `attempts`
            times in total. Returns a promise of the first fulfilment, or of the last error.

            ```swift
            let feed = retry(on: .utility, attempts: 3, delay: 0.5, while: { $0 is URLError }) {
                MyAPI.requestFeed(for: user)
            }
            ```

            - `body` runs on `context`: the first attempt at once for `.immediate`/`.nowOr` (like
              `Promise(on:_:)`), dispatched otherwise. `shouldRetry` runs on `context` with each error
              (`.nowOr` synchronously when the attempt is already rejected); a retry without delay
              runs `body` right there, later ones after `delay` seconds on `context` (`.immediate`
              means `.auto` for that timer, as for `delay(on:_:)`). Attempts never overlap, and
              attempts that reject synchronously do not grow the stack.
            - Isolation: with a named context (`.utility`, `.queue(q)`, …) or a context held in a
              value, both closures are nonisolated and run there. Otherwise, if `body` (or else
              `shouldRetry`) is isolated to an actor (written in `@MainActor` code or an actor
              method), both run on that actor, never synchronously on another one (see the
              Threading article); give them the same isolation.
            - `attempts` counts the first one: `attempts: 3` means at most two retries. Values below 1
              mean 1. A `delay` ≤ 0 retries at once; a NaN or `+infinity` `delay` never fires, so the
              returned promise waits for a cancel request after the first retryable error (or for
              its operation queue to drop the timer's operation, below).
            - The returned promise fulfils with the first value and rejects with the last error (when
              `shouldRetry` returns `false` or the attempts run out). If an attempt is cancelled, the
              returned promise is cancelled and nothing is retried.
            - Cancellation: a cancel request on the returned promise stops at once: the returned
              promise is cancelled, a pending delay is dropped, no further attempt starts, and the
              in-flight attempt is asked to cancel (as one of its observers, rule 5). Once the
              request is in, an attempt that resolves concurrently cannot resolve the returned promise
              any more: it ends cancelled, never rejected with an error that would have been retried.
            - Work that `context` drops without running it (an operation queue's cancelled operation:
              the first attempt's start, an attempt's rejection, the end of a delay) cancels the
              returned promise, as a cancel request would: it never stays pending for good (rule 1).
            """,
        body: .inline("""
            _retry(on: {context}, isolation: {isolation}, attempts: attempts, delay: delay,
                   shouldRetry: {shouldRetry}, body: {body})
            """),
        isolation: "body.isolation ?? shouldRetry.isolation",
        closures: "`body` and `shouldRetry`",
        mark: "Retry",
        placementLabels: ["retry(on:)", "retry(on:while:)"]
    ),
]
