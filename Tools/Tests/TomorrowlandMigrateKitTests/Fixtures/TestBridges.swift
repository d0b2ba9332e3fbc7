// The fixture of `convert-calls` in synchronous XCTest methods: a non-Sendable service with the
// twins `add-async-twins` wrote, a result helper of the test support, and tests that wait for
// its promises through the helper, in the shapes the command converts and the ones it leaves.

import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

enum Failure: Error, Equatable { case missing, offline }

/// Not Sendable, as 1.x services rarely were.
final class Service {
    var requests: [String] = []

    func names() -> Promise<[String], Failure> {
        requests.append("names")
        return Promise(fulfilled: ["a", "b"])
    }

    /// Async twin of `names()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func names() async throws -> [String] {
        try await (names() as Promise<[String], Failure>).value
    }

    func find(_ id: Int) -> Promise<String, Failure> {
        requests.append("find \(id)")
        return id > 0 ? Promise(on: .utility, fulfilled: "item \(id)", after: 0.01) : Promise(rejected: .missing)
    }

    /// Async twin of `find(_:)` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func find(_ id: Int) async throws -> String {
        try await (find(id) as Promise<String, Failure>).value
    }

    func nickname() -> Promise<String?, Failure> {
        Promise(fulfilled: nil)
    }

    /// Async twin of `nickname()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func nickname() async throws -> String? {
        try await (nickname() as Promise<String?, Failure>).value
    }

    func count() -> Promise<Int, NoError> {
        Promise(fulfilled: requests.count)
    }

    /// Async twin of `count()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func count() async throws(CancellationError) -> Int {
        try await (count() as Promise<Int, NoError>).value
    }
}

protocol Loading: AnyObject {
    func load() -> Promise<Int, Failure>
}

extension Loading {
    /// Async twin of `load()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func load() async throws -> Int {
        try await (load() as Promise<Int, Failure>).value
    }
}

final class Loader: Loading {
    func load() -> Promise<Int, Failure> {
        Promise(fulfilled: 1)
    }
}

extension XCTestCase {
    /// Waits for `promise` and returns its result.
    func result<T, E>(of promise: Promise<T, E>, timeout: TimeInterval = 5) -> PromiseResult<T, E>? {
        let done = expectation(description: "resolved")
        let box = Box<PromiseResult<T, E>?>(nil)
        promise.always(on: .immediate) { result in
            box.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return box.value
    }
}

extension XCTestCase {
    /// The value `promise` resolves with; a failure, and a thrown error, without one.
    func value<T, E>(of promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let result = self.result(of: promise)
        guard case .value(let value)? = result else {
            XCTFail("expected a value, got \(String(describing: result))", file: file, line: line)
            throw Failure.offline
        }
        return value
    }

    /// The error `promise` rejects with; a failure without one.
    func error<T, E>(of promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> E? {
        let result = self.result(of: promise)
        guard case .error(let error)? = result else {
            XCTFail("expected an error, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return error
    }
}

final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

final class ServiceTests: XCTestCase {
    let service = Service()

    func testNames() {
        let names = result(of: service.names())?.value
        XCTAssertEqual(names?.count, 2)
        XCTAssertEqual(names?.first, "a")
    }

    func testFindAndCount() throws {
        XCTAssertEqual(result(of: service.find(1))?.value, "item 1")
        XCTAssertEqual(result(of: service.count())?.value?.description, "1", "one request")
    }

    func testMissingIsTyped() {
        XCTAssertEqual(result(of: service.find(0))?.error,
                       .missing)
        XCTAssertEqual(service.requests, ["find 0"])
    }

    func testAnObserverAndALaterPromise() {
        let later = service.find(2)
        let seen = expectation(description: "seen")
        later.then(on: .immediate) { _ in seen.fulfill() }
        let find = result(of: service.find(3))?.value
        wait(for: [seen], timeout: 5)
        XCTAssertEqual(find, "item 3")
        XCTAssertEqual(later.result?.value, "item 2")
    }

    func testThroughTheValueAndErrorHelpers() throws {
        let names = try value(of: service.names())
        XCTAssertEqual(names, ["a", "b"])
        XCTAssertEqual(try value(of: service.find(7)).count, 6)
        XCTAssertEqual(error(of: service.find(-1)), .missing)
    }

    func testCancelIsKept() {
        let promise = service.find(4)
        promise.requestCancel()
        XCTAssertEqual(result(of: promise)?.isCancelled, true)
        XCTAssertEqual(result(of: service.find(5))?.isCancelled, false)
    }

    func testAnErrorThatMayBeNil() {
        let expected: Failure? = nil
        XCTAssertEqual(result(of: service.find(6))?.error, expected)
    }

    func testAConformer() {
        XCTAssertEqual(result(of: Loader().load())?.value, 1)
    }

    func testAnOptionalValue() {
        XCTAssertEqual(result(of: service.nickname())?.value, .some(nil))
    }
}
