import Foundation
import XCTest
import LedgerCore
import Tomorrowland

/// A value several threads write; read after an expectation was fulfilled.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func set(_ value: Value) {
        lock.lock()
        stored = value
        lock.unlock()
    }

    func modify<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}

extension Locked where Value == [String] {
    func append(_ line: String) {
        modify { $0.append(line) }
    }
}

/// Names the queues a callback may run on, with `DispatchQueue.getSpecific`. (Never
/// `Thread.isMainThread`: on Linux the main queue may be drained on another thread.)
enum QueueProbe {
    static let key = DispatchSpecificKey<String>()

    static func install() {
        DispatchQueue.main.setSpecific(key: key, value: "main")
        LedgerQueues.database.setSpecific(key: key, value: "db")
        LedgerQueues.fx.setSpecific(key: key, value: "fx")
    }

    static var current: String {
        DispatchQueue.getSpecific(key: key) ?? "other"
    }
}

/// Generous: the machine running these may be busy.
let testTimeout: TimeInterval = 20

extension XCTestCase {
    /// Waits for `promise` and returns its result (nil if it timed out).
    func result<T, E>(of promise: Promise<T, E>, timeout: TimeInterval = testTimeout,
                      file: StaticString = #filePath, line: UInt = #line) -> PromiseResult<T, E>? {
        let resolved = expectation(description: "promise resolved")
        let box = Locked<PromiseResult<T, E>?>(nil)
        promise.always(on: .immediate) { result in
            box.set(result)
            resolved.fulfill()
        }
        wait(for: [resolved], timeout: timeout)
        return box.value
    }

    func value<T, E>(of promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let result = self.result(of: promise, file: file, line: line)
        guard case .value(let value)? = result else {
            XCTFail("expected a value, got \(String(describing: result))", file: file, line: line)
            throw TestFailure.noValue
        }
        return value
    }

    func error<T, E>(of promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> E? {
        let result = self.result(of: promise, file: file, line: line)
        guard case .error(let error)? = result else {
            XCTFail("expected an error, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return error
    }

    /// Polls `condition` on the main run loop until it holds.
    func waitUntil(_ description: String, timeout: TimeInterval = testTimeout,
                   file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out waiting until \(description)", file: file, line: line)
                return
            }
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
    }
}

enum TestFailure: Error {
    case noValue
}

enum Fixtures {
    static let january = Month(year: 2024, month: 1)
    static let february = Month(year: 2024, month: 2)

    static func date(_ month: Month, day: Int) -> Date {
        month.start.addingTimeInterval(Double(day - 1) * 86_400 + 3600)
    }

    static func accounts() -> [Account] {
        [
            Account(id: "checking", name: "Checking", balance: Money(1000, .eur), bankID: "bank"),
            Account(id: "savings", name: "Savings", kind: .savings, balance: Money(5000, .eur)),
            Account(id: "usd", name: "Dollar account", balance: Money(200, .usd)),
            Account(id: "card", name: "Credit card", kind: .credit, balance: Money(0, .eur)),
        ]
    }

    static func store(queue: DispatchQueue = LedgerQueues.database, log: LedgerLog = LedgerLog()) -> LedgerStore {
        LedgerStore(queue: queue, accounts: accounts(), log: log)
    }

    static let rates: [CurrencyPair: Double] = [
        CurrencyPair(.eur, .usd): 1.1,
        CurrencyPair(.eur, .gbp): 0.85,
    ]

    static func remote(_ id: String, _ minor: Int64, _ payee: String, day: Int, month: Month = january) -> RemoteTransaction {
        RemoteTransaction(id: id, amountMinor: minor, currency: .eur, bookedAt: date(month, day: day), counterparty: payee)
    }

    static func transaction(_ id: String, _ minor: Int64, _ payee: String, day: Int, month: Month = january,
                            account: AccountID = "checking", category: LedgerCore.Category = .uncategorised) -> Transaction {
        Transaction(id: id, accountID: account, amount: Money(minorUnits: minor, currency: .eur),
                    bookedAt: date(month, day: day), payee: payee, category: category)
    }
}

// Async forms, for tests that must be async (on Linux, XCTest cannot run a synchronous
// @MainActor test method; an async one it can).

/// Waits for `promise` without blocking the caller's actor.
func resolved<T, E>(_ promise: Promise<T, E>) async -> PromiseResult<T, E> {
    let box = Locked<PromiseResult<T, E>?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        promise.always(on: .utility) { result in
            box.set(result)
            continuation.resume()
        }
    }
    return box.value!
}

func fulfilledValue<T, E>(_ promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) async throws -> T {
    let result = await resolved(promise)
    guard case .value(let value) = result else {
        XCTFail("expected a value, got \(result)", file: file, line: line)
        throw TestFailure.noValue
    }
    return value
}

func rejection<T, E>(_ promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) async -> E? {
    let result = await resolved(promise)
    guard case .error(let error) = result else {
        XCTFail("expected an error, got \(result)", file: file, line: line)
        return nil
    }
    return error
}

/// Polls `condition` (on the caller's actor) until it holds.
func eventually(_ description: String, timeout: TimeInterval = testTimeout,
                isolation: isolated (any Actor)? = #isolation,
                file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) async {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline {
            XCTFail("timed out waiting until \(description)", file: file, line: line)
            return
        }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
}
