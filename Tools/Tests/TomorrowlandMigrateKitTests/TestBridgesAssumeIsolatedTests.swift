// `convert-calls` in a synchronous XCTest method whose body is one `MainActor.assumeIsolated { … }`
// statement (TestBridges+AssumeIsolated): the closure's statements are rewritten as the test's own,
// and the wrapper goes once the test is `@MainActor async throws`. Exact text, every call counted,
// compiled in Swift 6 and 5 mode, a second run stable.

import Foundation
import SwiftSyntax
import Testing
@testable import TomorrowlandMigrateKit

@Suite("convert-calls: a test whose body is `MainActor.assumeIsolated { … }`")
struct TestBridgesAssumeIsolatedTests {
    static let expected = #"""
        final class StationTests: XCTestCase, @unchecked Sendable {
            let station = Station()

            @MainActor func testAWrappedBodyIsTheTestsOwn() async throws {
                let board = Board()
                board.log.append("refresh")
                let refresh2 = try await station.refresh()
                XCTAssertEqual(refresh2, 2)
                // The error, checked as at the top level of a test.
                do {
                    _ = try await station.fail()
                    XCTFail("expected an error")
                } catch let error as StationError {
                    XCTAssertEqual(error, .offline)
                }
                XCTAssertEqual(board.log, ["refresh"])
            }

            @MainActor func testAReturnInTheClosureEndsTheTest() async throws {
                let board = Board()
                let count = try? await station.refresh()
                guard count == 2 else { return }
                board.log.append("counted")
                XCTAssertEqual(board.log, ["counted"])
            }

            func testAWrapperBesideOtherStatementsStays() {
                let station = Station()
                MainActor.assumeIsolated {
                    XCTAssertEqual(result(of: station.refresh())?.value, 2)
                }
            }

            func testAWrapperWhoseValueIsUsedStays() throws {
                let count = try MainActor.assumeIsolated {
                    try value(of: station.refresh())
                }
                XCTAssertEqual(count, 2)
            }

            func testAWrappedTestThatStillSpinsTheRunLoopStays() {
                MainActor.assumeIsolated {
                    XCTAssertEqual(result(of: station.refresh())?.value, 2)
                    RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))
                }
            }
        }

        """#

    @Test("the wrapper's statements are the test's own, the wrapper goes; it compiles, and a second run changes nothing", arguments: [6, 5])
    func unwrapsTheTest(swiftVersion: Int) throws {
        let source = try Support.fixture("TestsInAssumeIsolated.swift")
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: source)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertCalls.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        let tests = try #require(text.range(of: "final class StationTests")).lowerBound
        #expect(String(text[tests...]) == Self.expected)
        let line = { (needle: String) in
            (source.text.components(separatedBy: "\n").firstIndex { $0.contains(needle) } ?? -1) + 1
        }
        // Beside other statements, or with its value used: the closure is not the test's body.
        let outside = TestBridges.Reason.outsideTest
        #expect(notes.contains("left `result(of: station.refresh())`: " + outside.text(helper: "result(of:)")), "\(notes)")
        #expect(notes.contains("left `value(of: station.refresh())`: " + outside.text(helper: "value(of:)")), "\(notes)")
        // The run-loop wait in the wrapper keeps its test synchronous.
        let wait = "run(until: Date(timeIntervalSinceNow: 0.01))"
        #expect(notes.contains("left `result(of: station.refresh())`: " + TestBridges.stillWaits(
            test: "testAWrappedTestThatStillSpinsTheRunLoopStays", wait: "RunLoop.current." + wait, line: line(wait)
        )), "\(notes)")
        #expect(notes.last?.hasPrefix("convert-calls: 3 call(s) converted, 3 left") == true, "\(notes)")
        try Support.expectCompiles([("TestsInAssumeIsolated.swift", text)], swiftVersion: swiftVersion)

        try text.write(to: directory.appendingPathComponent("TestsInAssumeIsolated.swift"), atomically: true, encoding: .utf8)
        let second = ConvertCalls.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        #expect(second.changes.isEmpty)
    }

    @Test("only a body that is the one statement `MainActor.assumeIsolated { … }`, without parameters or a value, is unwrapped")
    func recognisesTheWrapper() throws {
        let source = """
            func a() throws {
                try MainActor.assumeIsolated {
                    f()
                }
            }
            func b() {
                MainActor.assumeIsolated { f() }
            }
            func c() {
                MainActor.assumeIsolated { x in
                    f()
                }
            }
            func d() {
                MainActor.assumeIsolated {
                    return 1
                }
            }
            func e() {
                g()
                MainActor.assumeIsolated {
                    f()
                }
            }
            func f() {
                Other.assumeIsolated {
                    f()
                }
            }
            func g() {
                MainActor.assumeIsolated {
                    guard x else { return }
                    h { return 1 }
                }
            }
            """
        let file = try #require(SourceSet.inMemory([("W.swift", source)]).files.first)
        let functions = file.tree.statements.compactMap { $0.item.as(FunctionDeclSyntax.self) }
        // `b`: on one line, its lines cannot go; `c`: a parameter; `d`: a value; `e`: another statement; `f`: not the main actor.
        #expect(functions.map { TestBridges.assumeIsolatedClosure(in: $0.body) != nil } == [true, false, false, false, false, false, true])
    }
}
