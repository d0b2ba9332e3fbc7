// `convert-calls` in a synchronous XCTest method that also waits, through a helper, on a promise it
// keeps, or on a call's promise whose twin it does not await (TestBridges+KeptPromises): the wait
// becomes an await of that promise where it stood, so the test made `@MainActor async` suspends
// instead of spinning the run loop, and what it checks during the call stays checked before it.
// Exact text, every call counted, compiled in Swift 6 and 5 mode, a second run stable.
// StillWaitingAtRunTimeTests runs the converted form under XCTest.

import Foundation
import SwiftSyntax
import Testing
@testable import TomorrowlandMigrateKit

@Suite("convert-calls: a wait on a promise the test keeps is awaited")
struct TestBridgesKeptPromisesTests {
    static let expected = #"""
        final class KioskTests: XCTestCase {
            let kiosk = Kiosk()
            let kept = Promise<String, KioskError>(fulfilled: "kept")

            @MainActor func testAKeptPaymentIsAwaitedWhereItWasWaitedFor() async throws {
                let quote = try await kiosk.quote()
                let payment = kiosk.pay(quote) as Promise<String, KioskError>
                XCTAssertTrue(kiosk.isBusy)
                XCTAssertNil(payment.result)
                let paymentResult = await payment.resolvedResult
                XCTAssertEqual(paymentResult.value, "paid 12")
                XCTAssertFalse(kiosk.isBusy)
            }

            @MainActor func testACancelRequestedRightAfterTheCall() async throws {
                let quote = try await kiosk.quote()
                let held = kiosk.hold() as Promise<String, KioskError>
                held.requestCancel()
                let heldResult = await held.resolvedResult
                XCTAssertEqual(heldResult.isCancelled, true, "expected cancelled, got \(String(describing: heldResult))")
                let heldResult2 = await held.resolvedResult
                XCTAssertEqual(heldResult2, .cancelled)
                let cancelled = await held.resolvedResult.isCancelled
                XCTAssertEqual(cancelled, true)
                XCTAssertEqual(quote, 12)
            }

            @MainActor func testValueAndErrorHelpersOnKeptPromises() async throws {
                let quote = try await kiosk.quote()
                XCTAssertEqual(quote, 12)
                let refusal = kiosk.refuse() as Promise<String, KioskError>
                let payment = kiosk.pay(5) as Promise<String, KioskError>
                do {
                    _ = try await refusal.value
                    XCTFail("expected an error")
                } catch let error as KioskError {
                    XCTAssertEqual(error, .declined)
                }
                let paid = try await payment.value
                XCTAssertEqual(paid.count, 6)
                let keptValue = try await self.kept.value
                XCTAssertEqual(keptValue, "kept")
            }

            @MainActor func testCallsWhoseTwinsAreNotAwaitedAwaitTheirPromises() async throws {
                let quote = try await kiosk.quote()
                XCTAssertEqual(quote, 12)
                let quoteResult = await kiosk.quote().resolvedResult
                XCTAssertEqual(quoteResult.isCancelled, false)
                let nickname = await kiosk.nickname().resolvedResult.value
                XCTAssertEqual(nickname, .some(nil))
                let receiptValue = try await kiosk.receipt().value
                XCTAssertEqual(receiptValue, "receipt")
            }

            func testAKeptErrorBoundToALetStaysSynchronous() throws {
                XCTAssertEqual(try value(of: kiosk.quote()), 12)
                let refusal = kiosk.refuse()
                let failure = error(of: refusal)
                XCTAssertEqual(failure, .declined)
            }
        }

        """#

    @Test("awaited where the helper waited, the checks before it kept; it compiles, and a second run changes nothing", arguments: [6, 5])
    func awaitsKeptPromises(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Support.fixture("TestsThatKeepPromises.swift"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertCalls.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        let tests = try #require(text.range(of: "final class KioskTests")).lowerBound
        #expect(String(text[tests...]) == Self.expected)
        // The test whose kept wait is not rewritten stays synchronous, the wait named; its kept promise is counted.
        #expect(notes.contains("left `value(of: kiosk.quote())`: "
            + TestBridges.stillWaits(test: "testAKeptErrorBoundToALetStaysSynchronous", wait: "error(of: refusal)", line: 177)), "\(notes)")
        #expect(notes.contains("left `error(of: refusal)`: " + TestBridges.Reason.keptPromise.text(helper: "error(of:)")), "\(notes)")
        // The kept promises through a value, error or result helper count as converted calls; `assertCancelled(held)`,
        // which asserts what the helper did, is inlined and not counted (nor was it, left).
        #expect(notes.last?.hasPrefix("convert-calls: 13 call(s) converted, 3 left") == true, "\(notes)")
        try Support.expectCompiles([("TestsThatKeepPromises.swift", text)], swiftVersion: swiftVersion)
        // The change's summary names the assertion helper's call it inlined.
        let prover = try #require(EditProof.start(set, paths: set.files.map(\.path), oracle: oracle, nothing: "").proof)
        let summaries = ConvertCalls.plan(prover.set, project: prover.project).changes.map(\.summary)
        #expect(summaries.contains { $0.hasSuffix(", 1 kept promise(s) checked by awaiting them (`assertCancelled(held)`)") }, "\(summaries)")

        try text.write(to: directory.appendingPathComponent("TestsThatKeepPromises.swift"), atomically: true, encoding: .utf8)
        let second = ConvertCalls.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        #expect(second.changes.isEmpty)
    }

    @Test("an assertion helper: `let r = result(of: promise)`, then assertions of `r` only")
    func assertionHelpers() throws {
        let source = """
            extension XCTestCase {
                func assertCancelled<T, E>(_ promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) {
                    let result = self.result(of: promise, file: file, line: line)
                    XCTAssertEqual(result?.isCancelled, true, "got \\(String(describing: result))", file: file, line: line)
                }
                func assertFailed<T, E>(_ promise: Promise<T, E>) {
                    let result = result(of: promise)
                    XCTAssertNotNil(result?.error)
                    XCTAssertNil(result!.value, "\\(result)")
                }
                func assertReadsTheParameter<T, E>(_ promise: Promise<T, E>, _ expected: Bool = true) {
                    let result = result(of: promise)
                    XCTAssertEqual(result?.isCancelled, expected)
                }
                func assertPassesTheResultOn<T, E>(_ promise: Promise<T, E>) {
                    let result = result(of: promise)
                    XCTAssertTrue(isFine(result))
                }
                func assertInAClosure<T, E>(_ promise: Promise<T, E>) {
                    let result = result(of: promise)
                    XCTAssertTrue([1].allSatisfy { _ in result?.isCancelled == true })
                }
                func returnsIt<T, E>(_ promise: Promise<T, E>) -> Bool {
                    let result = result(of: promise)
                    XCTAssertNotNil(result)
                    return true
                }
            }
            """
        let file = try #require(SourceSet.inMemory([("H.swift", source)]).files.first)
        let sites = FunctionSite.all(in: file)
        let helpers = Dictionary(uniqueKeysWithValues: sites.map { ($0.name, TestBridges.assertionHelper($0, resultHelpers: ["result"])) })
        let cancelled = try #require(helpers["assertCancelled"] ?? nil)
        #expect(cancelled.inlined(as: "r") == [#"XCTAssertEqual(r.isCancelled, true, "got \(String(describing: r))")"#])
        let failed = try #require(helpers["assertFailed"] ?? nil)
        #expect(failed.inlined(as: "r") == ["XCTAssertNotNil(r.error)", #"XCTAssertNil(r.value, "\(r)")"#])
        #expect(helpers["assertReadsTheParameter"] ?? nil == nil)
        #expect(helpers["assertPassesTheResultOn"] ?? nil == nil)
        #expect(helpers["assertInAClosure"] ?? nil == nil)
        #expect(helpers["returnsIt"] ?? nil == nil)
    }

    @Test("a kept promise is a name or a member of one, never a call")
    func keptPromises() throws {
        let file = try #require(SourceSet.inMemory([("K.swift", "f(p, self.q, token.inner, self.a.b, g(), x[0], h().inner)")]).files.first)
        let call = try #require(file.tree.statements.first?.item.as(FunctionCallExprSyntax.self))
        #expect(call.arguments.map { TestBridges.keptPromise($0.expression) } == ["p", "q", "tokenInner", "aB", nil, nil, nil])
    }
}
