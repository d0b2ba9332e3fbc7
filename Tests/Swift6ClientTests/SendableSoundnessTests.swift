// Negative compilation: Swift 6 clients cannot write a data race through Tomorrowland's API.
//
// Each fixture in Tests/CompileFailures is compiled against the Tomorrowland module of this
// build. `reject_*` fixtures must fail with a Sendable/isolation error on exactly their
// `// expected-error:` lines; `accept_*` fixtures (positive controls) must compile cleanly.
// If the module or the compiler cannot be found the tests FAIL: a harness that silently
// skips would prove nothing.

import Foundation
import XCTest

final class SendableSoundnessTests: XCTestCase {
    /// Every fixture must be listed here, so a deleted or misnamed fixture fails a test.
    static let rejected = [
        "reject_actor_state_in_callback.swift",
        "reject_actor_state_in_main_closure.swift",
        "reject_capture_class_in_init.swift",
        "reject_capture_class_in_then.swift",
        "reject_capture_class_in_token_promise.swift",
        "reject_capture_self_in_cancel_requested.swift",
        "reject_capture_task_in_on_request_cancel.swift",
        "reject_context_value_actor_state.swift",
        "reject_context_value_mainactor_state.swift",
        "reject_mainactor_state_from_utility.swift",
        "reject_mainactor_state_in_lazy_var_closure.swift",
        "reject_mutate_captured_var.swift",
        "reject_named_context_actor_state.swift",
        "reject_named_context_mainactor_state.swift",
        "reject_nonsendable_promise_captured_by_callback.swift",
        "reject_nonsendable_promise_into_task.swift",
        "reject_nonsendable_promise_to_actor.swift",
        "reject_nonsendable_result_captured.swift",
        "reject_resolver_escapes_to_queue.swift",
    ]
    static let accepted = ["accept_sound_client.swift"]

    /// Shared across the test methods: one module-cache directory for the whole run.
    private static let compiler = Result { try FixtureCompiler.locate() }

    /// Removes the per-run module cache (clang modules, ~20 MB).
    override class func tearDown() {
        if case .success(let compiler) = compiler {
            try? FileManager.default.removeItem(at: compiler.moduleCache)
        }
        super.tearDown()
    }

    private func compilerOrFail(file: StaticString = #filePath, line: UInt = #line) -> FixtureCompiler? {
        switch Self.compiler {
        case .success(let compiler):
            return compiler
        case .failure(let error):
            XCTFail("Cannot run compile-failure fixtures: \(error)", file: file, line: line)
            return nil
        }
    }

    private func fixture(_ name: String) -> URL {
        FixtureCompiler.fixturesDirectory.appendingPathComponent(name)
    }

    private func assertRejected(_ name: String, languageMode: Int = 6, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let compiler = compilerOrFail(file: file, line: line) else { return }
        let url = fixture(name)
        let expected = try FixtureCompiler.expectations(in: url)
        XCTAssertFalse(expected.isEmpty, "\(name) has no // expected-error: marker", file: file, line: line)
        let (status, diagnostics, output) = try compiler.compile(url, languageMode: languageMode)
        XCTAssertNotEqual(status, 0, "\(name) compiled but must be rejected:\n\(output)", file: file, line: line)
        let errors = diagnostics.filter { $0.severity == "error" }
        for expectation in expected {
            let onLine = errors.filter { $0.line == expectation.line }
            XCTAssertTrue(
                onLine.contains { $0.message.contains(expectation.text) },
                "\(name):\(expectation.line): expected an error containing \"\(expectation.text)\", got \(onLine)\n\(output)",
                file: file, line: line
            )
        }
        let expectedLines = Set(expected.map(\.line))
        let stray = errors.filter { !expectedLines.contains($0.line) }
        XCTAssertEqual(stray, [], "\(name): errors on unmarked lines (fixture broken?)\n\(output)", file: file, line: line)
    }

    private func assertAccepted(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let compiler = compilerOrFail(file: file, line: line) else { return }
        let (status, diagnostics, output) = try compiler.compile(fixture(name))
        XCTAssertEqual(status, 0, "\(name) must compile:\n\(output)", file: file, line: line)
        XCTAssertEqual(diagnostics, [], "\(name) must compile without warnings:\n\(output)", file: file, line: line)
    }

    // MARK: - Harness

    func testHarnessFindsModuleAndCompiler() throws {
        guard let compiler = compilerOrFail() else { return }
        XCTAssertTrue(FileManager.default.fileExists(atPath: compiler.modulesDirectory.appendingPathComponent("Tomorrowland.swiftmodule").path))
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: compiler.swiftc.path))
    }

    func testEveryFixtureIsListed() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: FixtureCompiler.fixturesDirectory.path)
            .filter { $0.hasSuffix(".swift") }
        XCTAssertEqual(Set(names), Set(Self.rejected + Self.accepted))
    }

    /// A fixture that does not compile for a non-Sendable reason must not count as
    /// "rejected": proves the stray-error check of the harness works.
    func testHarnessNoticesUnrelatedErrors() throws {
        guard let compiler = compilerOrFail() else { return }
        let url = compiler.moduleCache.appendingPathComponent("broken_fixture.swift")
        try """
        import Tomorrowland
        func f(_ p: Promise<Int, String>) {
            _ = p.then { _ in } // expected-error: this line is fine
            undefinedFunction()
        }
        """.write(to: url, atomically: true, encoding: .utf8)
        let (status, diagnostics, _) = try compiler.compile(url)
        XCTAssertNotEqual(status, 0)
        XCTAssertEqual(diagnostics.filter { $0.severity == "error" }.map(\.line), [4])
    }

    // MARK: - Positive control

    func testSoundClientCompilesWithoutWarnings() throws {
        try assertAccepted("accept_sound_client.swift")
    }

    // MARK: - Rejected

    func testRejectsNonSendableClassCapturedInThen() throws {
        try assertRejected("reject_capture_class_in_then.swift")
    }

    func testRejectsMutationOfCapturedVar() throws {
        try assertRejected("reject_mutate_captured_var.swift")
    }

    func testRejectsNonSendablePromiseSentIntoTask() throws {
        try assertRejected("reject_nonsendable_promise_into_task.swift")
    }

    func testRejectsNonSendablePromiseSentToActor() throws {
        try assertRejected("reject_nonsendable_promise_to_actor.swift")
    }

    func testRejectsMainActorStateFromUtilityCallback() throws {
        try assertRejected("reject_mainactor_state_from_utility.swift")
    }

    func testRejectsMainActorStateInLazyVarClosure() throws {
        try assertRejected("reject_mainactor_state_in_lazy_var_closure.swift")
    }

    /// A closure given a named context (`.utility`, `.queue(q)`, …) is nonisolated and runs
    /// there, so touching main-actor state from it is an error, in Swift 6 and in Swift 5 mode
    /// (in 1.x it was a data race), for every family of API that takes a context and a closure.
    func testRejectsMainActorStateFromNamedContextClosures() throws {
        try assertRejected("reject_named_context_mainactor_state.swift")
        try assertRejected("reject_named_context_mainactor_state.swift", languageMode: 5)
    }

    /// The same in an actor method that uses `self`.
    func testRejectsActorStateFromNamedContextClosures() throws {
        try assertRejected("reject_named_context_actor_state.swift")
        try assertRejected("reject_named_context_actor_state.swift", languageMode: 5)
    }

    /// A closure given a context held in a value (a stored property, a parameter, `PromiseContext(qos:)`,
    /// a custom `PromiseContext.x`, a ternary, `.nowOr(value)`) is nonisolated and runs on that
    /// context too, so touching main-actor state from it is an error in both modes.
    func testRejectsMainActorStateFromContextValueClosures() throws {
        try assertRejected("reject_context_value_mainactor_state.swift")
        try assertRejected("reject_context_value_mainactor_state.swift", languageMode: 5)
    }

    /// The same in an actor method that uses `self`.
    func testRejectsActorStateFromContextValueClosures() throws {
        try assertRejected("reject_context_value_actor_state.swift")
        try assertRejected("reject_context_value_actor_state.swift", languageMode: 5)
    }

    /// `.main` is the main queue wherever it is written: in an actor or a class on another
    /// global actor, its `@MainActor` closure cannot touch that actor's state, in both modes.
    func testRejectsActorStateInMainClosure() throws {
        try assertRejected("reject_actor_state_in_main_closure.swift")
        try assertRejected("reject_actor_state_in_main_closure.swift", languageMode: 5)
    }

    func testRejectsActorStateInCallback() throws {
        try assertRejected("reject_actor_state_in_callback.swift")
    }

    func testRejectsNonSendableResolverEscapingToQueue() throws {
        try assertRejected("reject_resolver_escapes_to_queue.swift")
    }

    func testRejectsNonSendableCaptureInPromiseInit() throws {
        try assertRejected("reject_capture_class_in_init.swift")
    }

    func testRejectsNonSendableCaptureInOnRequestCancel() throws {
        try assertRejected("reject_capture_task_in_on_request_cancel.swift")
    }

    func testRejectsNonSendableSelfInCancelRequested() throws {
        try assertRejected("reject_capture_self_in_cancel_requested.swift")
    }

    func testRejectsNonSendableCaptureInTokenPromise() throws {
        try assertRejected("reject_capture_class_in_token_promise.swift")
    }

    func testRejectsNonSendablePromiseCapturedByCallback() throws {
        try assertRejected("reject_nonsendable_promise_captured_by_callback.swift")
    }

    func testRejectsNonSendableResultAndTokenPromiseCaptured() throws {
        try assertRejected("reject_nonsendable_result_captured.swift")
    }
}
