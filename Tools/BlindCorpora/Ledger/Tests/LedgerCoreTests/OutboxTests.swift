import Foundation
import XCTest
import LedgerCore
import Tomorrowland

final class OutboxTests: XCTestCase {
    func testAnItemIsPendingFromTheMomentItIsEnqueued() throws {
        let sender = FakeOutboxSender()
        sender.holding = true
        let outbox = Outbox(sender: sender, retryDelay: 0.01)
        let promise = outbox.enqueue(OutboxItem(kind: .note, payload: "hello"))
        // Stored and sent during the call.
        XCTAssertEqual(outbox.pendingCount, 1)
        XCTAssertEqual(sender.attempts.value, ["hello"])
        XCTAssertNil(promise.result)
        sender.release()
        _ = try value(of: promise)
        XCTAssertEqual(outbox.pendingCount, 0)
        XCTAssertEqual(sender.delivered.value, ["hello"])
    }

    func testRetryableErrorsAreRetriedAfterTheDelay() throws {
        let sender = FakeOutboxSender(failures: 2, error: .offline)
        let outbox = Outbox(sender: sender, maxAttempts: 3, retryDelay: 0.05)
        let started = Date()
        _ = try value(of: outbox.enqueue(OutboxItem(kind: .transfer, payload: "t1")))
        XCTAssertEqual(sender.attempts.value, ["t1", "t1", "t1"])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.09)
        XCTAssertEqual(outbox.pendingCount, 0)
    }

    func testGivesUpAfterMaxAttemptsAndKeepsTheItem() {
        let sender = FakeOutboxSender(failures: 10, error: .bank(.rateLimited))
        let outbox = Outbox(sender: sender, maxAttempts: 2, retryDelay: 0.01)
        XCTAssertEqual(error(of: outbox.enqueue(OutboxItem(kind: .note, payload: "n"))), .bank(.rateLimited))
        XCTAssertEqual(sender.attempts.value.count, 2)
        XCTAssertEqual(outbox.pendingCount, 1)
    }

    func testPermanentErrorsFailAtOnce() {
        let sender = FakeOutboxSender(failures: 10, error: .invalidAmount)
        let outbox = Outbox(sender: sender, maxAttempts: 5, retryDelay: 0.01)
        XCTAssertEqual(error(of: outbox.enqueue(OutboxItem(kind: .note, payload: "n"))), .invalidAmount)
        XCTAssertEqual(sender.attempts.value.count, 1)
    }

    func testFlushDeliversPendingItemsInOrder() throws {
        let sender = FakeOutboxSender(failures: 1, error: .invalidAmount)
        let outbox = Outbox(sender: sender, maxAttempts: 1, retryDelay: 0.01)
        let items = (1...4).map { OutboxItem(id: "id\($0)", kind: .recategorise, payload: "p\($0)") }
        for item in items {
            XCTAssertEqual(error(of: outbox.enqueue(item)), .invalidAmount)
        }
        XCTAssertEqual(outbox.pendingCount, 4)
        let report = try value(of: outbox.flush())
        XCTAssertEqual(report.delivered, ["id1", "id2", "id3", "id4"])
        XCTAssertEqual(report.failed, [])
        XCTAssertEqual(sender.delivered.value, ["p1", "p2", "p3", "p4"])
        XCTAssertEqual(outbox.pendingCount, 0)
    }

    func testFlushOfAnEmptyOutboxIsImmediate() {
        let outbox = Outbox(sender: FakeOutboxSender())
        XCTAssertEqual(outbox.flush().result, .value(FlushReport()))
    }

    func testRetryLedgerRetriesOnlyRetryableErrors() throws {
        let calls = Locked<Int>(0)
        let promise = retryLedger(attempts: 3, delay: 0.01) { () -> LedgerPromise<String> in
            let call = calls.modify { count -> Int in
                count += 1
                return count
            }
            return call < 3 ? Promise(rejected: .timedOut) : Promise(fulfilled: "ok")
        }
        XCTAssertEqual(try value(of: promise), "ok")
        XCTAssertEqual(calls.value, 3)

        let permanent = Locked<Int>(0)
        let failing = retryLedger(attempts: 3, delay: 0.01) { () -> LedgerPromise<String> in
            permanent.modify { $0 += 1 }
            return Promise(rejected: .sameAccount)
        }
        XCTAssertEqual(error(of: failing), .sameAccount)
        XCTAssertEqual(permanent.value, 1)
    }
}
