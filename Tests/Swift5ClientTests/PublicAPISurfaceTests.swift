// Every public Swift declaration of Tomorrowland 1.4 (the list in the 1.4 API reference this
// package keeps source-compatible), used the way 1.x client code writes it: each initializer
// and method with its argument labels, default arguments omitted and supplied, trailing
// closures, properties, static members, typealiases, enum cases (an exhaustive `switch`, so
// a case that is missing, renamed or added fails to compile), conformances and generic
// constraints (`Promise<Int, String>`: the Error type is unconstrained).
//
// The same block of calls is compiled three times, because 1.x code lives in three kinds of
// places and callback closures take the isolation of the place they are written in: a plain
// class, a `@MainActor` class (every view controller) and an actor. The three copies are
// kept identical by `testTheThreeCopiesAreIdentical`. Results are checked where that is cheap
// and synchronous (`.immediate`, already-resolved promises); other contexts are only
// compiled and registered: their behaviour is tested elsewhere.
//
// If this file stops compiling, a 1.x declaration is missing or has changed: fix the library.

import Foundation
import Tomorrowland
import TomorrowlandAsync  // its Promise initializers take part in overload resolution too
import XCTest

/// Collects what callbacks saw, from any thread.
final class SurfaceLog: @unchecked Sendable {
    // Safe: every access to `entries` holds `lock`.
    private let lock = NSLock()
    private var entries: [String] = []

    func record(_ entry: String) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    /// Records a value and returns how many entries there are: a non-Void single-expression
    /// callback, as 1.x code writes `then { self.cache.insert($0) }`.
    @discardableResult
    func count(_ value: Int) -> Int {
        record("count \(value)")
        return all.count
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

/// Checks that a type conforms, at compile time.
func requireHashable<T: Hashable>(_: T.Type) {}
func requireCodable<T: Codable>(_: T.Type) {}
func requireEquatable<T: Equatable>(_: T.Type) {}
func requireError<T: Swift.Error>(_: T.Type) {}
func requireCustomNSError<T: CustomNSError>(_: T.Type) {}

/// Names a context without a `default:`: this switch stops compiling if a case is missing,
/// renamed or added.
func surfaceName(of context: PromiseContext) -> String {
    switch context {
    case .main: return "main"
    case .background: return "background"
    case .utility: return "utility"
    case .default: return "default"
    case .userInitiated: return "userInitiated"
    case .userInteractive: return "userInteractive"
    case .queue(let queue): return "queue \(queue.label)"
    case .operationQueue(let queue): return "operationQueue \(queue.maxConcurrentOperationCount)"
    case .immediate: return "immediate"
    case .nowOr(let context): return "nowOr(\(surfaceName(of: context)))"
    }
}

func surfaceName<Value, Error>(of result: PromiseResult<Value, Error>) -> String {
    switch result {
    case .value: return "value"
    case .error: return "error"
    case .cancelled: return "cancelled"
    }
}

func surfaceName<Error>(of error: PromiseTimeoutError<Error>) -> String {
    switch error {
    case .timedOut: return "timedOut"
    case .rejected: return "rejected"
    }
}

func surfaceName(of error: PromiseCallbackError) -> String {
    switch error {
    case .apiMismatch: return "apiMismatch"
    }
}

/// Every 1.4 function by its full name, as a function value: a name differs if a label, a
/// parameter or an arity-specific overload is missing, even when calls still compile (a
/// parameter pack or an extra defaulted parameter accepts the same calls under another
/// name). Function values are the same in every isolation, so this is compiled once. A
/// reference names its type: each callback API has three overloads by kind of context
/// (`PromiseContext.Named`, `.CallerIsolated`, a `PromiseContext` value); the 1.4 type picks the
/// last.
func referenceEveryDeclarationByName() -> Int {
    typealias P = Promise<Int, String>
    typealias S = StdPromise<Int>
    typealias T = TokenPromise<Int, String>
    typealias ST = TokenPromise<Int, Swift.Error>
    typealias R = PromiseResult<Int, String>
    let p = P(fulfilled: 1)
    let s = S(fulfilled: 1)
    let token = PromiseInvalidationToken(invalidateOnDeinit: false)
    let t = p.withToken(token)
    let st = s.withToken(token)
    let (_, resolver) = P.makeWithResolver()
    let (_, stdResolver) = S.makeWithResolver()
    var names: [Any] = []

    // Module scope
    names.append(when(fulfilled:qos:cancelOnFailure:) as ([P], DispatchQoS.QoSClass, Bool) -> Promise<[Int], String>)
    names.append(when(fulfilled:_:qos:cancelOnFailure:) as (P, P, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int), String>)
    names.append(when(first:cancelRemaining:) as ([P], Bool) -> P)

    // PromiseContext
    names.append(PromiseContext.init(qos:))
    names.append(PromiseContext.queue)
    names.append(PromiseContext.operationQueue)
    names.append(PromiseContext.nowOr)

    // Promise
    names.append(P.makeWithResolver)
    names.append(P.init(on:_:) as (PromiseContext, @escaping @Sendable (P.Resolver) -> Void) -> P)
    names.append(P.init(fulfilled:))
    names.append(P.init(rejected:))
    names.append(P.init(with:) as (R) -> P)
    names.append(p.then(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Int) -> Void) -> P)
    names.append(p.map(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Int) -> String) -> Promise<String, String>)
    names.append(p.flatMap(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Int) -> P) -> P)
    names.append(p.catch(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (String) -> Void) -> P)
    names.append(p.recover(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (String) -> Int) -> Promise<Int, NoError>)
    names.append(p.mapError(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (String) -> Int) -> Promise<Int, Int>)
    names.append(p.flatMapError(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (String) -> Promise<Int, Int>) -> Promise<Int, Int>)
    names.append(p.tryMapError(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (String) throws -> APIError) -> S)
    names.append(p.tryFlatMapError(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (String) throws -> Promise<Int, APIError>) -> S)
    names.append(p.always(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (R) -> Void) -> P)
    names.append(p.mapResult(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (R) -> R) -> P)
    names.append(p.flatMapResult(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (R) -> P) -> P)
    names.append(p.tryMapResult(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (R) throws -> PromiseResult<Int, APIError>) -> S)
    names.append(p.tryFlatMapResult(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (R) throws -> Promise<Int, APIError>) -> S)
    names.append(p.tap(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (R) -> Void) -> P)
    names.append(p.tap as () -> P)
    names.append(p.onCancel(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable () -> Void) -> P)
    names.append(p.propagatingCancellation(on:cancelRequested:) as (PromiseContext, @escaping @Sendable (P) -> Void) -> P)
    names.append(p.makeChild)
    names.append(p.requestCancel)
    names.append(p.requestCancelOnInvalidate(_:))
    names.append(p.ignoringCancel)
    names.append(p.withToken(_:))
    names.append(P.init(on:fulfilled:after:))
    names.append(P.init(on:rejected:after:))
    names.append(P.init(on:with:after:))
    names.append(p.delay(on:_:))
    names.append(p.timeout(on:delay:) as (PromiseContext, TimeInterval) -> Promise<Int, PromiseTimeoutError<String>>)
    names.append((==) as (P, P) -> Bool)
    names.append(Promise<Int, APIError>.init(with:) as (Result<Int, APIError>) -> Promise<Int, APIError>)
    names.append(S.init(on:_:) as (PromiseContext, @escaping @Sendable (S.Resolver) throws -> Void) -> S)
    names.append(s.tryThen(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Int) throws -> Void) -> S)
    names.append(s.tryMap(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Int) throws -> String) -> StdPromise<String>)
    names.append(s.tryFlatMap(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Int) throws -> Promise<String, APIError>) -> StdPromise<String>)
    names.append(s.tryRecover(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Swift.Error) throws -> Int) -> S)
    names.append(s.timeout(on:delay:) as (PromiseContext, TimeInterval) -> S)

    // Promise.Resolver
    names.append(resolver.fulfill(with:))
    names.append(resolver.reject(with:))
    names.append(resolver.cancel)
    names.append(resolver.resolve(with:) as (R) -> Void)
    names.append(resolver.resolve(with:) as (P) -> Void)
    names.append(resolver.onRequestCancel(on:_:) as (PromiseContext, @escaping @Sendable (P.Resolver) -> Void) -> Void)
    names.append(stdResolver.resolve(with:) as (PromiseResult<Int, APIError>) -> Void)
    names.append(stdResolver.handleCallback(isCancelError:))
    names.append(Promise<Int, APIError>.makeWithResolver().1.resolve(with:) as (Result<Int, APIError>) -> Void)

    // PromiseResult
    let r = R.value(1)
    names.append(R.value)
    names.append(R.error)
    names.append(r.map as ((Int) throws -> String) throws -> PromiseResult<String, String>)
    names.append(r.mapError as ((String) throws -> Int) throws -> PromiseResult<Int, Int>)
    names.append(r.flatMap as ((Int) throws -> PromiseResult<String, String>) throws -> PromiseResult<String, String>)
    names.append(r.flatMapError as ((String) throws -> PromiseResult<Int, Int>) throws -> PromiseResult<Int, Int>)
    names.append(PromiseResult<Int, APIError>.init(_:) as (Result<Int, APIError>) -> PromiseResult<Int, APIError>)
    names.append((==) as (R, R) -> Bool)
    names.append((!=) as (R, R) -> Bool)

    // Tokens and the others
    names.append(p.cancellable.requestCancel)
    names.append(PromiseInvalidationToken.init(invalidateOnDeinit:))
    names.append(token.invalidate)
    names.append(token.cancelWithoutInvalidating)
    names.append(token.requestCancelOnInvalidate(_:) as (P) -> Void)
    names.append(token.chainInvalidation(from:includingCancelWithoutInvalidating:))
    names.append((==) as (PromiseInvalidationToken, PromiseInvalidationToken) -> Bool)
    names.append(PromiseTimeoutError<String>.rejected)
    names.append((==) as (PromiseTimeoutError<String>, PromiseTimeoutError<String>) -> Bool)
    names.append((!=) as (PromiseTimeoutError<String>, PromiseTimeoutError<String>) -> Bool)
    names.append(DelayedPromise<Int, String>.init(on:_:) as (PromiseContext, @escaping @Sendable (P.Resolver) -> Void) -> DelayedPromise<Int, String>)
    names.append((==) as (DelayedPromise<Int, String>, DelayedPromise<Int, String>) -> Bool)
    names.append(PromiseOperation<Int, String>.init(on:_:) as (PromiseContext, @escaping @Sendable (P.Resolver) -> Void) -> PromiseOperation<Int, String>)

    // TokenPromise
    names.append(T.init(promise:token:))
    names.append(t.then(on:_:) as (PromiseContext, @escaping @Sendable (Int) -> Void) -> T)
    names.append(t.map(on:_:) as (PromiseContext, @escaping @Sendable (Int) -> String) -> TokenPromise<String, String>)
    names.append(t.flatMap(on:_:) as (PromiseContext, @escaping @Sendable (Int) -> P) -> T)
    names.append(t.catch(on:_:) as (PromiseContext, @escaping @Sendable (String) -> Void) -> T)
    names.append(t.recover(on:_:) as (PromiseContext, @escaping @Sendable (String) -> Int) -> TokenPromise<Int, NoError>)
    names.append(t.mapError(on:_:) as (PromiseContext, @escaping @Sendable (String) -> Int) -> TokenPromise<Int, Int>)
    names.append(t.flatMapError(on:_:) as (PromiseContext, @escaping @Sendable (String) -> Promise<Int, Int>) -> TokenPromise<Int, Int>)
    names.append(t.tryMapError(on:_:) as (PromiseContext, @escaping @Sendable (String) throws -> APIError) -> ST)
    names.append(t.tryFlatMapError(on:_:) as (PromiseContext, @escaping @Sendable (String) throws -> Promise<Int, APIError>) -> ST)
    names.append(t.always(on:_:) as (PromiseContext, @escaping @Sendable (R) -> Void) -> T)
    names.append(t.mapResult(on:onComplete:) as (PromiseContext, @escaping @Sendable (R) -> R) -> T)
    names.append(t.flatMapResult(on:_:) as (PromiseContext, @escaping @Sendable (R) -> P) -> T)
    names.append(t.tryMapResult(on:_:) as (PromiseContext, @escaping @Sendable (R) throws -> PromiseResult<Int, APIError>) -> ST)
    names.append(t.tryFlatMapResult(on:_:) as (PromiseContext, @escaping @Sendable (R) throws -> Promise<Int, APIError>) -> ST)
    names.append(t.tap(on:_:) as (PromiseContext, @escaping @Sendable (R) -> Void) -> T)
    names.append(t.tap as () -> T)
    names.append(t.onCancel(on:_:) as (PromiseContext, @escaping @Sendable () -> Void) -> T)
    names.append(t.ignoringCancel)
    names.append((==) as (T, T) -> Bool)
    names.append(st.tryThen(on:_:) as (PromiseContext, @escaping @Sendable (Int) throws -> Void) -> ST)
    names.append(st.tryMap(on:_:) as (PromiseContext, @escaping @Sendable (Int) throws -> String) -> TokenPromise<String, Swift.Error>)
    names.append(st.tryFlatMap(on:_:) as (PromiseContext, @escaping @Sendable (Int) throws -> Promise<String, APIError>) -> TokenPromise<String, Swift.Error>)
    names.append(st.tryRecover(on:_:) as (PromiseContext, @escaping @Sendable (Swift.Error) throws -> Int) -> ST)
    names.append(st.tryFlatMapError(on:_:) as (PromiseContext, @escaping @Sendable (Swift.Error) throws -> Promise<Int, APIError>) -> ST)
    return names.count
}

/// Every conformance the 1.4 API lists, required at compile time.
func requireEveryConformance() {
    requireHashable(PromiseContext.self)
    requireEquatable(Promise<Int, String>.self)
    requireEquatable(PromiseResult<Int, String>.self)
    requireHashable(PromiseResult<Int, String>.self)
    requireCodable(PromiseResult<Int, String>.self)
    requireHashable(PromiseInvalidationToken.self)
    requireDescribable(PromiseInvalidationToken.self)
    requireHashable(NoError.self)
    requireCodable(NoError.self)
    requireError(PromiseCallbackError.self)
    requireRawValue(PromiseCallbackError.self)
    requireError(PromiseTimeoutError<String>.self)
    requireCustomNSError(PromiseTimeoutError<String>.self)
    requireHashable(PromiseTimeoutError<String>.self)
    requireEquatable(TokenPromise<Int, String>.self)
    requireEquatable(DelayedPromise<Int, String>.self)
    requireOperation(PromiseOperation<Int, String>.self)
}

func requireDescribable<T: CustomStringConvertible & CustomDebugStringConvertible>(_: T.Type) {}
func requireRawValue<T: RawRepresentable>(_: T.Type) where T.RawValue == Int {}
func requireOperation<T: Operation>(_: T.Type) {}

/// 1.x client code outside any actor.
final class PlainSurfaceClient {
    var state = 0

    func exercise() -> [String] {
        // surface:begin
        var failures: [String] = []
        func check(_ ok: Bool, _ what: String, line: Int = #line) {
            if !ok { failures.append("line \(line): \(what)") }
        }
        let log = SurfaceLog()
        let queue = DispatchQueue(label: "surface.queue")
        let operationQueue = OperationQueue()
        let token = PromiseInvalidationToken()
        let fulfilled = Promise<Int, String>(fulfilled: 1)
        let rejected = Promise<Int, String>(rejected: "bad")
        let cancelled = Promise<Int, String>(with: .cancelled)

        // MARK: Typealiases
        let std: StdPromise<Int> = Promise<Int, Swift.Error>(fulfilled: 1)
        let stdDelayed: StdDelayedPromise<Int> = DelayedPromise<Int, Swift.Error>(on: .immediate) { $0.fulfill(with: 2) }
        let stdOperation: StdPromiseOperation<Int> = PromiseOperation<Int, Swift.Error>(on: .immediate) { $0.fulfill(with: 3) }
        check(std.result?.value == 1, "StdPromise")
        check(stdDelayed.promise.result?.value == 2, "StdDelayedPromise, .immediate runs on first access")
        stdOperation.start()
        check(stdOperation.promise.result?.value == 3, "StdPromiseOperation, .immediate runs in start()")

        // MARK: PromiseContext
        let contexts: [PromiseContext] = [
            .main, .background, .utility, .default, .userInitiated, .userInteractive,
            .queue(queue), .operationQueue(operationQueue), .immediate, .nowOr(.main),
            .auto, PromiseContext(qos: .utility), .nowOr(.nowOr(.queue(queue))),
        ]
        check(Set(contexts).count == 11, "PromiseContext: Hashable; .auto and init(qos:) give existing cases")
        check(PromiseContext.queue(queue) == .queue(queue) && PromiseContext.queue(queue) != .queue(DispatchQueue(label: "surface.queue")), "queues compare by identity")
        check(contexts.map(surfaceName(of:)).count == 13, "every case named")
        check(PromiseContext.auto == .main || PromiseContext.auto == .default, ".auto")
        check(!PromiseContext.isExecutingNow, "isExecutingNow outside a callback")
        let makeContext: (DispatchQoS.QoSClass) -> PromiseContext = PromiseContext.init(qos:)
        let queueCase: (DispatchQueue) -> PromiseContext = PromiseContext.queue
        check(makeContext(.userInitiated) == .userInitiated && queueCase(queue) == .queue(queue), "function references")
        requireHashable(PromiseContext.self)

        // MARK: Promise creation
        let (made, madeResolver) = Promise<Int, String>.makeWithResolver()
        let makePair: () -> (Promise<Int, String>, Promise<Int, String>.Resolver) = Promise<Int, String>.makeWithResolver
        _ = makePair()
        check(made.result == nil, "makeWithResolver: pending")
        madeResolver.fulfill(with: 4)
        check(made.result == .value(4), "Resolver.fulfill(with:)")
        let handled = Promise<Int, String>(on: .immediate) { resolver in
            resolver.fulfill(with: 5)
        }
        check(handled.result?.value == 5, "init(on:_:) with .immediate runs before returning")
        let handledNowOr = Promise<Int, String>(on: .nowOr(.utility), { resolver in
            log.record("nowOr \(PromiseContext.isExecutingNow)")
            resolver.reject(with: "nowOr")
        })
        check(handledNowOr.result?.error == "nowOr", "init(on: .nowOr) runs synchronously")
        check(log.all.contains("nowOr true"), "isExecutingNow in a synchronous .nowOr handler")
        _ = Promise<Int, String>(on: .utility) { $0.fulfill(with: 6) }
        _ = Promise<Int, String>(on: .queue(queue)) { $0.cancel() }
        _ = Promise<Int, String>(on: .operationQueue(operationQueue)) { $0.fulfill(with: 7) }
        check(Promise<Int, String>(with: .value(8)).result == .value(8), "init(with:)")
        check(rejected.result == .error("bad"), "init(rejected:)")
        check(cancelled.result?.isCancelled == true, "init(with: .cancelled)")
        let makeFulfilled: (Int) -> Promise<Int, String> = Promise.init(fulfilled:)
        check(makeFulfilled(9).result?.value == 9, "Promise.init(fulfilled:) as a function")
        let thrown = StdPromise<Int>(on: .immediate) { _ in throw APIError.notFound }
        check(thrown.result?.error as? APIError == .notFound, "throwing init(on:_:) where Error == Swift.Error")
        let stdHandled = StdPromise<Int>(on: .immediate) { resolver in resolver.fulfill(with: 10) }
        check(stdHandled.result?.value == 10, "init(on:_:) for StdPromise with a non-throwing handler")
        check(Promise<Int, APIError>(with: Result<Int, APIError>.success(11)).result == .value(11), "init(with: Result)")
        check(StdPromise<Int>(with: Result<Int, Swift.Error>.failure(APIError.badData)).result?.error as? APIError == .badData, "init(with: Result) for StdPromise")
        _ = Promise<Int, String>(fulfilled: 12, after: 0.01)
        _ = Promise<Int, String>(on: .utility, fulfilled: 12, after: 0.01)
        _ = Promise<Int, String>(rejected: "later", after: 0.01)
        _ = Promise<Int, String>(on: .queue(queue), rejected: "later", after: 0.01)
        _ = Promise<Int, String>(with: .value(13), after: 0.01)
        _ = Promise<Int, String>(on: .operationQueue(operationQueue), with: .cancelled, after: 0.01)

        // MARK: Value callbacks
        let thenResult = fulfilled.then(on: .immediate) { value in log.record("then \(value)") }
        check(thenResult == fulfilled || thenResult.result == .value(1), "then returns a promise of the same result")
        check(log.all.contains("then 1"), "then(on: .immediate) on a resolved promise runs at once")
        let thenSingleExpression = fulfilled.then(on: .immediate) { log.count($0) }
        let _: Promise<Int, String> = thenSingleExpression  // a non-Void closure still picks then(_:) -> Void
        _ = fulfilled.then { _ in }
        _ = fulfilled.then(token: token) { _ in }
        _ = fulfilled.then(on: .main, token: token) { _ in }
        _ = fulfilled.then(on: .utility, { _ in })
        check(fulfilled.map(on: .immediate) { $0 * 10 }.result == .value(10), "map")
        check(fulfilled.map(on: .immediate, token: token) { String($0) }.result == .value("1"), "map(on:token:_:)")
        check(rejected.map(on: .immediate) { $0 * 10 }.result == .error("bad"), "map passes the error through")
        check(fulfilled.flatMap(on: .immediate) { Promise<String, String>(fulfilled: "\($0)") }.result == .value("1"), "flatMap")
        check(fulfilled.flatMap(on: .immediate, token: token) { _ in rejected }.result == .error("bad"), "flatMap(on:token:_:)")
        _ = fulfilled.map(on: .main) { $0 }
        _ = fulfilled.flatMap(on: .default) { Promise<Int, String>(fulfilled: $0) }

        // MARK: Error callbacks
        rejected.catch { _ in }
        rejected.catch(on: .immediate) { error in log.record("catch \(error)") }
        rejected.catch(on: .immediate, token: token, { _ in })
        check(log.all.contains("catch bad"), "catch")
        let recovered: Promise<Int, NoError> = rejected.recover(on: .immediate) { $0.count }
        check(recovered.result == .value(3), "recover gives Promise<Value, NoError>")
        check(rejected.recover(on: .immediate, token: token) { _ in 0 }.result?.value == 0, "recover(on:token:_:)")
        check(rejected.mapError(on: .immediate) { $0.count }.result == .error(3), "mapError")
        check(rejected.mapError(on: .immediate, token: token) { _ in APIError.badData }.result == .error(.badData), "mapError(on:token:_:)")
        check(rejected.flatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 2) }.result == .value(2), "flatMapError")
        _ = rejected.flatMapError(on: .immediate, token: token) { Promise<Int, Int>(rejected: $0.count) }
        let triedMapError: Promise<Int, Swift.Error> = rejected.tryMapError(on: .immediate) { _ in APIError.notFound }
        check(triedMapError.result?.error as? APIError == .notFound, "tryMapError gives Promise<Value, Swift.Error>")
        check(rejected.tryMapError(on: .immediate, token: token) { _ -> APIError in throw APIError.badData }.result?.error as? APIError == .badData, "tryMapError throwing")
        check(rejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 4) }.result?.value == 4, "tryFlatMapError")
        _ = rejected.tryFlatMapError(on: .immediate, token: token) { _ -> Promise<Int, APIError> in throw APIError.notFound }
        let stdRejected = StdPromise<Int>(rejected: APIError.notFound)
        check(stdRejected.tryRecover(on: .immediate) { _ in 5 }.result?.value == 5, "tryRecover")
        check(stdRejected.tryRecover(on: .immediate, token: token) { throw $0 }.result?.error as? APIError == .notFound, "tryRecover rethrowing")
        check(stdRejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(rejected: .badData) }.result?.error as? APIError == .badData, "tryFlatMapError on StdPromise")

        // MARK: Result callbacks
        fulfilled.always { _ in }
        fulfilled.always(on: .immediate) { result in log.record("always \(surfaceName(of: result))") }
        cancelled.always(on: .immediate, token: token) { result in log.record("always \(surfaceName(of: result))") }
        check(log.all.contains("always value") && log.all.contains("always cancelled"), "always")
        check(fulfilled.mapResult(on: .immediate) { result -> PromiseResult<String, APIError> in .value("\(result.value ?? 0)") }.result == .value("1"), "mapResult")
        check(rejected.mapResult(on: .immediate, token: token) { _ in PromiseResult<Int, NoError>.value(0) }.result?.value == 0, "mapResult(on:token:_:)")
        check(fulfilled.flatMapResult(on: .immediate) { _ in Promise<Int, APIError>(rejected: .notFound) }.result == .error(.notFound), "flatMapResult")
        _ = cancelled.flatMapResult(on: .immediate, token: token) { Promise<Int, String>(with: $0) }
        check(fulfilled.tryMapResult(on: .immediate) { _ -> PromiseResult<Int, APIError> in throw APIError.badData }.result?.error as? APIError == .badData, "tryMapResult")
        _ = fulfilled.tryMapResult(on: .immediate, token: token) { _ in PromiseResult<Int, APIError>.cancelled }
        check(fulfilled.tryFlatMapResult(on: .immediate) { result in Promise<Int, APIError>(fulfilled: result.value! + 1) }.result?.value == 2, "tryFlatMapResult")
        _ = fulfilled.tryFlatMapResult(on: .immediate, token: token) { _ -> Promise<Int, APIError> in throw APIError.notFound }
        check(fulfilled.tap(on: .immediate) { _ in } == fulfilled, "tap(on:_:) returns self")
        fulfilled.tap { _ in }
        fulfilled.tap(on: .immediate, token: token) { _ in }
        check(fulfilled.tap().result == .value(1), "tap()")
        cancelled.onCancel { }
        cancelled.onCancel(on: .immediate) { log.record("onCancel") }
        cancelled.onCancel(on: .immediate, token: token, { })
        check(log.all.contains("onCancel"), "onCancel")

        // MARK: Void promises: zero-parameter closures for a Void value
        let done = StdPromise<Void>(on: .immediate) { resolver in resolver.fulfill(with: ()) }
        _ = done.then(on: .immediate) { log.record("void then") }
        check(done.map(on: .immediate) { 1 }.result?.value == 1, "map of a Void promise")
        check(log.all.contains("void then"), "then of a Void promise")
        let (voidPromise, voidResolver) = Promise<Void, NoError>.makeWithResolver()
        voidResolver.fulfill(with: ())
        check(voidPromise.result?.value != nil, "Promise<Void, NoError>")

        // MARK: Value callbacks where Error == Swift.Error
        _ = std.tryThen { _ in }
        _ = std.tryThen(on: .immediate) { _ in throw APIError.badData }
        _ = std.tryThen(on: .immediate, token: token, { _ in })
        check(std.tryMap(on: .immediate) { $0 + 1 }.result?.value == 2, "tryMap")
        check(std.tryMap(on: .immediate, token: token) { _ -> Int in throw APIError.notFound }.result?.error as? APIError == .notFound, "tryMap throwing")
        check(std.tryFlatMap(on: .immediate) { Promise<String, APIError>(fulfilled: "\($0)") }.result?.value == "1", "tryFlatMap")
        _ = std.tryFlatMap(on: .immediate, token: token) { _ -> Promise<Int, APIError> in throw APIError.badData }

        // MARK: Cancellation
        let (pending, pendingResolver) = Promise<Int, String>.makeWithResolver()
        pendingResolver.onRequestCancel(on: .immediate) { resolver in
            log.record("onRequestCancel \(resolver.hasRequestedCancel)")
            resolver.cancel()
        }
        check(!pendingResolver.hasRequestedCancel, "hasRequestedCancel before a request")
        let child = pending.makeChild()
        let ignoring = pending.ignoringCancel()
        let propagating = pending.propagatingCancellation(on: .immediate) { _ in log.record("cancelRequested") }
        let cancellable: PromiseCancellable = pending.cancellable
        check(pending.requestCancelOnInvalidate(token) == pending, "requestCancelOnInvalidate returns self")
        check(pending.fork { _ = $0.then(on: .immediate) { _ in } } == pending, "fork returns self")
        child.requestCancel()
        ignoring.requestCancel()
        propagating.requestCancel()
        check(log.all.contains("cancelRequested"), "propagatingCancellation(on:cancelRequested:)")
        cancellable.requestCancel()
        check(pending.result?.isCancelled == true, "PromiseCancellable.requestCancel()")
        check(log.all.contains("onRequestCancel true"), "Resolver.onRequestCancel(on:_:)")
        do {
            _ = try fulfilled.fork { _ in throw APIError.badData }
            check(false, "fork rethrows")
        } catch {
            check(error as? APIError == .badData, "fork rethrows")
        }
        let requestCancel: () -> Void = fulfilled.requestCancel
        requestCancel()
        check(fulfilled.result == .value(1), "requestCancel on a resolved promise does nothing")

        // MARK: Resolver
        let (resolved, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.resolve(with: .error("first"))
        resolver.fulfill(with: 1)
        resolver.reject(with: "second")
        resolver.cancel()
        check(resolved.result == .error("first"), "first resolution wins")
        let (piped, pipeResolver) = Promise<Int, String>.makeWithResolver()
        pipeResolver.resolve(with: fulfilled)
        check(piped.result == .value(1), "resolve(with: promise)")
        let (stdFromResult, stdResolver) = StdPromise<Int>.makeWithResolver()
        stdResolver.resolve(with: PromiseResult<Int, APIError>.error(.notFound))
        check(stdFromResult.result?.error as? APIError == .notFound, "resolve<E>(with:) where Error == Swift.Error")
        let (fromSwiftResult, swiftResultResolver) = Promise<Int, APIError>.makeWithResolver()
        swiftResultResolver.resolve(with: Result<Int, APIError>.success(2))
        check(fromSwiftResult.result == .value(2), "resolve(with: Result)")
        let (fromCallback, callbackResolver) = StdPromise<Int>.makeWithResolver()
        let callback: (Int?, Swift.Error?) -> Void = callbackResolver.handleCallback()
        callback(nil, nil)
        check(fromCallback.result?.error as? PromiseCallbackError == .apiMismatch, "handleCallback()")
        let (cancelledByCallback, cancelResolver) = StdPromise<Int>.makeWithResolver()
        cancelResolver.handleCallback(isCancelError: { $0 is CancellationError })(nil, CancellationError())
        check(cancelledByCallback.result?.isCancelled == true, "handleCallback(isCancelError:)")
        let fulfill: (Int) -> Void = madeResolver.fulfill(with:)
        fulfill(0)

        // MARK: Utilities
        _ = fulfilled.delay(0.01)
        _ = fulfilled.delay(on: .utility, 0.01)
        let timedOut = fulfilled.timeout(delay: 1)
        let _: Promise<Int, PromiseTimeoutError<String>> = timedOut
        check(timedOut.result == .value(1), "timeout(delay:) on a resolved promise resolves at once")
        check(rejected.timeout(on: .immediate, delay: 1).result == .error(.rejected("bad")), "timeout(on:delay:)")
        let stdTimedOut = std.timeout(delay: 1)
        let _: Promise<Int, Swift.Error> = stdTimedOut  // the Error == Swift.Error overload wins
        _ = std.timeout(on: .utility, delay: 0.01)
        let neverResolved = Promise<Int, String>.makeWithResolver()
        check(neverResolved.0.timeout(on: .immediate, delay: 0).result == .error(.timedOut), "timeout with delay 0 on .immediate fires at once")
        let (stdPending, stdPendingResolver) = StdPromise<Int>.makeWithResolver()
        if case PromiseTimeoutError<Swift.Error>.timedOut? = stdPending.timeout(on: .immediate, delay: 0).result?.error {
            log.record("timed out")
        }
        check(log.all.contains("timed out"), "a StdPromise timeout is PromiseTimeoutError<Swift.Error>.timedOut")
        stdPendingResolver.cancel()
        check(fulfilled == fulfilled && fulfilled != rejected, "Promise: Equatable")
        let upcast: StdPromise<Int> = Promise<Int, APIError>(rejected: .notFound).upcast
        check(upcast.result?.error as? APIError == .notFound, "upcast where Error: Swift.Error")
        let noErrorUpcast: StdPromise<Int> = recovered.upcast
        check(noErrorUpcast.result?.value == 3, "upcast where Error == NoError")

        // MARK: when
        let all: Promise<[Int], String> = when(fulfilled: [fulfilled, Promise(fulfilled: 2)])
        check(all.result == .value([1, 2]), "when(fulfilled: [])")
        _ = when(fulfilled: [fulfilled], qos: .utility, cancelOnFailure: true)
        let two = when(fulfilled: fulfilled, Promise<String, String>(fulfilled: "b"))
        check(two.result?.value.map { "\($0.0)\($0.1)" } == "1b", "when(fulfilled: a, b)")
        let six = when(fulfilled: fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, Promise<String, String>(fulfilled: "f"), qos: .userInitiated, cancelOnFailure: false)
        check(six.result?.value?.5 == "f", "when(fulfilled: a, b, c, d, e, f)")
        _ = when(fulfilled: fulfilled, fulfilled, fulfilled)
        _ = when(fulfilled: fulfilled, fulfilled, fulfilled, fulfilled, cancelOnFailure: true)
        _ = when(fulfilled: fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, qos: .background)
        let whenTwo: (Promise<Int, String>, Promise<String, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, String), String> = when(fulfilled:_:qos:cancelOnFailure:)
        let whenThree: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int), String> = when(fulfilled:_:_:qos:cancelOnFailure:)
        let whenFour: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int, Int), String> = when(fulfilled:_:_:_:qos:cancelOnFailure:)
        let whenFive: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int, Int, Int), String> = when(fulfilled:_:_:_:_:qos:cancelOnFailure:)
        let whenSix: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int, Int, Int, Int), String> = when(fulfilled:_:_:_:_:_:qos:cancelOnFailure:)
        check(whenTwo(fulfilled, Promise(fulfilled: "b"), .default, false).result?.value?.1 == "b", "when(fulfilled:_:qos:cancelOnFailure:) by its 1.x name")
        check(whenThree(fulfilled, fulfilled, rejected, .default, true).result?.error == "bad", "when(fulfilled:_:_:qos:cancelOnFailure:)")
        check(whenFour(fulfilled, fulfilled, fulfilled, fulfilled, .utility, false).result?.value?.3 == 1, "when(fulfilled:_:_:_:qos:cancelOnFailure:)")
        check(whenFive(fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, .default, false).result?.value?.4 == 1, "when(fulfilled:_:_:_:_:qos:cancelOnFailure:)")
        check(whenSix(fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, cancelled, .default, false).result?.isCancelled == true, "when(fulfilled:_:_:_:_:_:qos:cancelOnFailure:)")
        _ = two.then(on: .immediate) { (a, b) in log.record("when \(a) \(b)") }
        check(log.all.contains("when 1 b"), "the tuple destructures")
        check(when(first: [rejected, fulfilled]).result == .error("bad"), "when(first:)")
        check(when(first: [Promise<Int, String>](), cancelRemaining: true).result?.isCancelled == true, "when(first:cancelRemaining:)")

        // MARK: PromiseResult
        let value: PromiseResult<Int, String> = .value(1)
        let error = PromiseResult<Int, String>.error("e")
        check(value.value == 1 && value.error == nil && !value.isCancelled, "value accessors")
        check(error.error == "e" && PromiseResult<Int, String>.cancelled.isCancelled, "error accessors")
        check(value.map { $0 + 1 } == .value(2) && error.mapError { $0.count } == .error(1), "map, mapError")
        check(value.flatMap { _ in PromiseResult<String, String>.error("x") } == .error("x"), "flatMap")
        check(error.flatMapError { _ in PromiseResult<Int, NoError>.value(0) }.value == 0, "flatMapError")
        check(PromiseResult<Int, APIError>(Result<Int, APIError>.failure(.badData)) == .error(.badData), "init(Result)")
        check(value != error && surfaceName(of: value) == "value", "Equatable")
        check(Set([value, error, value]).count == 2, "Hashable")
        let encoded = try? JSONEncoder().encode([value, error, .cancelled])
        let decoded = encoded.flatMap { try? JSONDecoder().decode([PromiseResult<Int, String>].self, from: $0) }
        check(decoded == [value, error, .cancelled], "Codable")
        let json = (try? JSONEncoder().encode(PromiseResult<Int, String>.value(1))).flatMap { String(data: $0, encoding: .utf8) }
        check(json == #"{"value":1,"error":null}"# || json == #"{"error":null,"value":1}"#, "the 1.x Codable format: \(json ?? "nil")")
        let cancelledJSON = Data(#"{"value":null,"error":null}"#.utf8)
        check((try? JSONDecoder().decode(PromiseResult<Int, String>.self, from: cancelledJSON)) == .cancelled, "both keys nil decode as cancelled")
        check((try? value.map { _ -> Int in throw APIError.badData }) == nil, "PromiseResult.map rethrows")
        let makeValue: (Int) -> PromiseResult<Int, String> = PromiseResult.value
        check(makeValue(3) == .value(3), "case as a function")

        // MARK: Tokens
        let secondToken = PromiseInvalidationToken(invalidateOnDeinit: false)
        secondToken.chainInvalidation(from: token)
        secondToken.chainInvalidation(from: token, includingCancelWithoutInvalidating: false)
        secondToken.requestCancelOnInvalidate(Promise<Int, String>.makeWithResolver().0)
        check(secondToken.debugDescription.contains("callbackLinkedList=("), "debugDescription")
        check(!secondToken.description.isEmpty && !String(describing: secondToken).isEmpty, "description")
        let describable: CustomStringConvertible & CustomDebugStringConvertible = secondToken
        _ = describable
        check(token == token && token != secondToken && Set([token, token, secondToken]).count == 2, "Hashable tokens")
        let tokenForInvalidation = PromiseInvalidationToken()
        let (silenced, silencedResolver) = Promise<Int, String>.makeWithResolver()
        _ = silenced.then(on: .immediate, token: tokenForInvalidation) { _ in log.record("not silenced") }
        tokenForInvalidation.cancelWithoutInvalidating()
        tokenForInvalidation.invalidate()
        silencedResolver.fulfill(with: 1)
        check(!log.all.contains("not silenced"), "invalidate()")

        // MARK: TokenPromise
        let tokenPromise: TokenPromise<Int, String> = fulfilled.withToken(token)
        check(tokenPromise.inner == fulfilled && tokenPromise.token == token, "inner, token")
        check(TokenPromise(promise: fulfilled, token: token) == tokenPromise, "init(promise:token:), ==")
        _ = tokenPromise.then { _ in }
        _ = tokenPromise.then(on: .immediate) { value in log.record("token then \(value)") }
        check(log.all.contains("token then 1"), "TokenPromise.then")
        check(tokenPromise.map(on: .immediate) { $0 + 1 }.inner.result == .value(2), "TokenPromise.map")
        check(tokenPromise.flatMap(on: .immediate) { Promise<String, String>(fulfilled: "\($0)") }.inner.result == .value("1"), "TokenPromise.flatMap")
        let tokenRejected = rejected.withToken(token)
        tokenRejected.catch { _ in }
        tokenRejected.catch(on: .immediate) { _ in }
        let tokenRecovered: TokenPromise<Int, NoError> = tokenRejected.recover(on: .immediate) { $0.count }
        check(tokenRecovered.inner.result == .value(3), "TokenPromise.recover")
        check(tokenRejected.mapError(on: .immediate) { $0.count }.inner.result == .error(3), "TokenPromise.mapError")
        _ = tokenRejected.flatMapError(on: .immediate) { _ in Promise<Int, APIError>(rejected: .notFound) }
        let tokenTriedMapError: TokenPromise<Int, Swift.Error> = tokenRejected.tryMapError(on: .immediate) { _ in APIError.badData }
        check(tokenTriedMapError.inner.result?.error as? APIError == .badData, "TokenPromise.tryMapError")
        _ = tokenRejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 0) }
        tokenPromise.always { _ in }
        tokenPromise.always(on: .immediate) { _ in }
        check(tokenPromise.mapResult(on: .immediate, onComplete: { $0.map(String.init) }).inner.result == .value("1"), "TokenPromise.mapResult(on:onComplete:)")
        _ = tokenPromise.mapResult(on: .immediate) { $0.mapError { $0.count } }
        _ = tokenPromise.flatMapResult(on: .immediate) { Promise<Int, String>(with: $0) }
        _ = tokenPromise.tryMapResult(on: .immediate) { _ -> PromiseResult<Int, APIError> in throw APIError.notFound }
        _ = tokenPromise.tryFlatMapResult(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 1) }
        tokenPromise.tap { _ in }
        tokenPromise.tap(on: .immediate) { _ in }
        check(tokenPromise.tap().inner.result == .value(1), "TokenPromise.tap()")
        tokenPromise.onCancel { }
        tokenPromise.onCancel(on: .immediate) { }
        check(tokenPromise.fork { _ = $0.then(on: .immediate) { _ in } } == tokenPromise, "TokenPromise.fork")
        _ = tokenPromise.ignoringCancel()
        let stdTokenPromise = std.withToken(token)
        _ = stdTokenPromise.tryThen { _ in }
        _ = stdTokenPromise.tryThen(on: .immediate) { _ in throw APIError.badData }
        check(stdTokenPromise.tryMap(on: .immediate) { $0 + 1 }.inner.result?.value == 2, "TokenPromise.tryMap")
        _ = stdTokenPromise.tryFlatMap(on: .immediate) { _ in Promise<Int, APIError>(rejected: .badData) }
        _ = stdRejected.withToken(token).tryRecover(on: .immediate) { _ in 0 }
        let stdTokenFlatMapError: TokenPromise<Int, Swift.Error> = stdRejected.withToken(token).tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 1) }
        check(stdTokenFlatMapError.inner.result?.value == 1, "TokenPromise.tryFlatMapError where Error == Swift.Error")
        requireEquatable(TokenPromise<Int, String>.self)

        // MARK: DelayedPromise and PromiseOperation
        let delayed = DelayedPromise<Int, String>(on: .immediate) { resolver in resolver.fulfill(with: 1) }
        let delayedResolverType: DelayedPromise<Int, String>.Resolver.Type = Promise<Int, String>.Resolver.self
        _ = delayedResolverType
        check(delayed.promise == delayed.promise && delayed == delayed, "DelayedPromise.promise, ==")
        check(delayed.promise.result == .value(1), "DelayedPromise(on: .immediate)")
        _ = DelayedPromise<Int, String>(on: .utility, { $0.fulfill(with: 2) })
        let operation = PromiseOperation<Int, String>(on: .immediate) { resolver in resolver.fulfill(with: 1) }
        let operationResolverType: PromiseOperation<Int, String>.Resolver.Type = Promise<Int, String>.Resolver.self
        _ = operationResolverType
        let asOperation: Operation = operation
        check(asOperation.isAsynchronous && !operation.isExecuting && !operation.isFinished, "PromiseOperation: Operation")
        check(operation.promise == operation.promise && operation.promise.result == nil, "PromiseOperation.promise before start()")
        operation.start()
        check(operation.isFinished && operation.promise.result == .value(1), "PromiseOperation.start()")
        let cancelledOperation = PromiseOperation<Int, String>(on: .utility) { $0.fulfill(with: 2) }
        cancelledOperation.cancel()
        operationQueue.addOperation(cancelledOperation)

        // MARK: Error types
        requireHashable(NoError.self)
        check((try? JSONDecoder().decode([NoError].self, from: Data("[{}]".utf8))) == nil, "NoError never decodes")
        requireCodable(NoError.self)
        check(PromiseCallbackError.apiMismatch.rawValue == 0 && PromiseCallbackError(rawValue: 0) == .apiMismatch, "PromiseCallbackError")
        check(surfaceName(of: PromiseCallbackError.apiMismatch) == "apiMismatch", "PromiseCallbackError case")
        requireError(PromiseCallbackError.self)
        let timeoutError = PromiseTimeoutError<String>.rejected("e")
        check(timeoutError == .rejected("e") && timeoutError != .timedOut, "PromiseTimeoutError ==, !=")
        check(Set([timeoutError, .timedOut, timeoutError]).count == 2, "PromiseTimeoutError: Hashable")
        check(PromiseTimeoutError<Int>.timedOut.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String == "The operation timed out.", "errorUserInfo")
        check(surfaceName(of: timeoutError) == "rejected", "PromiseTimeoutError cases")
        requireCustomNSError(PromiseTimeoutError<String>.self)
        requireError(PromiseTimeoutError<NoError>.self)
        // surface:end
        _ = state
        return failures
    }
}

/// 1.x client code in a view controller: callbacks written here are isolated to the main actor.
@MainActor final class MainActorSurfaceClient {
    var state = 0

    func exercise() -> [String] {
        // surface:begin
        var failures: [String] = []
        func check(_ ok: Bool, _ what: String, line: Int = #line) {
            if !ok { failures.append("line \(line): \(what)") }
        }
        let log = SurfaceLog()
        let queue = DispatchQueue(label: "surface.queue")
        let operationQueue = OperationQueue()
        let token = PromiseInvalidationToken()
        let fulfilled = Promise<Int, String>(fulfilled: 1)
        let rejected = Promise<Int, String>(rejected: "bad")
        let cancelled = Promise<Int, String>(with: .cancelled)

        // MARK: Typealiases
        let std: StdPromise<Int> = Promise<Int, Swift.Error>(fulfilled: 1)
        let stdDelayed: StdDelayedPromise<Int> = DelayedPromise<Int, Swift.Error>(on: .immediate) { $0.fulfill(with: 2) }
        let stdOperation: StdPromiseOperation<Int> = PromiseOperation<Int, Swift.Error>(on: .immediate) { $0.fulfill(with: 3) }
        check(std.result?.value == 1, "StdPromise")
        check(stdDelayed.promise.result?.value == 2, "StdDelayedPromise, .immediate runs on first access")
        stdOperation.start()
        check(stdOperation.promise.result?.value == 3, "StdPromiseOperation, .immediate runs in start()")

        // MARK: PromiseContext
        let contexts: [PromiseContext] = [
            .main, .background, .utility, .default, .userInitiated, .userInteractive,
            .queue(queue), .operationQueue(operationQueue), .immediate, .nowOr(.main),
            .auto, PromiseContext(qos: .utility), .nowOr(.nowOr(.queue(queue))),
        ]
        check(Set(contexts).count == 11, "PromiseContext: Hashable; .auto and init(qos:) give existing cases")
        check(PromiseContext.queue(queue) == .queue(queue) && PromiseContext.queue(queue) != .queue(DispatchQueue(label: "surface.queue")), "queues compare by identity")
        check(contexts.map(surfaceName(of:)).count == 13, "every case named")
        check(PromiseContext.auto == .main || PromiseContext.auto == .default, ".auto")
        check(!PromiseContext.isExecutingNow, "isExecutingNow outside a callback")
        let makeContext: (DispatchQoS.QoSClass) -> PromiseContext = PromiseContext.init(qos:)
        let queueCase: (DispatchQueue) -> PromiseContext = PromiseContext.queue
        check(makeContext(.userInitiated) == .userInitiated && queueCase(queue) == .queue(queue), "function references")
        requireHashable(PromiseContext.self)

        // MARK: Promise creation
        let (made, madeResolver) = Promise<Int, String>.makeWithResolver()
        let makePair: () -> (Promise<Int, String>, Promise<Int, String>.Resolver) = Promise<Int, String>.makeWithResolver
        _ = makePair()
        check(made.result == nil, "makeWithResolver: pending")
        madeResolver.fulfill(with: 4)
        check(made.result == .value(4), "Resolver.fulfill(with:)")
        let handled = Promise<Int, String>(on: .immediate) { resolver in
            resolver.fulfill(with: 5)
        }
        check(handled.result?.value == 5, "init(on:_:) with .immediate runs before returning")
        let handledNowOr = Promise<Int, String>(on: .nowOr(.utility), { resolver in
            log.record("nowOr \(PromiseContext.isExecutingNow)")
            resolver.reject(with: "nowOr")
        })
        check(handledNowOr.result?.error == "nowOr", "init(on: .nowOr) runs synchronously")
        check(log.all.contains("nowOr true"), "isExecutingNow in a synchronous .nowOr handler")
        _ = Promise<Int, String>(on: .utility) { $0.fulfill(with: 6) }
        _ = Promise<Int, String>(on: .queue(queue)) { $0.cancel() }
        _ = Promise<Int, String>(on: .operationQueue(operationQueue)) { $0.fulfill(with: 7) }
        check(Promise<Int, String>(with: .value(8)).result == .value(8), "init(with:)")
        check(rejected.result == .error("bad"), "init(rejected:)")
        check(cancelled.result?.isCancelled == true, "init(with: .cancelled)")
        let makeFulfilled: (Int) -> Promise<Int, String> = Promise.init(fulfilled:)
        check(makeFulfilled(9).result?.value == 9, "Promise.init(fulfilled:) as a function")
        let thrown = StdPromise<Int>(on: .immediate) { _ in throw APIError.notFound }
        check(thrown.result?.error as? APIError == .notFound, "throwing init(on:_:) where Error == Swift.Error")
        let stdHandled = StdPromise<Int>(on: .immediate) { resolver in resolver.fulfill(with: 10) }
        check(stdHandled.result?.value == 10, "init(on:_:) for StdPromise with a non-throwing handler")
        check(Promise<Int, APIError>(with: Result<Int, APIError>.success(11)).result == .value(11), "init(with: Result)")
        check(StdPromise<Int>(with: Result<Int, Swift.Error>.failure(APIError.badData)).result?.error as? APIError == .badData, "init(with: Result) for StdPromise")
        _ = Promise<Int, String>(fulfilled: 12, after: 0.01)
        _ = Promise<Int, String>(on: .utility, fulfilled: 12, after: 0.01)
        _ = Promise<Int, String>(rejected: "later", after: 0.01)
        _ = Promise<Int, String>(on: .queue(queue), rejected: "later", after: 0.01)
        _ = Promise<Int, String>(with: .value(13), after: 0.01)
        _ = Promise<Int, String>(on: .operationQueue(operationQueue), with: .cancelled, after: 0.01)

        // MARK: Value callbacks
        let thenResult = fulfilled.then(on: .immediate) { value in log.record("then \(value)") }
        check(thenResult == fulfilled || thenResult.result == .value(1), "then returns a promise of the same result")
        check(log.all.contains("then 1"), "then(on: .immediate) on a resolved promise runs at once")
        let thenSingleExpression = fulfilled.then(on: .immediate) { log.count($0) }
        let _: Promise<Int, String> = thenSingleExpression  // a non-Void closure still picks then(_:) -> Void
        _ = fulfilled.then { _ in }
        _ = fulfilled.then(token: token) { _ in }
        _ = fulfilled.then(on: .main, token: token) { _ in }
        _ = fulfilled.then(on: .utility, { _ in })
        check(fulfilled.map(on: .immediate) { $0 * 10 }.result == .value(10), "map")
        check(fulfilled.map(on: .immediate, token: token) { String($0) }.result == .value("1"), "map(on:token:_:)")
        check(rejected.map(on: .immediate) { $0 * 10 }.result == .error("bad"), "map passes the error through")
        check(fulfilled.flatMap(on: .immediate) { Promise<String, String>(fulfilled: "\($0)") }.result == .value("1"), "flatMap")
        check(fulfilled.flatMap(on: .immediate, token: token) { _ in rejected }.result == .error("bad"), "flatMap(on:token:_:)")
        _ = fulfilled.map(on: .main) { $0 }
        _ = fulfilled.flatMap(on: .default) { Promise<Int, String>(fulfilled: $0) }

        // MARK: Error callbacks
        rejected.catch { _ in }
        rejected.catch(on: .immediate) { error in log.record("catch \(error)") }
        rejected.catch(on: .immediate, token: token, { _ in })
        check(log.all.contains("catch bad"), "catch")
        let recovered: Promise<Int, NoError> = rejected.recover(on: .immediate) { $0.count }
        check(recovered.result == .value(3), "recover gives Promise<Value, NoError>")
        check(rejected.recover(on: .immediate, token: token) { _ in 0 }.result?.value == 0, "recover(on:token:_:)")
        check(rejected.mapError(on: .immediate) { $0.count }.result == .error(3), "mapError")
        check(rejected.mapError(on: .immediate, token: token) { _ in APIError.badData }.result == .error(.badData), "mapError(on:token:_:)")
        check(rejected.flatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 2) }.result == .value(2), "flatMapError")
        _ = rejected.flatMapError(on: .immediate, token: token) { Promise<Int, Int>(rejected: $0.count) }
        let triedMapError: Promise<Int, Swift.Error> = rejected.tryMapError(on: .immediate) { _ in APIError.notFound }
        check(triedMapError.result?.error as? APIError == .notFound, "tryMapError gives Promise<Value, Swift.Error>")
        check(rejected.tryMapError(on: .immediate, token: token) { _ -> APIError in throw APIError.badData }.result?.error as? APIError == .badData, "tryMapError throwing")
        check(rejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 4) }.result?.value == 4, "tryFlatMapError")
        _ = rejected.tryFlatMapError(on: .immediate, token: token) { _ -> Promise<Int, APIError> in throw APIError.notFound }
        let stdRejected = StdPromise<Int>(rejected: APIError.notFound)
        check(stdRejected.tryRecover(on: .immediate) { _ in 5 }.result?.value == 5, "tryRecover")
        check(stdRejected.tryRecover(on: .immediate, token: token) { throw $0 }.result?.error as? APIError == .notFound, "tryRecover rethrowing")
        check(stdRejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(rejected: .badData) }.result?.error as? APIError == .badData, "tryFlatMapError on StdPromise")

        // MARK: Result callbacks
        fulfilled.always { _ in }
        fulfilled.always(on: .immediate) { result in log.record("always \(surfaceName(of: result))") }
        cancelled.always(on: .immediate, token: token) { result in log.record("always \(surfaceName(of: result))") }
        check(log.all.contains("always value") && log.all.contains("always cancelled"), "always")
        check(fulfilled.mapResult(on: .immediate) { result -> PromiseResult<String, APIError> in .value("\(result.value ?? 0)") }.result == .value("1"), "mapResult")
        check(rejected.mapResult(on: .immediate, token: token) { _ in PromiseResult<Int, NoError>.value(0) }.result?.value == 0, "mapResult(on:token:_:)")
        check(fulfilled.flatMapResult(on: .immediate) { _ in Promise<Int, APIError>(rejected: .notFound) }.result == .error(.notFound), "flatMapResult")
        _ = cancelled.flatMapResult(on: .immediate, token: token) { Promise<Int, String>(with: $0) }
        check(fulfilled.tryMapResult(on: .immediate) { _ -> PromiseResult<Int, APIError> in throw APIError.badData }.result?.error as? APIError == .badData, "tryMapResult")
        _ = fulfilled.tryMapResult(on: .immediate, token: token) { _ in PromiseResult<Int, APIError>.cancelled }
        check(fulfilled.tryFlatMapResult(on: .immediate) { result in Promise<Int, APIError>(fulfilled: result.value! + 1) }.result?.value == 2, "tryFlatMapResult")
        _ = fulfilled.tryFlatMapResult(on: .immediate, token: token) { _ -> Promise<Int, APIError> in throw APIError.notFound }
        check(fulfilled.tap(on: .immediate) { _ in } == fulfilled, "tap(on:_:) returns self")
        fulfilled.tap { _ in }
        fulfilled.tap(on: .immediate, token: token) { _ in }
        check(fulfilled.tap().result == .value(1), "tap()")
        cancelled.onCancel { }
        cancelled.onCancel(on: .immediate) { log.record("onCancel") }
        cancelled.onCancel(on: .immediate, token: token, { })
        check(log.all.contains("onCancel"), "onCancel")

        // MARK: Void promises: zero-parameter closures for a Void value
        let done = StdPromise<Void>(on: .immediate) { resolver in resolver.fulfill(with: ()) }
        _ = done.then(on: .immediate) { log.record("void then") }
        check(done.map(on: .immediate) { 1 }.result?.value == 1, "map of a Void promise")
        check(log.all.contains("void then"), "then of a Void promise")
        let (voidPromise, voidResolver) = Promise<Void, NoError>.makeWithResolver()
        voidResolver.fulfill(with: ())
        check(voidPromise.result?.value != nil, "Promise<Void, NoError>")

        // MARK: Value callbacks where Error == Swift.Error
        _ = std.tryThen { _ in }
        _ = std.tryThen(on: .immediate) { _ in throw APIError.badData }
        _ = std.tryThen(on: .immediate, token: token, { _ in })
        check(std.tryMap(on: .immediate) { $0 + 1 }.result?.value == 2, "tryMap")
        check(std.tryMap(on: .immediate, token: token) { _ -> Int in throw APIError.notFound }.result?.error as? APIError == .notFound, "tryMap throwing")
        check(std.tryFlatMap(on: .immediate) { Promise<String, APIError>(fulfilled: "\($0)") }.result?.value == "1", "tryFlatMap")
        _ = std.tryFlatMap(on: .immediate, token: token) { _ -> Promise<Int, APIError> in throw APIError.badData }

        // MARK: Cancellation
        let (pending, pendingResolver) = Promise<Int, String>.makeWithResolver()
        pendingResolver.onRequestCancel(on: .immediate) { resolver in
            log.record("onRequestCancel \(resolver.hasRequestedCancel)")
            resolver.cancel()
        }
        check(!pendingResolver.hasRequestedCancel, "hasRequestedCancel before a request")
        let child = pending.makeChild()
        let ignoring = pending.ignoringCancel()
        let propagating = pending.propagatingCancellation(on: .immediate) { _ in log.record("cancelRequested") }
        let cancellable: PromiseCancellable = pending.cancellable
        check(pending.requestCancelOnInvalidate(token) == pending, "requestCancelOnInvalidate returns self")
        check(pending.fork { _ = $0.then(on: .immediate) { _ in } } == pending, "fork returns self")
        child.requestCancel()
        ignoring.requestCancel()
        propagating.requestCancel()
        check(log.all.contains("cancelRequested"), "propagatingCancellation(on:cancelRequested:)")
        cancellable.requestCancel()
        check(pending.result?.isCancelled == true, "PromiseCancellable.requestCancel()")
        check(log.all.contains("onRequestCancel true"), "Resolver.onRequestCancel(on:_:)")
        do {
            _ = try fulfilled.fork { _ in throw APIError.badData }
            check(false, "fork rethrows")
        } catch {
            check(error as? APIError == .badData, "fork rethrows")
        }
        let requestCancel: () -> Void = fulfilled.requestCancel
        requestCancel()
        check(fulfilled.result == .value(1), "requestCancel on a resolved promise does nothing")

        // MARK: Resolver
        let (resolved, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.resolve(with: .error("first"))
        resolver.fulfill(with: 1)
        resolver.reject(with: "second")
        resolver.cancel()
        check(resolved.result == .error("first"), "first resolution wins")
        let (piped, pipeResolver) = Promise<Int, String>.makeWithResolver()
        pipeResolver.resolve(with: fulfilled)
        check(piped.result == .value(1), "resolve(with: promise)")
        let (stdFromResult, stdResolver) = StdPromise<Int>.makeWithResolver()
        stdResolver.resolve(with: PromiseResult<Int, APIError>.error(.notFound))
        check(stdFromResult.result?.error as? APIError == .notFound, "resolve<E>(with:) where Error == Swift.Error")
        let (fromSwiftResult, swiftResultResolver) = Promise<Int, APIError>.makeWithResolver()
        swiftResultResolver.resolve(with: Result<Int, APIError>.success(2))
        check(fromSwiftResult.result == .value(2), "resolve(with: Result)")
        let (fromCallback, callbackResolver) = StdPromise<Int>.makeWithResolver()
        let callback: (Int?, Swift.Error?) -> Void = callbackResolver.handleCallback()
        callback(nil, nil)
        check(fromCallback.result?.error as? PromiseCallbackError == .apiMismatch, "handleCallback()")
        let (cancelledByCallback, cancelResolver) = StdPromise<Int>.makeWithResolver()
        cancelResolver.handleCallback(isCancelError: { $0 is CancellationError })(nil, CancellationError())
        check(cancelledByCallback.result?.isCancelled == true, "handleCallback(isCancelError:)")
        let fulfill: (Int) -> Void = madeResolver.fulfill(with:)
        fulfill(0)

        // MARK: Utilities
        _ = fulfilled.delay(0.01)
        _ = fulfilled.delay(on: .utility, 0.01)
        let timedOut = fulfilled.timeout(delay: 1)
        let _: Promise<Int, PromiseTimeoutError<String>> = timedOut
        check(timedOut.result == .value(1), "timeout(delay:) on a resolved promise resolves at once")
        check(rejected.timeout(on: .immediate, delay: 1).result == .error(.rejected("bad")), "timeout(on:delay:)")
        let stdTimedOut = std.timeout(delay: 1)
        let _: Promise<Int, Swift.Error> = stdTimedOut  // the Error == Swift.Error overload wins
        _ = std.timeout(on: .utility, delay: 0.01)
        let neverResolved = Promise<Int, String>.makeWithResolver()
        check(neverResolved.0.timeout(on: .immediate, delay: 0).result == .error(.timedOut), "timeout with delay 0 on .immediate fires at once")
        let (stdPending, stdPendingResolver) = StdPromise<Int>.makeWithResolver()
        if case PromiseTimeoutError<Swift.Error>.timedOut? = stdPending.timeout(on: .immediate, delay: 0).result?.error {
            log.record("timed out")
        }
        check(log.all.contains("timed out"), "a StdPromise timeout is PromiseTimeoutError<Swift.Error>.timedOut")
        stdPendingResolver.cancel()
        check(fulfilled == fulfilled && fulfilled != rejected, "Promise: Equatable")
        let upcast: StdPromise<Int> = Promise<Int, APIError>(rejected: .notFound).upcast
        check(upcast.result?.error as? APIError == .notFound, "upcast where Error: Swift.Error")
        let noErrorUpcast: StdPromise<Int> = recovered.upcast
        check(noErrorUpcast.result?.value == 3, "upcast where Error == NoError")

        // MARK: when
        let all: Promise<[Int], String> = when(fulfilled: [fulfilled, Promise(fulfilled: 2)])
        check(all.result == .value([1, 2]), "when(fulfilled: [])")
        _ = when(fulfilled: [fulfilled], qos: .utility, cancelOnFailure: true)
        let two = when(fulfilled: fulfilled, Promise<String, String>(fulfilled: "b"))
        check(two.result?.value.map { "\($0.0)\($0.1)" } == "1b", "when(fulfilled: a, b)")
        let six = when(fulfilled: fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, Promise<String, String>(fulfilled: "f"), qos: .userInitiated, cancelOnFailure: false)
        check(six.result?.value?.5 == "f", "when(fulfilled: a, b, c, d, e, f)")
        _ = when(fulfilled: fulfilled, fulfilled, fulfilled)
        _ = when(fulfilled: fulfilled, fulfilled, fulfilled, fulfilled, cancelOnFailure: true)
        _ = when(fulfilled: fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, qos: .background)
        let whenTwo: (Promise<Int, String>, Promise<String, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, String), String> = when(fulfilled:_:qos:cancelOnFailure:)
        let whenThree: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int), String> = when(fulfilled:_:_:qos:cancelOnFailure:)
        let whenFour: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int, Int), String> = when(fulfilled:_:_:_:qos:cancelOnFailure:)
        let whenFive: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int, Int, Int), String> = when(fulfilled:_:_:_:_:qos:cancelOnFailure:)
        let whenSix: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int, Int, Int, Int), String> = when(fulfilled:_:_:_:_:_:qos:cancelOnFailure:)
        check(whenTwo(fulfilled, Promise(fulfilled: "b"), .default, false).result?.value?.1 == "b", "when(fulfilled:_:qos:cancelOnFailure:) by its 1.x name")
        check(whenThree(fulfilled, fulfilled, rejected, .default, true).result?.error == "bad", "when(fulfilled:_:_:qos:cancelOnFailure:)")
        check(whenFour(fulfilled, fulfilled, fulfilled, fulfilled, .utility, false).result?.value?.3 == 1, "when(fulfilled:_:_:_:qos:cancelOnFailure:)")
        check(whenFive(fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, .default, false).result?.value?.4 == 1, "when(fulfilled:_:_:_:_:qos:cancelOnFailure:)")
        check(whenSix(fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, cancelled, .default, false).result?.isCancelled == true, "when(fulfilled:_:_:_:_:_:qos:cancelOnFailure:)")
        _ = two.then(on: .immediate) { (a, b) in log.record("when \(a) \(b)") }
        check(log.all.contains("when 1 b"), "the tuple destructures")
        check(when(first: [rejected, fulfilled]).result == .error("bad"), "when(first:)")
        check(when(first: [Promise<Int, String>](), cancelRemaining: true).result?.isCancelled == true, "when(first:cancelRemaining:)")

        // MARK: PromiseResult
        let value: PromiseResult<Int, String> = .value(1)
        let error = PromiseResult<Int, String>.error("e")
        check(value.value == 1 && value.error == nil && !value.isCancelled, "value accessors")
        check(error.error == "e" && PromiseResult<Int, String>.cancelled.isCancelled, "error accessors")
        check(value.map { $0 + 1 } == .value(2) && error.mapError { $0.count } == .error(1), "map, mapError")
        check(value.flatMap { _ in PromiseResult<String, String>.error("x") } == .error("x"), "flatMap")
        check(error.flatMapError { _ in PromiseResult<Int, NoError>.value(0) }.value == 0, "flatMapError")
        check(PromiseResult<Int, APIError>(Result<Int, APIError>.failure(.badData)) == .error(.badData), "init(Result)")
        check(value != error && surfaceName(of: value) == "value", "Equatable")
        check(Set([value, error, value]).count == 2, "Hashable")
        let encoded = try? JSONEncoder().encode([value, error, .cancelled])
        let decoded = encoded.flatMap { try? JSONDecoder().decode([PromiseResult<Int, String>].self, from: $0) }
        check(decoded == [value, error, .cancelled], "Codable")
        let json = (try? JSONEncoder().encode(PromiseResult<Int, String>.value(1))).flatMap { String(data: $0, encoding: .utf8) }
        check(json == #"{"value":1,"error":null}"# || json == #"{"error":null,"value":1}"#, "the 1.x Codable format: \(json ?? "nil")")
        let cancelledJSON = Data(#"{"value":null,"error":null}"#.utf8)
        check((try? JSONDecoder().decode(PromiseResult<Int, String>.self, from: cancelledJSON)) == .cancelled, "both keys nil decode as cancelled")
        check((try? value.map { _ -> Int in throw APIError.badData }) == nil, "PromiseResult.map rethrows")
        let makeValue: (Int) -> PromiseResult<Int, String> = PromiseResult.value
        check(makeValue(3) == .value(3), "case as a function")

        // MARK: Tokens
        let secondToken = PromiseInvalidationToken(invalidateOnDeinit: false)
        secondToken.chainInvalidation(from: token)
        secondToken.chainInvalidation(from: token, includingCancelWithoutInvalidating: false)
        secondToken.requestCancelOnInvalidate(Promise<Int, String>.makeWithResolver().0)
        check(secondToken.debugDescription.contains("callbackLinkedList=("), "debugDescription")
        check(!secondToken.description.isEmpty && !String(describing: secondToken).isEmpty, "description")
        let describable: CustomStringConvertible & CustomDebugStringConvertible = secondToken
        _ = describable
        check(token == token && token != secondToken && Set([token, token, secondToken]).count == 2, "Hashable tokens")
        let tokenForInvalidation = PromiseInvalidationToken()
        let (silenced, silencedResolver) = Promise<Int, String>.makeWithResolver()
        _ = silenced.then(on: .immediate, token: tokenForInvalidation) { _ in log.record("not silenced") }
        tokenForInvalidation.cancelWithoutInvalidating()
        tokenForInvalidation.invalidate()
        silencedResolver.fulfill(with: 1)
        check(!log.all.contains("not silenced"), "invalidate()")

        // MARK: TokenPromise
        let tokenPromise: TokenPromise<Int, String> = fulfilled.withToken(token)
        check(tokenPromise.inner == fulfilled && tokenPromise.token == token, "inner, token")
        check(TokenPromise(promise: fulfilled, token: token) == tokenPromise, "init(promise:token:), ==")
        _ = tokenPromise.then { _ in }
        _ = tokenPromise.then(on: .immediate) { value in log.record("token then \(value)") }
        check(log.all.contains("token then 1"), "TokenPromise.then")
        check(tokenPromise.map(on: .immediate) { $0 + 1 }.inner.result == .value(2), "TokenPromise.map")
        check(tokenPromise.flatMap(on: .immediate) { Promise<String, String>(fulfilled: "\($0)") }.inner.result == .value("1"), "TokenPromise.flatMap")
        let tokenRejected = rejected.withToken(token)
        tokenRejected.catch { _ in }
        tokenRejected.catch(on: .immediate) { _ in }
        let tokenRecovered: TokenPromise<Int, NoError> = tokenRejected.recover(on: .immediate) { $0.count }
        check(tokenRecovered.inner.result == .value(3), "TokenPromise.recover")
        check(tokenRejected.mapError(on: .immediate) { $0.count }.inner.result == .error(3), "TokenPromise.mapError")
        _ = tokenRejected.flatMapError(on: .immediate) { _ in Promise<Int, APIError>(rejected: .notFound) }
        let tokenTriedMapError: TokenPromise<Int, Swift.Error> = tokenRejected.tryMapError(on: .immediate) { _ in APIError.badData }
        check(tokenTriedMapError.inner.result?.error as? APIError == .badData, "TokenPromise.tryMapError")
        _ = tokenRejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 0) }
        tokenPromise.always { _ in }
        tokenPromise.always(on: .immediate) { _ in }
        check(tokenPromise.mapResult(on: .immediate, onComplete: { $0.map(String.init) }).inner.result == .value("1"), "TokenPromise.mapResult(on:onComplete:)")
        _ = tokenPromise.mapResult(on: .immediate) { $0.mapError { $0.count } }
        _ = tokenPromise.flatMapResult(on: .immediate) { Promise<Int, String>(with: $0) }
        _ = tokenPromise.tryMapResult(on: .immediate) { _ -> PromiseResult<Int, APIError> in throw APIError.notFound }
        _ = tokenPromise.tryFlatMapResult(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 1) }
        tokenPromise.tap { _ in }
        tokenPromise.tap(on: .immediate) { _ in }
        check(tokenPromise.tap().inner.result == .value(1), "TokenPromise.tap()")
        tokenPromise.onCancel { }
        tokenPromise.onCancel(on: .immediate) { }
        check(tokenPromise.fork { _ = $0.then(on: .immediate) { _ in } } == tokenPromise, "TokenPromise.fork")
        _ = tokenPromise.ignoringCancel()
        let stdTokenPromise = std.withToken(token)
        _ = stdTokenPromise.tryThen { _ in }
        _ = stdTokenPromise.tryThen(on: .immediate) { _ in throw APIError.badData }
        check(stdTokenPromise.tryMap(on: .immediate) { $0 + 1 }.inner.result?.value == 2, "TokenPromise.tryMap")
        _ = stdTokenPromise.tryFlatMap(on: .immediate) { _ in Promise<Int, APIError>(rejected: .badData) }
        _ = stdRejected.withToken(token).tryRecover(on: .immediate) { _ in 0 }
        let stdTokenFlatMapError: TokenPromise<Int, Swift.Error> = stdRejected.withToken(token).tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 1) }
        check(stdTokenFlatMapError.inner.result?.value == 1, "TokenPromise.tryFlatMapError where Error == Swift.Error")
        requireEquatable(TokenPromise<Int, String>.self)

        // MARK: DelayedPromise and PromiseOperation
        let delayed = DelayedPromise<Int, String>(on: .immediate) { resolver in resolver.fulfill(with: 1) }
        let delayedResolverType: DelayedPromise<Int, String>.Resolver.Type = Promise<Int, String>.Resolver.self
        _ = delayedResolverType
        check(delayed.promise == delayed.promise && delayed == delayed, "DelayedPromise.promise, ==")
        check(delayed.promise.result == .value(1), "DelayedPromise(on: .immediate)")
        _ = DelayedPromise<Int, String>(on: .utility, { $0.fulfill(with: 2) })
        let operation = PromiseOperation<Int, String>(on: .immediate) { resolver in resolver.fulfill(with: 1) }
        let operationResolverType: PromiseOperation<Int, String>.Resolver.Type = Promise<Int, String>.Resolver.self
        _ = operationResolverType
        let asOperation: Operation = operation
        check(asOperation.isAsynchronous && !operation.isExecuting && !operation.isFinished, "PromiseOperation: Operation")
        check(operation.promise == operation.promise && operation.promise.result == nil, "PromiseOperation.promise before start()")
        operation.start()
        check(operation.isFinished && operation.promise.result == .value(1), "PromiseOperation.start()")
        let cancelledOperation = PromiseOperation<Int, String>(on: .utility) { $0.fulfill(with: 2) }
        cancelledOperation.cancel()
        operationQueue.addOperation(cancelledOperation)

        // MARK: Error types
        requireHashable(NoError.self)
        check((try? JSONDecoder().decode([NoError].self, from: Data("[{}]".utf8))) == nil, "NoError never decodes")
        requireCodable(NoError.self)
        check(PromiseCallbackError.apiMismatch.rawValue == 0 && PromiseCallbackError(rawValue: 0) == .apiMismatch, "PromiseCallbackError")
        check(surfaceName(of: PromiseCallbackError.apiMismatch) == "apiMismatch", "PromiseCallbackError case")
        requireError(PromiseCallbackError.self)
        let timeoutError = PromiseTimeoutError<String>.rejected("e")
        check(timeoutError == .rejected("e") && timeoutError != .timedOut, "PromiseTimeoutError ==, !=")
        check(Set([timeoutError, .timedOut, timeoutError]).count == 2, "PromiseTimeoutError: Hashable")
        check(PromiseTimeoutError<Int>.timedOut.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String == "The operation timed out.", "errorUserInfo")
        check(surfaceName(of: timeoutError) == "rejected", "PromiseTimeoutError cases")
        requireCustomNSError(PromiseTimeoutError<String>.self)
        requireError(PromiseTimeoutError<NoError>.self)
        // surface:end
        _ = state
        return failures
    }
}

/// 1.x client code moved into an actor.
actor ActorSurfaceClient {
    var state = 0

    func exercise() -> [String] {
        // surface:begin
        var failures: [String] = []
        func check(_ ok: Bool, _ what: String, line: Int = #line) {
            if !ok { failures.append("line \(line): \(what)") }
        }
        let log = SurfaceLog()
        let queue = DispatchQueue(label: "surface.queue")
        let operationQueue = OperationQueue()
        let token = PromiseInvalidationToken()
        let fulfilled = Promise<Int, String>(fulfilled: 1)
        let rejected = Promise<Int, String>(rejected: "bad")
        let cancelled = Promise<Int, String>(with: .cancelled)

        // MARK: Typealiases
        let std: StdPromise<Int> = Promise<Int, Swift.Error>(fulfilled: 1)
        let stdDelayed: StdDelayedPromise<Int> = DelayedPromise<Int, Swift.Error>(on: .immediate) { $0.fulfill(with: 2) }
        let stdOperation: StdPromiseOperation<Int> = PromiseOperation<Int, Swift.Error>(on: .immediate) { $0.fulfill(with: 3) }
        check(std.result?.value == 1, "StdPromise")
        check(stdDelayed.promise.result?.value == 2, "StdDelayedPromise, .immediate runs on first access")
        stdOperation.start()
        check(stdOperation.promise.result?.value == 3, "StdPromiseOperation, .immediate runs in start()")

        // MARK: PromiseContext
        let contexts: [PromiseContext] = [
            .main, .background, .utility, .default, .userInitiated, .userInteractive,
            .queue(queue), .operationQueue(operationQueue), .immediate, .nowOr(.main),
            .auto, PromiseContext(qos: .utility), .nowOr(.nowOr(.queue(queue))),
        ]
        check(Set(contexts).count == 11, "PromiseContext: Hashable; .auto and init(qos:) give existing cases")
        check(PromiseContext.queue(queue) == .queue(queue) && PromiseContext.queue(queue) != .queue(DispatchQueue(label: "surface.queue")), "queues compare by identity")
        check(contexts.map(surfaceName(of:)).count == 13, "every case named")
        check(PromiseContext.auto == .main || PromiseContext.auto == .default, ".auto")
        check(!PromiseContext.isExecutingNow, "isExecutingNow outside a callback")
        let makeContext: (DispatchQoS.QoSClass) -> PromiseContext = PromiseContext.init(qos:)
        let queueCase: (DispatchQueue) -> PromiseContext = PromiseContext.queue
        check(makeContext(.userInitiated) == .userInitiated && queueCase(queue) == .queue(queue), "function references")
        requireHashable(PromiseContext.self)

        // MARK: Promise creation
        let (made, madeResolver) = Promise<Int, String>.makeWithResolver()
        let makePair: () -> (Promise<Int, String>, Promise<Int, String>.Resolver) = Promise<Int, String>.makeWithResolver
        _ = makePair()
        check(made.result == nil, "makeWithResolver: pending")
        madeResolver.fulfill(with: 4)
        check(made.result == .value(4), "Resolver.fulfill(with:)")
        let handled = Promise<Int, String>(on: .immediate) { resolver in
            resolver.fulfill(with: 5)
        }
        check(handled.result?.value == 5, "init(on:_:) with .immediate runs before returning")
        let handledNowOr = Promise<Int, String>(on: .nowOr(.utility), { resolver in
            log.record("nowOr \(PromiseContext.isExecutingNow)")
            resolver.reject(with: "nowOr")
        })
        check(handledNowOr.result?.error == "nowOr", "init(on: .nowOr) runs synchronously")
        check(log.all.contains("nowOr true"), "isExecutingNow in a synchronous .nowOr handler")
        _ = Promise<Int, String>(on: .utility) { $0.fulfill(with: 6) }
        _ = Promise<Int, String>(on: .queue(queue)) { $0.cancel() }
        _ = Promise<Int, String>(on: .operationQueue(operationQueue)) { $0.fulfill(with: 7) }
        check(Promise<Int, String>(with: .value(8)).result == .value(8), "init(with:)")
        check(rejected.result == .error("bad"), "init(rejected:)")
        check(cancelled.result?.isCancelled == true, "init(with: .cancelled)")
        let makeFulfilled: (Int) -> Promise<Int, String> = Promise.init(fulfilled:)
        check(makeFulfilled(9).result?.value == 9, "Promise.init(fulfilled:) as a function")
        let thrown = StdPromise<Int>(on: .immediate) { _ in throw APIError.notFound }
        check(thrown.result?.error as? APIError == .notFound, "throwing init(on:_:) where Error == Swift.Error")
        let stdHandled = StdPromise<Int>(on: .immediate) { resolver in resolver.fulfill(with: 10) }
        check(stdHandled.result?.value == 10, "init(on:_:) for StdPromise with a non-throwing handler")
        check(Promise<Int, APIError>(with: Result<Int, APIError>.success(11)).result == .value(11), "init(with: Result)")
        check(StdPromise<Int>(with: Result<Int, Swift.Error>.failure(APIError.badData)).result?.error as? APIError == .badData, "init(with: Result) for StdPromise")
        _ = Promise<Int, String>(fulfilled: 12, after: 0.01)
        _ = Promise<Int, String>(on: .utility, fulfilled: 12, after: 0.01)
        _ = Promise<Int, String>(rejected: "later", after: 0.01)
        _ = Promise<Int, String>(on: .queue(queue), rejected: "later", after: 0.01)
        _ = Promise<Int, String>(with: .value(13), after: 0.01)
        _ = Promise<Int, String>(on: .operationQueue(operationQueue), with: .cancelled, after: 0.01)

        // MARK: Value callbacks
        let thenResult = fulfilled.then(on: .immediate) { value in log.record("then \(value)") }
        check(thenResult == fulfilled || thenResult.result == .value(1), "then returns a promise of the same result")
        check(log.all.contains("then 1"), "then(on: .immediate) on a resolved promise runs at once")
        let thenSingleExpression = fulfilled.then(on: .immediate) { log.count($0) }
        let _: Promise<Int, String> = thenSingleExpression  // a non-Void closure still picks then(_:) -> Void
        _ = fulfilled.then { _ in }
        _ = fulfilled.then(token: token) { _ in }
        _ = fulfilled.then(on: .main, token: token) { _ in }
        _ = fulfilled.then(on: .utility, { _ in })
        check(fulfilled.map(on: .immediate) { $0 * 10 }.result == .value(10), "map")
        check(fulfilled.map(on: .immediate, token: token) { String($0) }.result == .value("1"), "map(on:token:_:)")
        check(rejected.map(on: .immediate) { $0 * 10 }.result == .error("bad"), "map passes the error through")
        check(fulfilled.flatMap(on: .immediate) { Promise<String, String>(fulfilled: "\($0)") }.result == .value("1"), "flatMap")
        check(fulfilled.flatMap(on: .immediate, token: token) { _ in rejected }.result == .error("bad"), "flatMap(on:token:_:)")
        _ = fulfilled.map(on: .main) { $0 }
        _ = fulfilled.flatMap(on: .default) { Promise<Int, String>(fulfilled: $0) }

        // MARK: Error callbacks
        rejected.catch { _ in }
        rejected.catch(on: .immediate) { error in log.record("catch \(error)") }
        rejected.catch(on: .immediate, token: token, { _ in })
        check(log.all.contains("catch bad"), "catch")
        let recovered: Promise<Int, NoError> = rejected.recover(on: .immediate) { $0.count }
        check(recovered.result == .value(3), "recover gives Promise<Value, NoError>")
        check(rejected.recover(on: .immediate, token: token) { _ in 0 }.result?.value == 0, "recover(on:token:_:)")
        check(rejected.mapError(on: .immediate) { $0.count }.result == .error(3), "mapError")
        check(rejected.mapError(on: .immediate, token: token) { _ in APIError.badData }.result == .error(.badData), "mapError(on:token:_:)")
        check(rejected.flatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 2) }.result == .value(2), "flatMapError")
        _ = rejected.flatMapError(on: .immediate, token: token) { Promise<Int, Int>(rejected: $0.count) }
        let triedMapError: Promise<Int, Swift.Error> = rejected.tryMapError(on: .immediate) { _ in APIError.notFound }
        check(triedMapError.result?.error as? APIError == .notFound, "tryMapError gives Promise<Value, Swift.Error>")
        check(rejected.tryMapError(on: .immediate, token: token) { _ -> APIError in throw APIError.badData }.result?.error as? APIError == .badData, "tryMapError throwing")
        check(rejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 4) }.result?.value == 4, "tryFlatMapError")
        _ = rejected.tryFlatMapError(on: .immediate, token: token) { _ -> Promise<Int, APIError> in throw APIError.notFound }
        let stdRejected = StdPromise<Int>(rejected: APIError.notFound)
        check(stdRejected.tryRecover(on: .immediate) { _ in 5 }.result?.value == 5, "tryRecover")
        check(stdRejected.tryRecover(on: .immediate, token: token) { throw $0 }.result?.error as? APIError == .notFound, "tryRecover rethrowing")
        check(stdRejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(rejected: .badData) }.result?.error as? APIError == .badData, "tryFlatMapError on StdPromise")

        // MARK: Result callbacks
        fulfilled.always { _ in }
        fulfilled.always(on: .immediate) { result in log.record("always \(surfaceName(of: result))") }
        cancelled.always(on: .immediate, token: token) { result in log.record("always \(surfaceName(of: result))") }
        check(log.all.contains("always value") && log.all.contains("always cancelled"), "always")
        check(fulfilled.mapResult(on: .immediate) { result -> PromiseResult<String, APIError> in .value("\(result.value ?? 0)") }.result == .value("1"), "mapResult")
        check(rejected.mapResult(on: .immediate, token: token) { _ in PromiseResult<Int, NoError>.value(0) }.result?.value == 0, "mapResult(on:token:_:)")
        check(fulfilled.flatMapResult(on: .immediate) { _ in Promise<Int, APIError>(rejected: .notFound) }.result == .error(.notFound), "flatMapResult")
        _ = cancelled.flatMapResult(on: .immediate, token: token) { Promise<Int, String>(with: $0) }
        check(fulfilled.tryMapResult(on: .immediate) { _ -> PromiseResult<Int, APIError> in throw APIError.badData }.result?.error as? APIError == .badData, "tryMapResult")
        _ = fulfilled.tryMapResult(on: .immediate, token: token) { _ in PromiseResult<Int, APIError>.cancelled }
        check(fulfilled.tryFlatMapResult(on: .immediate) { result in Promise<Int, APIError>(fulfilled: result.value! + 1) }.result?.value == 2, "tryFlatMapResult")
        _ = fulfilled.tryFlatMapResult(on: .immediate, token: token) { _ -> Promise<Int, APIError> in throw APIError.notFound }
        check(fulfilled.tap(on: .immediate) { _ in } == fulfilled, "tap(on:_:) returns self")
        fulfilled.tap { _ in }
        fulfilled.tap(on: .immediate, token: token) { _ in }
        check(fulfilled.tap().result == .value(1), "tap()")
        cancelled.onCancel { }
        cancelled.onCancel(on: .immediate) { log.record("onCancel") }
        cancelled.onCancel(on: .immediate, token: token, { })
        check(log.all.contains("onCancel"), "onCancel")

        // MARK: Void promises: zero-parameter closures for a Void value
        let done = StdPromise<Void>(on: .immediate) { resolver in resolver.fulfill(with: ()) }
        _ = done.then(on: .immediate) { log.record("void then") }
        check(done.map(on: .immediate) { 1 }.result?.value == 1, "map of a Void promise")
        check(log.all.contains("void then"), "then of a Void promise")
        let (voidPromise, voidResolver) = Promise<Void, NoError>.makeWithResolver()
        voidResolver.fulfill(with: ())
        check(voidPromise.result?.value != nil, "Promise<Void, NoError>")

        // MARK: Value callbacks where Error == Swift.Error
        _ = std.tryThen { _ in }
        _ = std.tryThen(on: .immediate) { _ in throw APIError.badData }
        _ = std.tryThen(on: .immediate, token: token, { _ in })
        check(std.tryMap(on: .immediate) { $0 + 1 }.result?.value == 2, "tryMap")
        check(std.tryMap(on: .immediate, token: token) { _ -> Int in throw APIError.notFound }.result?.error as? APIError == .notFound, "tryMap throwing")
        check(std.tryFlatMap(on: .immediate) { Promise<String, APIError>(fulfilled: "\($0)") }.result?.value == "1", "tryFlatMap")
        _ = std.tryFlatMap(on: .immediate, token: token) { _ -> Promise<Int, APIError> in throw APIError.badData }

        // MARK: Cancellation
        let (pending, pendingResolver) = Promise<Int, String>.makeWithResolver()
        pendingResolver.onRequestCancel(on: .immediate) { resolver in
            log.record("onRequestCancel \(resolver.hasRequestedCancel)")
            resolver.cancel()
        }
        check(!pendingResolver.hasRequestedCancel, "hasRequestedCancel before a request")
        let child = pending.makeChild()
        let ignoring = pending.ignoringCancel()
        let propagating = pending.propagatingCancellation(on: .immediate) { _ in log.record("cancelRequested") }
        let cancellable: PromiseCancellable = pending.cancellable
        check(pending.requestCancelOnInvalidate(token) == pending, "requestCancelOnInvalidate returns self")
        check(pending.fork { _ = $0.then(on: .immediate) { _ in } } == pending, "fork returns self")
        child.requestCancel()
        ignoring.requestCancel()
        propagating.requestCancel()
        check(log.all.contains("cancelRequested"), "propagatingCancellation(on:cancelRequested:)")
        cancellable.requestCancel()
        check(pending.result?.isCancelled == true, "PromiseCancellable.requestCancel()")
        check(log.all.contains("onRequestCancel true"), "Resolver.onRequestCancel(on:_:)")
        do {
            _ = try fulfilled.fork { _ in throw APIError.badData }
            check(false, "fork rethrows")
        } catch {
            check(error as? APIError == .badData, "fork rethrows")
        }
        let requestCancel: () -> Void = fulfilled.requestCancel
        requestCancel()
        check(fulfilled.result == .value(1), "requestCancel on a resolved promise does nothing")

        // MARK: Resolver
        let (resolved, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.resolve(with: .error("first"))
        resolver.fulfill(with: 1)
        resolver.reject(with: "second")
        resolver.cancel()
        check(resolved.result == .error("first"), "first resolution wins")
        let (piped, pipeResolver) = Promise<Int, String>.makeWithResolver()
        pipeResolver.resolve(with: fulfilled)
        check(piped.result == .value(1), "resolve(with: promise)")
        let (stdFromResult, stdResolver) = StdPromise<Int>.makeWithResolver()
        stdResolver.resolve(with: PromiseResult<Int, APIError>.error(.notFound))
        check(stdFromResult.result?.error as? APIError == .notFound, "resolve<E>(with:) where Error == Swift.Error")
        let (fromSwiftResult, swiftResultResolver) = Promise<Int, APIError>.makeWithResolver()
        swiftResultResolver.resolve(with: Result<Int, APIError>.success(2))
        check(fromSwiftResult.result == .value(2), "resolve(with: Result)")
        let (fromCallback, callbackResolver) = StdPromise<Int>.makeWithResolver()
        let callback: (Int?, Swift.Error?) -> Void = callbackResolver.handleCallback()
        callback(nil, nil)
        check(fromCallback.result?.error as? PromiseCallbackError == .apiMismatch, "handleCallback()")
        let (cancelledByCallback, cancelResolver) = StdPromise<Int>.makeWithResolver()
        cancelResolver.handleCallback(isCancelError: { $0 is CancellationError })(nil, CancellationError())
        check(cancelledByCallback.result?.isCancelled == true, "handleCallback(isCancelError:)")
        let fulfill: (Int) -> Void = madeResolver.fulfill(with:)
        fulfill(0)

        // MARK: Utilities
        _ = fulfilled.delay(0.01)
        _ = fulfilled.delay(on: .utility, 0.01)
        let timedOut = fulfilled.timeout(delay: 1)
        let _: Promise<Int, PromiseTimeoutError<String>> = timedOut
        check(timedOut.result == .value(1), "timeout(delay:) on a resolved promise resolves at once")
        check(rejected.timeout(on: .immediate, delay: 1).result == .error(.rejected("bad")), "timeout(on:delay:)")
        let stdTimedOut = std.timeout(delay: 1)
        let _: Promise<Int, Swift.Error> = stdTimedOut  // the Error == Swift.Error overload wins
        _ = std.timeout(on: .utility, delay: 0.01)
        let neverResolved = Promise<Int, String>.makeWithResolver()
        check(neverResolved.0.timeout(on: .immediate, delay: 0).result == .error(.timedOut), "timeout with delay 0 on .immediate fires at once")
        let (stdPending, stdPendingResolver) = StdPromise<Int>.makeWithResolver()
        if case PromiseTimeoutError<Swift.Error>.timedOut? = stdPending.timeout(on: .immediate, delay: 0).result?.error {
            log.record("timed out")
        }
        check(log.all.contains("timed out"), "a StdPromise timeout is PromiseTimeoutError<Swift.Error>.timedOut")
        stdPendingResolver.cancel()
        check(fulfilled == fulfilled && fulfilled != rejected, "Promise: Equatable")
        let upcast: StdPromise<Int> = Promise<Int, APIError>(rejected: .notFound).upcast
        check(upcast.result?.error as? APIError == .notFound, "upcast where Error: Swift.Error")
        let noErrorUpcast: StdPromise<Int> = recovered.upcast
        check(noErrorUpcast.result?.value == 3, "upcast where Error == NoError")

        // MARK: when
        let all: Promise<[Int], String> = when(fulfilled: [fulfilled, Promise(fulfilled: 2)])
        check(all.result == .value([1, 2]), "when(fulfilled: [])")
        _ = when(fulfilled: [fulfilled], qos: .utility, cancelOnFailure: true)
        let two = when(fulfilled: fulfilled, Promise<String, String>(fulfilled: "b"))
        check(two.result?.value.map { "\($0.0)\($0.1)" } == "1b", "when(fulfilled: a, b)")
        let six = when(fulfilled: fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, Promise<String, String>(fulfilled: "f"), qos: .userInitiated, cancelOnFailure: false)
        check(six.result?.value?.5 == "f", "when(fulfilled: a, b, c, d, e, f)")
        _ = when(fulfilled: fulfilled, fulfilled, fulfilled)
        _ = when(fulfilled: fulfilled, fulfilled, fulfilled, fulfilled, cancelOnFailure: true)
        _ = when(fulfilled: fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, qos: .background)
        let whenTwo: (Promise<Int, String>, Promise<String, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, String), String> = when(fulfilled:_:qos:cancelOnFailure:)
        let whenThree: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int), String> = when(fulfilled:_:_:qos:cancelOnFailure:)
        let whenFour: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int, Int), String> = when(fulfilled:_:_:_:qos:cancelOnFailure:)
        let whenFive: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int, Int, Int), String> = when(fulfilled:_:_:_:_:qos:cancelOnFailure:)
        let whenSix: (Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, Promise<Int, String>, DispatchQoS.QoSClass, Bool) -> Promise<(Int, Int, Int, Int, Int, Int), String> = when(fulfilled:_:_:_:_:_:qos:cancelOnFailure:)
        check(whenTwo(fulfilled, Promise(fulfilled: "b"), .default, false).result?.value?.1 == "b", "when(fulfilled:_:qos:cancelOnFailure:) by its 1.x name")
        check(whenThree(fulfilled, fulfilled, rejected, .default, true).result?.error == "bad", "when(fulfilled:_:_:qos:cancelOnFailure:)")
        check(whenFour(fulfilled, fulfilled, fulfilled, fulfilled, .utility, false).result?.value?.3 == 1, "when(fulfilled:_:_:_:qos:cancelOnFailure:)")
        check(whenFive(fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, .default, false).result?.value?.4 == 1, "when(fulfilled:_:_:_:_:qos:cancelOnFailure:)")
        check(whenSix(fulfilled, fulfilled, fulfilled, fulfilled, fulfilled, cancelled, .default, false).result?.isCancelled == true, "when(fulfilled:_:_:_:_:_:qos:cancelOnFailure:)")
        _ = two.then(on: .immediate) { (a, b) in log.record("when \(a) \(b)") }
        check(log.all.contains("when 1 b"), "the tuple destructures")
        check(when(first: [rejected, fulfilled]).result == .error("bad"), "when(first:)")
        check(when(first: [Promise<Int, String>](), cancelRemaining: true).result?.isCancelled == true, "when(first:cancelRemaining:)")

        // MARK: PromiseResult
        let value: PromiseResult<Int, String> = .value(1)
        let error = PromiseResult<Int, String>.error("e")
        check(value.value == 1 && value.error == nil && !value.isCancelled, "value accessors")
        check(error.error == "e" && PromiseResult<Int, String>.cancelled.isCancelled, "error accessors")
        check(value.map { $0 + 1 } == .value(2) && error.mapError { $0.count } == .error(1), "map, mapError")
        check(value.flatMap { _ in PromiseResult<String, String>.error("x") } == .error("x"), "flatMap")
        check(error.flatMapError { _ in PromiseResult<Int, NoError>.value(0) }.value == 0, "flatMapError")
        check(PromiseResult<Int, APIError>(Result<Int, APIError>.failure(.badData)) == .error(.badData), "init(Result)")
        check(value != error && surfaceName(of: value) == "value", "Equatable")
        check(Set([value, error, value]).count == 2, "Hashable")
        let encoded = try? JSONEncoder().encode([value, error, .cancelled])
        let decoded = encoded.flatMap { try? JSONDecoder().decode([PromiseResult<Int, String>].self, from: $0) }
        check(decoded == [value, error, .cancelled], "Codable")
        let json = (try? JSONEncoder().encode(PromiseResult<Int, String>.value(1))).flatMap { String(data: $0, encoding: .utf8) }
        check(json == #"{"value":1,"error":null}"# || json == #"{"error":null,"value":1}"#, "the 1.x Codable format: \(json ?? "nil")")
        let cancelledJSON = Data(#"{"value":null,"error":null}"#.utf8)
        check((try? JSONDecoder().decode(PromiseResult<Int, String>.self, from: cancelledJSON)) == .cancelled, "both keys nil decode as cancelled")
        check((try? value.map { _ -> Int in throw APIError.badData }) == nil, "PromiseResult.map rethrows")
        let makeValue: (Int) -> PromiseResult<Int, String> = PromiseResult.value
        check(makeValue(3) == .value(3), "case as a function")

        // MARK: Tokens
        let secondToken = PromiseInvalidationToken(invalidateOnDeinit: false)
        secondToken.chainInvalidation(from: token)
        secondToken.chainInvalidation(from: token, includingCancelWithoutInvalidating: false)
        secondToken.requestCancelOnInvalidate(Promise<Int, String>.makeWithResolver().0)
        check(secondToken.debugDescription.contains("callbackLinkedList=("), "debugDescription")
        check(!secondToken.description.isEmpty && !String(describing: secondToken).isEmpty, "description")
        let describable: CustomStringConvertible & CustomDebugStringConvertible = secondToken
        _ = describable
        check(token == token && token != secondToken && Set([token, token, secondToken]).count == 2, "Hashable tokens")
        let tokenForInvalidation = PromiseInvalidationToken()
        let (silenced, silencedResolver) = Promise<Int, String>.makeWithResolver()
        _ = silenced.then(on: .immediate, token: tokenForInvalidation) { _ in log.record("not silenced") }
        tokenForInvalidation.cancelWithoutInvalidating()
        tokenForInvalidation.invalidate()
        silencedResolver.fulfill(with: 1)
        check(!log.all.contains("not silenced"), "invalidate()")

        // MARK: TokenPromise
        let tokenPromise: TokenPromise<Int, String> = fulfilled.withToken(token)
        check(tokenPromise.inner == fulfilled && tokenPromise.token == token, "inner, token")
        check(TokenPromise(promise: fulfilled, token: token) == tokenPromise, "init(promise:token:), ==")
        _ = tokenPromise.then { _ in }
        _ = tokenPromise.then(on: .immediate) { value in log.record("token then \(value)") }
        check(log.all.contains("token then 1"), "TokenPromise.then")
        check(tokenPromise.map(on: .immediate) { $0 + 1 }.inner.result == .value(2), "TokenPromise.map")
        check(tokenPromise.flatMap(on: .immediate) { Promise<String, String>(fulfilled: "\($0)") }.inner.result == .value("1"), "TokenPromise.flatMap")
        let tokenRejected = rejected.withToken(token)
        tokenRejected.catch { _ in }
        tokenRejected.catch(on: .immediate) { _ in }
        let tokenRecovered: TokenPromise<Int, NoError> = tokenRejected.recover(on: .immediate) { $0.count }
        check(tokenRecovered.inner.result == .value(3), "TokenPromise.recover")
        check(tokenRejected.mapError(on: .immediate) { $0.count }.inner.result == .error(3), "TokenPromise.mapError")
        _ = tokenRejected.flatMapError(on: .immediate) { _ in Promise<Int, APIError>(rejected: .notFound) }
        let tokenTriedMapError: TokenPromise<Int, Swift.Error> = tokenRejected.tryMapError(on: .immediate) { _ in APIError.badData }
        check(tokenTriedMapError.inner.result?.error as? APIError == .badData, "TokenPromise.tryMapError")
        _ = tokenRejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 0) }
        tokenPromise.always { _ in }
        tokenPromise.always(on: .immediate) { _ in }
        check(tokenPromise.mapResult(on: .immediate, onComplete: { $0.map(String.init) }).inner.result == .value("1"), "TokenPromise.mapResult(on:onComplete:)")
        _ = tokenPromise.mapResult(on: .immediate) { $0.mapError { $0.count } }
        _ = tokenPromise.flatMapResult(on: .immediate) { Promise<Int, String>(with: $0) }
        _ = tokenPromise.tryMapResult(on: .immediate) { _ -> PromiseResult<Int, APIError> in throw APIError.notFound }
        _ = tokenPromise.tryFlatMapResult(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 1) }
        tokenPromise.tap { _ in }
        tokenPromise.tap(on: .immediate) { _ in }
        check(tokenPromise.tap().inner.result == .value(1), "TokenPromise.tap()")
        tokenPromise.onCancel { }
        tokenPromise.onCancel(on: .immediate) { }
        check(tokenPromise.fork { _ = $0.then(on: .immediate) { _ in } } == tokenPromise, "TokenPromise.fork")
        _ = tokenPromise.ignoringCancel()
        let stdTokenPromise = std.withToken(token)
        _ = stdTokenPromise.tryThen { _ in }
        _ = stdTokenPromise.tryThen(on: .immediate) { _ in throw APIError.badData }
        check(stdTokenPromise.tryMap(on: .immediate) { $0 + 1 }.inner.result?.value == 2, "TokenPromise.tryMap")
        _ = stdTokenPromise.tryFlatMap(on: .immediate) { _ in Promise<Int, APIError>(rejected: .badData) }
        _ = stdRejected.withToken(token).tryRecover(on: .immediate) { _ in 0 }
        let stdTokenFlatMapError: TokenPromise<Int, Swift.Error> = stdRejected.withToken(token).tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 1) }
        check(stdTokenFlatMapError.inner.result?.value == 1, "TokenPromise.tryFlatMapError where Error == Swift.Error")
        requireEquatable(TokenPromise<Int, String>.self)

        // MARK: DelayedPromise and PromiseOperation
        let delayed = DelayedPromise<Int, String>(on: .immediate) { resolver in resolver.fulfill(with: 1) }
        let delayedResolverType: DelayedPromise<Int, String>.Resolver.Type = Promise<Int, String>.Resolver.self
        _ = delayedResolverType
        check(delayed.promise == delayed.promise && delayed == delayed, "DelayedPromise.promise, ==")
        check(delayed.promise.result == .value(1), "DelayedPromise(on: .immediate)")
        _ = DelayedPromise<Int, String>(on: .utility, { $0.fulfill(with: 2) })
        let operation = PromiseOperation<Int, String>(on: .immediate) { resolver in resolver.fulfill(with: 1) }
        let operationResolverType: PromiseOperation<Int, String>.Resolver.Type = Promise<Int, String>.Resolver.self
        _ = operationResolverType
        let asOperation: Operation = operation
        check(asOperation.isAsynchronous && !operation.isExecuting && !operation.isFinished, "PromiseOperation: Operation")
        check(operation.promise == operation.promise && operation.promise.result == nil, "PromiseOperation.promise before start()")
        operation.start()
        check(operation.isFinished && operation.promise.result == .value(1), "PromiseOperation.start()")
        let cancelledOperation = PromiseOperation<Int, String>(on: .utility) { $0.fulfill(with: 2) }
        cancelledOperation.cancel()
        operationQueue.addOperation(cancelledOperation)

        // MARK: Error types
        requireHashable(NoError.self)
        check((try? JSONDecoder().decode([NoError].self, from: Data("[{}]".utf8))) == nil, "NoError never decodes")
        requireCodable(NoError.self)
        check(PromiseCallbackError.apiMismatch.rawValue == 0 && PromiseCallbackError(rawValue: 0) == .apiMismatch, "PromiseCallbackError")
        check(surfaceName(of: PromiseCallbackError.apiMismatch) == "apiMismatch", "PromiseCallbackError case")
        requireError(PromiseCallbackError.self)
        let timeoutError = PromiseTimeoutError<String>.rejected("e")
        check(timeoutError == .rejected("e") && timeoutError != .timedOut, "PromiseTimeoutError ==, !=")
        check(Set([timeoutError, .timedOut, timeoutError]).count == 2, "PromiseTimeoutError: Hashable")
        check(PromiseTimeoutError<Int>.timedOut.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String == "The operation timed out.", "errorUserInfo")
        check(surfaceName(of: timeoutError) == "rejected", "PromiseTimeoutError cases")
        requireCustomNSError(PromiseTimeoutError<String>.self)
        requireError(PromiseTimeoutError<NoError>.self)
        // surface:end
        _ = state
        return failures
    }
}

final class PublicAPISurfaceTests: XCTestCase {
    func testEveryDeclarationFromPlainCode() {
        XCTAssertEqual(PlainSurfaceClient().exercise(), [])
    }

    func testEveryDeclarationFromTheMainActor() {
        let failures = MainActor.assumeIsolated { MainActorSurfaceClient().exercise() }
        XCTAssertEqual(failures, [])
    }

    func testEveryDeclarationFromAnActor() async {
        let failures = await ActorSurfaceClient().exercise()
        XCTAssertEqual(failures, [])
    }

    func testEveryDeclarationByItsFullName() {
        XCTAssertGreaterThan(referenceEveryDeclarationByName(), 100)
        requireEveryConformance()
    }

    func testTheThreeCopiesAreIdentical() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let copies = source.components(separatedBy: "// surface:" + "begin").dropFirst().map {
            $0.components(separatedBy: "// surface:" + "end")[0]
        }
        XCTAssertEqual(copies.count, 3)
        XCTAssertGreaterThan(copies.first?.count ?? 0, 10_000, "the block of calls is read")
        for copy in copies.dropFirst() {
            XCTAssertEqual(copy, copies.first, "the @MainActor and actor copies must be the plain copy, verbatim")
        }
    }
}
