// `convert-calls` through value and error helpers built on a result helper with `guard let v =
// result?.value` (Relay's `awaitValue(_:)`, `awaitError(_:)`): recognised, their calls converted
// (exact text) or counted with their reason, the helpers' own calls of the result helper not
// listed as tests, each converted test kept on the main thread (`@MainActor`), compiled in Swift 6
// and 5 mode, and a second run changes nothing.

import Foundation
import SwiftSyntax
import Testing
@testable import TomorrowlandMigrateKit

@Suite("convert-calls: helpers built on a result helper, and where the converted test runs")
struct TestBridgesOnAResultTests {
    static let expected = """
        final class OutboxTests: XCTestCase {
            @MainActor func testSendSettlesOnMain() async throws {
                let outbox = Outbox()
                let send = try await outbox.send("ab")
                XCTAssertEqual(send, 2)
                XCTAssertEqual(outbox.journal, ["send ab", "settled ab @main"])
            }

            @MainActor func testOfflineSendIsTyped() async throws {
                let outbox = Outbox()
                outbox.isOnline = false
                do {
                    _ = try await outbox.send("a")
                    XCTFail("expected an error")
                } catch let error as SendError {
                    XCTAssertEqual(error, .offline)
                }
                XCTAssertEqual(outbox.journal.last, "settled a @main")
            }

            func testAKeptPromise() {
        """

    @Test("`guard let value = result?.value` and `?.error`: a value and an error helper")
    func recognisesTheGuardLet() throws {
        let source = try Support.fixture("TestHelpersOnAResult.swift").text
        let file = try #require(SourceSet.inMemory([("TestHelpersOnAResult.swift", source)]).files.first)
        #expect(TestBridges.helpers(in: FunctionSite.all(in: file)) == [
            "awaitResult": .result, "awaitValue": .value(throwing: false), "awaitError": .error,
        ])
        // A guard whose helper returns something else than what it binds is not one.
        let other = source.replacingOccurrences(of: "return value\n", with: "return nil\n")
        let changed = try #require(SourceSet.inMemory([("Other.swift", other)]).files.first)
        #expect(TestBridges.helpers(in: FunctionSite.all(in: changed))["awaitValue"] == nil)
    }

    @Test("converted on the main actor, every call counted, the helpers' own calls not listed", arguments: [6, 5])
    func converts(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(
            swiftVersion: swiftVersion, source: Support.fixture("TestHelpersOnAResult.swift")
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertCalls.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        let tests = try #require(text.range(of: "final class OutboxTests")).lowerBound
        let end = try #require(text.range(of: "func testAKeptPromise() {")).upperBound
        #expect(String(text[tests..<end]) == Self.expected)
        #expect(notes.contains("left `awaitValue(promise)`: " + TestBridges.Reason.keptPromise.text(helper: "awaitValue(_:)")), "\(notes)")
        #expect(!notes.contains { $0.contains("awaitResult(promise") }, "\(notes)")
        #expect(notes.last?.hasPrefix("convert-calls: 2 call(s) converted, 1 left") == true, "\(notes)")
        try Support.expectCompiles([("TestHelpersOnAResult.swift", text)], swiftVersion: swiftVersion)

        try text.write(to: directory.appendingPathComponent("TestHelpersOnAResult.swift"), atomically: true, encoding: .utf8)
        let second = ConvertCalls.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        #expect(second.changes.isEmpty)
        #expect(second.notes.last?.message.hasPrefix("convert-calls: 0 call(s) converted, 1 left") == true, "\(second.notes)")
    }

    @Test("a helper's call of another with its own parameter is outside a test, not a kept promise")
    func parameterPassedOn() throws {
        let text = """
            func helper(_ promise: Int) { use(promise) }
            func testSomething() { let promise = 1; use(promise) }
            """
        let file = try #require(SourceSet.inMemory([("P.swift", text)]).files.first)
        let functions = file.tree.statements.compactMap { $0.item.as(FunctionDeclSyntax.self) }
        let argument = { (function: FunctionDeclSyntax) -> ExprSyntax in
            let call = function.body!.statements.last!.item.as(FunctionCallExprSyntax.self)!
            return call.arguments.first!.expression
        }
        #expect(TestBridges.passesParameter(argument(functions[0]), in: functions[0]))
        #expect(!TestBridges.passesParameter(argument(functions[1]), in: functions[1]))
    }
}
