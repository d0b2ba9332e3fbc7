// `convert-calls` awaits a converted test's call of a polling helper through the async counterpart
// its package already has (TestBridges+PollingWaits): Ledger's `waitUntil { }` and `eventually { }`.
// A polling helper without one gets it, written once after the helper, the call awaited by the
// same name. Exact text, every call counted, compiled in Swift 6 and 5 mode, a second run stable.

import Foundation
import SwiftSyntax
import Testing
@testable import TomorrowlandMigrateKit

@Suite("convert-calls: a polling helper's call awaited through its async counterpart")
struct TestBridgesPollingWaitsTests {
    static let expected = """
        final class TillTests: XCTestCase {
            let till = Till()

            @MainActor func testPollsUntilPaid() async throws {
                let quote = try await till.quote()
                let payment = till.pay(quote) as Promise<String, TillError>
                await eventually("paid") { !till.isBusy }
                XCTAssertEqual(payment.result?.value, "paid 12")
                _ = till.pay(1) as Promise<String, TillError>
                await eventually("paid again", timeout: 2) { !self.till.isBusy }
            }

            @MainActor func testPollsWithoutACounterpart() async throws {
                let quote = try await till.quote()
                _ = till.pay(quote) as Promise<String, TillError>
                await waitAWhile("paid") { !till.isBusy }
            }

            func testPollsWithAWaitInTheCondition() throws {
                let quote = try value(of: till.quote())
                waitAWhile("quoted again") { self.result(of: till.quote())?.value == quote }
            }
        }

        """

    /// The async overload of `waitAWhile` convert-calls writes after it.
    static let written = """
                    RunLoop.current.run(until: Date().addingTimeInterval(0.05))
                }
            }

            /// `waitAWhile`, awaited: the same polling, sleeping between polls on the caller's actor instead of running the run loop.
            func waitAWhile(_ description: String, timeout: TimeInterval = pollTimeout,
                            file: StaticString = #filePath, line: UInt = #line,
                            isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async {
                let deadline = Date().addingTimeInterval(timeout)
                while !condition() {
                    if Date() > deadline {
                        XCTFail("timed out waiting until \\(description)", file: file, line: line)
                        return
                    }
                    try? await Task.sleep(nanoseconds: 50_000_000)
                }
            }
        """

    @Test("awaited through the counterpart; without one, written; it compiles, and a second run changes nothing", arguments: [6, 5])
    func awaitsPolls(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Support.fixture("TestsThatPoll.swift"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertCalls.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        let tests = try #require(text.range(of: "final class TillTests")).lowerBound
        #expect(String(text[tests...]) == Self.expected)
        // The overload written once, right after `waitAWhile`; `settle` still calls the synchronous one.
        #expect(text.contains(Self.written), "\(text)")
        #expect(text.components(separatedBy: "func waitAWhile(").count == 3)
        #expect(text.contains("    func settle(_ till: Till) {\n        waitAWhile(\"settled\")"))
        // The condition's own wait would spin the run loop inside the main actor's job: that test stays synchronous.
        #expect(notes.contains("left `value(of: till.quote())`: " + TestBridges.stillWaits(
            test: "testPollsWithAWaitInTheCondition", wait: "waitAWhile(\"quoted again\") { self.result(of: till.quote())?.value == quote }", line: 138)), "\(notes)")
        // (And the condition's `result(of:)`, in a closure.)
        #expect(notes.last?.hasPrefix("convert-calls: 2 call(s) converted, 2 left (1: `result(of:)` is called outside") == true, "\(notes)")
        #expect(notes.last?.contains("; 1: " + TestBridges.stillWaitsKind + ")") == true, "\(notes)")
        try Support.expectCompiles([("TestsThatPoll.swift", text)], swiftVersion: swiftVersion)
        // The change's summary names the polling helper's calls it awaits through the counterpart.
        let prover = try #require(EditProof.start(set, paths: set.files.map(\.path), oracle: oracle, nothing: "").proof)
        let summaries = ConvertCalls.plan(prover.set, project: prover.project).changes.map(\.summary)
        #expect(summaries.contains { $0.hasSuffix("1 call(s) awaited instead of waited for (`till.quote()`), 2 polling wait(s) awaited "
            + "through their async counterpart (`waitUntil(\"paid\") { !till.isBusy }`, `self.waitUntil(\"paid again\", timeout: 2) { !self.till.isBusy }`)")
        }, "\(summaries)")

        try text.write(to: directory.appendingPathComponent("TestsThatPoll.swift"), atomically: true, encoding: .utf8)
        let second = ConvertCalls.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        #expect(second.changes.isEmpty)
        // Left: the payments the converted tests keep, and the two calls of the test whose condition waits.
        #expect(second.notes.last?.message.hasPrefix("convert-calls: 0 call(s) converted, 5 left") == true, "\(second.notes)")
    }

    @Test("a counterpart by its shape: the same parameters and body, the same pause; not another interval or message")
    func counterpartsByShape() throws {
        let helper = """
            func waitUntil(_ what: String, timeout: TimeInterval = 5, _ condition: () -> Bool) {
                let deadline = Date().addingTimeInterval(timeout)
                while !condition() {
                    if Date() > deadline { XCTFail("timed out: \\(what)"); return }
                    RunLoop.current.run(until: Date().addingTimeInterval(0.01))
                }
            }
            """
        let counterpart = { (name: String, parameters: String, message: String, nanoseconds: String) in
            """
            func \(name)(\(parameters)) async {
                let deadline = Date().addingTimeInterval(timeout)
                while !condition() {
                    if Date() > deadline { XCTFail("\(message)"); return }
                    try? await Task.sleep(nanoseconds: \(nanoseconds))
                }
            }
            """
        }
        let same = "_ what: String, timeout: TimeInterval = 5, isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool"
        let sources = [
            counterpart("a", same, "timed out: \\(what)", "10_000_000"),
            counterpart("b", same, "timed out: \\(what)", "50_000_000"),
            counterpart("c", same, "gave up: \\(what)", "10_000_000"),
            counterpart("d", "_ what: String, timeout: TimeInterval = 9, _ condition: () -> Bool", "timed out: \\(what)", "10_000_000"),
        ]
        let set = SourceSet.inMemory([("P.swift", ([helper] + sources).joined(separator: "\n"))])
        let file = try #require(set.files.first)
        let polls = TestBridges.PollingWaits(sites: FunctionSite.all(in: file), project: Project(set))
        #expect(polls.counterparts.map { "\($0.helper.name) → \($0.async?.name ?? "written")" } == ["waitUntil → a"])
    }
}
