// 1.x-style chains: trailing closures, captured `var`s, `String` errors, non-Sendable values.

import Foundation
import Tomorrowland
import XCTest

/// A non-Sendable model object used as a promise value.
class User {
    var name: String
    var loginCount = 0
    init(name: String) { self.name = name }
}

/// The 1.x README's API calls (IsolatedCallbackTests declares `MyAPI` and its `requestFeed`).
extension MyAPI {
    static var apiKey: String?

    static func fetchUser(named name: String) -> Promise<User, String> {
        return Promise(on: .utility, { (resolver) in
            if name.isEmpty {
                resolver.reject(with: "empty name")
            } else {
                resolver.fulfill(with: User(name: name))
            }
        })
    }

    static func login(name: String, password: String) -> StdPromise<String> {
        return Promise(on: .userInitiated, { (resolver) in
            guard password == "hunter2" else { throw APIError.notFound }
            resolver.fulfill(with: "key-\(name)")
        })
    }
}

final class ChainingTests: XCTestCase {
    /// The README's first sample: `.then {}.catch {}.always {}` with mutated captured vars.
    func testThenCatchAlwaysTrailingClosuresMutatingLocals() {
        var isNetworkActivityIndicatorVisible = true
        var shownUser: User?
        var shownError: String?
        let done = expectation(description: "always")
        MyAPI.fetchUser(named: "alice").then { (user) in
            user.loginCount += 1
            shownUser = user
        }.catch { (error) in
            shownError = error
        }.always { _ in
            isNetworkActivityIndicatorVisible = false
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertFalse(isNetworkActivityIndicatorVisible)
        XCTAssertEqual(shownUser?.name, "alice")
        XCTAssertEqual(shownUser?.loginCount, 1)
        XCTAssertNil(shownError)
    }

    func testStringErrorReachesCatch() {
        var shownError: String?
        var thenCalled = false
        let done = expectation(description: "always")
        MyAPI.fetchUser(named: "").then { _ in
            thenCalled = true
        }.catch { error in
            shownError = error
        }.always { result in
            if case .error("empty name") = result { done.fulfill() }
        }
        wait(for: [done], timeout: 10)
        XCTAssertFalse(thenCalled)
        XCTAssertEqual(shownError, "empty name")
    }

    /// The README's login sample: `flatMap` into another promise, `[weak self]`, `.upcast`.
    func testFlatMapLoginChainWithWeakSelf() {
        final class LoginScreen {
            var loggedIn = false
            var loadingIndicatorVisible = true
            var displayedError: Swift.Error?
            func transitionToLoggedInState() { loggedIn = true }
            func hideLoadingIndicator() { loadingIndicatorVisible = false }
            func displayError(_ error: Swift.Error) { displayedError = error }
        }
        let screen = LoginScreen()
        let done = expectation(description: "chain done")
        MyAPI.fetchUser(named: "bob").mapError(on: .immediate) { _ in APIError.badData }.upcast.flatMap(on: .default) { (credentials) in
            // This returns a new promise
            return MyAPI.login(name: credentials.name, password: "hunter2")
        }.then { [weak screen] (apiKey) in
            MyAPI.apiKey = apiKey
            screen?.transitionToLoggedInState()
        }.always { [weak screen] _ in
            screen?.hideLoadingIndicator()
        }.catch { [weak screen] (error) in
            screen?.displayError(error)
        }.always { _ in
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(MyAPI.apiKey, "key-bob")
        XCTAssertTrue(screen.loggedIn)
        XCTAssertFalse(screen.loadingIndicatorVisible)
        XCTAssertNil(screen.displayedError)
    }

    /// `promise.then({ foo?($0) })`: a single-expression closure returning `Void?` must pick
    /// the `Void` `then`, not a `map`-like overload (1.x issue #35).
    func testSingleExpressionOptionalCallResolvesToVoidThen() {
        var received: [Int] = []
        var foo: ((Int) -> Void)? = { received.append($0) }
        let promise = Promise<Int, String>(fulfilled: 7)
        let chained = promise.then(on: .immediate, { foo?($0) })
        let chained2: Promise<Int, String> = promise.then(on: .immediate) { foo?($0 * 2) }
        XCTAssertEqual(received, [7, 14])
        XCTAssertEqual(chained.result, .value(7))
        XCTAssertEqual(chained2.result, .value(7))
        foo = nil
        _ = promise.then(on: .immediate, { foo?($0) })
        XCTAssertEqual(received, [7, 14])
    }

    func testMapAndFlatMapWithNonSendableValues() {
        let user = User(name: "carol")
        let promise = Promise<User, String>(fulfilled: user)
        let upper = promise.map(on: .immediate) { $0.name.uppercased() }
        let same = promise.flatMap(on: .immediate) { user -> Promise<User, String> in
            user.loginCount = 5
            return Promise(fulfilled: user)
        }
        XCTAssertEqual(upper.result?.value, "CAROL")
        XCTAssertTrue(same.result?.value === user)
        XCTAssertEqual(user.loginCount, 5)
    }

    func testRecoverMapErrorFlatMapError() {
        let failing = Promise<Int, String>(rejected: "boom")
        let recovered: Promise<Int, NoError> = failing.recover(on: .immediate) { $0.count }
        XCTAssertEqual(recovered.result?.value, 4)

        let mapped: Promise<Int, APIError> = failing.mapError(on: .immediate) { _ in .badData }
        XCTAssertEqual(mapped.result?.error, .badData)

        let flatMapped = failing.flatMapError(on: .immediate) { (message) -> Promise<Int, Int> in
            return message == "boom" ? Promise(fulfilled: 1) : Promise(rejected: -1)
        }
        XCTAssertEqual(flatMapped.result, .value(1))

        let tryMapped = failing.tryMapError(on: .immediate) { (message) -> APIError in
            if message == "boom" { throw URLError(.badURL) }
            return .notFound
        }
        XCTAssertEqual((tryMapped.result?.error as? URLError)?.code, .badURL)

        let tryFlatMapped = failing.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(rejected: .notFound) }
        XCTAssertEqual(tryFlatMapped.result?.error as? APIError, .notFound)
    }

    func testMapResultFlatMapResultAndPromiseResultSwitch() {
        var seen: [String] = []
        func describe(_ result: PromiseResult<Int, String>) -> String {
            switch result {
            case .value(let value): return "value \(value)"
            case .error(let error): return "error \(error)"
            case .cancelled: return "cancelled"
            }
        }
        let (cancelled, cancelResolver) = Promise<Int, String>.makeWithResolver()
        cancelResolver.cancel()
        for promise in [Promise<Int, String>(fulfilled: 1), Promise(rejected: "bad"), cancelled] {
            let mapped = promise.mapResult(on: .immediate) { (result) -> PromiseResult<String, NoError> in
                seen.append(describe(result))
                return .value(describe(result))
            }
            XCTAssertEqual(mapped.result?.value, seen.last)
        }
        XCTAssertEqual(seen, ["value 1", "error bad", "cancelled"])

        let flat = Promise<Int, String>(rejected: "x").flatMapResult(on: .immediate) { result -> Promise<Int, APIError> in
            if case .error = result { return Promise(rejected: .badData) }
            return Promise(fulfilled: 0)
        }
        XCTAssertEqual(flat.result?.error, .badData)

        let tryMapped = Promise<Int, String>(fulfilled: 3).tryMapResult(on: .immediate) { result -> PromiseResult<Int, APIError> in
            guard let value = result.value else { throw APIError.notFound }
            return .value(value * 10)
        }
        XCTAssertEqual(tryMapped.result?.value, 30)

        let tryFlat = Promise<Int, String>(fulfilled: 3).tryFlatMapResult(on: .immediate) { _ -> Promise<Int, APIError> in
            throw APIError.badData
        }
        XCTAssertEqual(tryFlat.result?.error as? APIError, .badData)
    }

    /// `StdPromise`, `Promise(on: .utility) { resolver in ... throw ... }` with inferred types,
    /// `tryThen`, `tryMap`, `tryFlatMap`, `tryRecover`.
    func testStdPromiseThrowingInitAndTryVariants() {
        func expensiveCalculation(_ shouldFail: Bool) throws -> Int {
            if shouldFail { throw APIError.badData }
            return 42
        }
        let promise = Promise(on: .utility, { (resolver) in
            let value = try expensiveCalculation(false)
            resolver.fulfill(with: value)
        })
        let failing = StdPromise<Int>(on: .utility) { resolver in
            resolver.fulfill(with: try expensiveCalculation(true))
        }
        var tryThenSaw: Int?
        let doubled = promise.tryThen { value in
            tryThenSaw = value
        }.tryMap(on: .default) { value -> Int in
            guard value > 0 else { throw APIError.notFound }
            return value * 2
        }.tryFlatMap(on: .default) { value -> Promise<String, APIError> in
            return Promise(fulfilled: "\(value)")
        }
        let recovered = failing.tryRecover(on: .default) { error -> Int in
            if case APIError.badData = error { return -1 }
            throw error
        }
        let done = expectation(description: "both")
        done.expectedFulfillmentCount = 2
        var doubledResult: PromiseResult<String, Swift.Error>?
        var recoveredResult: PromiseResult<Int, Swift.Error>?
        doubled.always { doubledResult = $0; done.fulfill() }
        recovered.always { recoveredResult = $0; done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(tryThenSaw, 42)
        XCTAssertEqual(doubledResult?.value, "84")
        XCTAssertEqual(recoveredResult?.value, -1)
        XCTAssertEqual(StdPromise(fulfilled: 5).result?.value, 5)
    }

    func testUpcastFromTypedErrorAndNoError() {
        let typed = Promise<Int, APIError>(rejected: .notFound)
        let std: StdPromise<Int> = typed.upcast
        XCTAssertEqual(std.result?.error as? APIError, .notFound)
        let never = Promise<Int, NoError>(fulfilled: 9)
        let stdNever: StdPromise<Int> = never.upcast
        XCTAssertEqual(stdNever.result?.value, 9)
        let fromResult = Promise<Int, APIError>(with: Result<Int, APIError>.failure(.badData))
        XCTAssertEqual(fromResult.result?.error, .badData)
        let fromPromiseResult = Promise<Int, String>(with: .value(2))
        XCTAssertEqual(fromPromiseResult.result, .value(2))
    }

    func testTapForkAndEquality() {
        var tapped: [PromiseResult<Int, String>] = []
        var forked: [Int] = []
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let same = promise.tap(on: .immediate) { tapped.append($0) }
        XCTAssertTrue(same == promise, "tap(on:) returns self")
        let tap = promise.tap()
        XCTAssertFalse(tap == promise)
        let forkedSelf = promise.fork { p in
            _ = p.then(on: .immediate) { forked.append($0) }
            _ = p.map(on: .immediate) { forked.append($0 * 100) }
        }
        XCTAssertTrue(forkedSelf == promise)
        resolver.fulfill(with: 3)
        XCTAssertEqual(tapped, [.value(3)])
        XCTAssertEqual(forked, [3, 300])
        XCTAssertEqual(tap.result, .value(3))
    }

    /// Results delivered on `.main` land in the same order they were registered, while the
    /// test's `wait` drains the main queue.
    func testMainContextCallbacksRunInOrder() {
        var order: [Int] = []
        let done = expectation(description: "main")
        done.expectedFulfillmentCount = 2
        // Resolved on another thread only after both callbacks are registered: a callback
        // registered while the promise resolves concurrently has no order guarantee.
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        promise.then(on: .main) { order.append($0) }
            .then(on: .main) { order.append($0 + 1) }
            .always(on: .main) { _ in done.fulfill() }
        promise.then(on: .main) { order.append($0 + 10); done.fulfill() }
        DispatchQueue.global(qos: .utility).async { resolver.fulfill(with: 1) }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(order.first, 1)
        XCTAssertEqual(Set(order), [1, 2, 11])
    }
}
