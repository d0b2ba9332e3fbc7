// `convert-calls` leaves a synchronous XCTest method that would still wait synchronously once its
// helper calls are awaited (TestBridges+RunLoopWaits): made `@MainActor async`, a wait that spins
// the run loop (a helper's `wait(for:)`, `RunLoop.run(until:)`, `waitForExpectations`) runs inside
// a job of the main actor and a `.main` callback never runs (Orders' two checkout tests). A wait
// through a helper on a promise the test keeps is awaited instead (TestBridges+KeptPromises) and
// no longer keeps its test synchronous. Exact text, every call counted with the reason, compiled
// in Swift 6 and 5 mode, a second run stable.
// What the rule rests on is checked at run time in StillWaitingAtRunTimeTests.

import Foundation
import SwiftSyntax
import Testing
@testable import TomorrowlandMigrateKit

@Suite("convert-calls: a test that would still wait synchronously stays synchronous")
struct TestBridgesRunLoopWaitsTests {
    static let expected = """
        final class TillTests: XCTestCase {
            let till = Till()

            @MainActor func testAKeptPaymentWaitedForAfterTheQuote() async throws {
                let quote = try await till.quote()
                let payment = till.pay(quote) as Promise<String, TillError>
                XCTAssertTrue(till.isBusy)
                let paymentValue = try await payment.value
                XCTAssertEqual(paymentValue, "paid 12")
                XCTAssertFalse(till.isBusy)
            }

            func testSpinningUntilPaid() throws {
                let quote = try value(of: till.quote())
                let payment = till.pay(quote)
                waitUntil { !till.isBusy }
                XCTAssertEqual(payment.result?.value, "paid 12")
            }

            func testThroughAnotherHelper() throws {
                XCTAssertEqual(try value(of: till.quote()), 12)
                assertPaid(till.pay(1))
            }

            @MainActor func testExpectationsWaitedForByName() throws {
                let quote = try value(of: till.quote())
                let paid = expectation(description: "paid")
                _ = till.pay(quote).then(on: .immediate) { _ in paid.fulfill() }
                waitForExpectations(timeout: 5)
            }

            @MainActor func testItsOwnWaitIsAwaited() async throws {
                let quote = try await till.quote()
                let paid = expectation(description: "paid")
                _ = till.pay(quote).then(on: .immediate) { _ in paid.fulfill() }
                await fulfillment(of: [paid], timeout: 5)
                XCTAssertFalse(till.isBusy)
            }

            @MainActor func testTheQuoteOnly() async throws {
                let quote = try await till.quote()
                XCTAssertEqual(quote, 12)
                let payment = till.pay(1) as Promise<String, TillError>
                payment.requestCancel()
            }
        }

        """

    @Test("left with the wait named; the others converted; it compiles, and a second run changes nothing", arguments: [6, 5])
    func leavesTestsThatStillWait(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Support.fixture("TestsThatStillWait.swift"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertCalls.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        let tests = try #require(text.range(of: "final class TillTests")).lowerBound
        #expect(String(text[tests...]) == Self.expected)
        let left = { (call: String, test: String, wait: String, line: Int) in
            #expect(notes.contains("left `\(call)`: " + TestBridges.stillWaits(test: test, wait: wait, line: line)), "\(notes)")
        }
        left("value(of: till.quote())", "testSpinningUntilPaid", "waitUntil { !till.isBusy }", 99)
        left("value(of: till.quote())", "testThroughAnotherHelper", "assertPaid(till.pay(1))", 105)
        left("value(of: till.quote())", "testExpectationsWaitedForByName", "waitForExpectations(timeout: 5)", 112)
        // The kept payment is awaited (TestBridges+KeptPromises): its test converts, both its calls counted.
        #expect(notes.last?.hasPrefix("convert-calls: 4 call(s) converted, 4 left (3: " + TestBridges.stillWaitsKind) == true, "\(notes)")
        try Support.expectCompiles([("TestsThatStillWait.swift", text)], swiftVersion: swiftVersion)

        try text.write(to: directory.appendingPathComponent("TestsThatStillWait.swift"), atomically: true, encoding: .utf8)
        let second = ConvertCalls.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        #expect(second.changes.isEmpty)
        #expect(second.notes.last?.message.hasPrefix("convert-calls: 0 call(s) converted, 7 left") == true, "\(second.notes)")
        #expect(second.notes.last?.message.contains("3: " + TestBridges.stillWaitsKind) == true, "\(second.notes)")
    }

    @Test("the waits that spin the run loop, and those that do not")
    func spinsRunLoop() throws {
        let source = """
            wait(for: [e], timeout: 1)
            self.wait(for: [e], timeout: 1)
            XCTWaiter().wait(for: [e], timeout: 1)
            waitForExpectations(timeout: 1)
            RunLoop.current.run(until: date)
            RunLoop.main.run(mode: .default, before: date)
            RunLoop.current.run()
            CFRunLoopRunInMode(mode, 1, false)
            semaphore.wait()
            group.wait(timeout: .now() + 1)
            task.run()
            await fulfillment(of: [e], timeout: 1)
            """
        let file = try #require(SourceSet.inMemory([("W.swift", source)]).files.first)
        let calls = file.tree.statements.compactMap { statement -> FunctionCallExprSyntax? in
            statement.item.as(FunctionCallExprSyntax.self)
                ?? statement.item.as(AwaitExprSyntax.self)?.expression.as(FunctionCallExprSyntax.self)
        }
        #expect(calls.map { TestBridges.spinsRunLoop($0) != nil } == [true, true, true, true, true, true, true, true, false, false, false, false])
    }
}
