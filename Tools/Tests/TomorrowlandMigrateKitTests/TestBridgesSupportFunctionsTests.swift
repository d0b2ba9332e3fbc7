// `convert-calls` makes a test class's support function that waits through a helper async with the
// tests calling it (TestBridges+SupportFunctions): Ledger's `seededStore()`. One whose own wait is not
// rewritten stays synchronous, and the test calling it too. Exact text, every call counted, compiled in
// Swift 6 and 5 mode, a second run stable.

import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("convert-calls: a support function that waits made async with its tests")
struct TestBridgesSupportFunctionsTests {
    static let expected = """
        final class TillTests: XCTestCase {
            let till = Till()

            @MainActor private func paidTill() async throws -> Till {
                _ = try await till.pay(5)
                return till
            }

            /// Returns the helper's value at once: a reading convert-calls does not rewrite, so it and its test stay.
            private func quoted() throws -> Int {
                try value(of: till.quote())
            }

            @MainActor func testQuotesAfterPaying() async throws {
                let paid = try await paidTill()
                let quote = try await paid.quote()
                XCTAssertEqual(quote, 12)
            }

            @MainActor func testRefundsAPaidTill() async throws {
                let refund = try await till.refund(to: try await self.paidTill())
                XCTAssertEqual(refund, 3)
            }

            func testQuotedInARewrite() throws {
                XCTAssertEqual(try value(of: till.pay(try quoted())), "paid 12")
            }

            func testQuotedDirectly() throws {
                XCTAssertEqual(try value(of: till.pay(1)), "paid 1")
                XCTAssertEqual(try quoted(), 12)
            }
        }

        """

    @Test("made async and awaited; one whose own wait stays, left with its test; it compiles, and a second run changes nothing", arguments: [6, 5])
    func supportFunctions(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(
            swiftVersion: swiftVersion, source: Support.fixture("TestsWithSupportFunctions.swift")
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertCalls.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        let tests = try #require(text.range(of: "final class TillTests")).lowerBound
        #expect(String(text[tests...]) == Self.expected)
        #expect(notes.contains("left `value(of: till.quote())`: " + TestBridges.Reason.outsideTest.text(helper: "value(of:)")), "\(notes)")
        #expect(notes.contains("left `value(of: till.pay(1))`: "
            + TestBridges.stillWaits(test: "testQuotedDirectly", wait: "quoted()", line: 106)), "\(notes)")
        // A wait inside a rewritten statement, carried over as it was, still runs: the test stays.
        #expect(notes.contains("left `value(of: till.pay(try quoted()))`: "
            + TestBridges.stillWaits(test: "testQuotedInARewrite", wait: "quoted()", line: 101)), "\(notes)")
        #expect(notes.last?.hasPrefix("convert-calls: 3 call(s) converted, 3 left") == true, "\(notes)")
        try Support.expectCompiles([("TestsWithSupportFunctions.swift", text)], swiftVersion: swiftVersion)

        try text.write(to: directory.appendingPathComponent("TestsWithSupportFunctions.swift"), atomically: true, encoding: .utf8)
        let second = ConvertCalls.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        #expect(second.changes.isEmpty)
        #expect(second.notes.last?.message.hasPrefix("convert-calls: 0 call(s) converted, 3 left") == true, "\(second.notes)")
    }
}
