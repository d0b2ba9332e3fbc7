import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on the `.nowOr` and `mapResult` shapes that issue 37 left as limits of the tool
/// (Fixtures/ConvertBody/NowOrLimits.swift): `tap`, `always`, `onCancel` and a step with a token on
/// `.nowOr`, `PromiseContext.isExecutingNow` on `.nowOr`, `mapResult` and `flatMapResult` with
/// steps after them, after an error handler and `always`, and with a token. Each is converted and
/// compiles; the run-time checks are ConvertBodyNowOrLimitsBehaviourTests'.
@Suite("convert-body: issue 37's `.nowOr` and `mapResult` shapes")
struct ConvertBodyNowOrLimitsTests {
    @Test("with the compiler, Swift 5 and 6 mode: each converted, and what was written compiles without a warning", arguments: [5, 6])
    func converted(swiftVersion: Int) throws {
        let fixture = try Support.fixture("ConvertBody/NowOrLimits.swift")
        let (result, notes, directory) = try ConvertBodyTests.proved(fixture.text, path: "NowOrLimits.swift", swiftVersion: swiftVersion)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try #require(result.changes.first?.updated)
        if ProcessInfo.processInfo.environment["TOMORROWLAND_PRINT_CONVERTED"] == "1" { print(text) }
        #expect(notes.last == "convert-body: 14 of 14 chain bodies converted, 0 left (reasons above)", "\(notes)")
        // `tap` on `.nowOr(c)`: the result taken, the closure on both paths, the result passed on.
        #expect(text.contains("""
                    if resolvedAtOnce {
                        self.shelf.record("tapped \\(result)")
                    } else {
                        await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                            self.shelf.record("tapped \\(result)")
                        }
                    }
            """), "\(text)")
        // `onCancel` on `.nowOr(.main)` off the main actor: the `catch` of `CancellationError` on both of its paths.
        #expect(text.contains("""
                    } catch let error as CancellationError {
                        if resolvedAtOnce {
                            {
                                MainActor.assumeIsolated {
                                    self.shelf.record("cancelled")
                                }
                            }()
                        } else {
                            await MainActor.run {
                                self.shelf.record("cancelled")
                            }
                        }
                        throw error
                    }
            """), "\(text)")
        // A token on `.nowOr(c)`: checked on each path, where the closure runs.
        #expect(text.contains("""
                    if resolvedAtOnce {
                        guard validity.isValid else { throw CancellationError() }
                        result = value * 2
                    } else {
                        result = try await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                            guard validity.isValid else { throw CancellationError() }
                            return value * 2
                        }
                    }
            """), "\(text)")
        // `PromiseContext.isExecutingNow`: the split's flag; on the main actor, the flag of the base kept in a `let`.
        #expect(text.contains("body(level, resolvedAtOnce)"), "\(text)")
        #expect(text.contains("""
                    let resolvedAtOnce = promise.result != nil
                    let level = try await (consume promise).value
                    self.status = "\\(level)"
                    self.shownInstantly = resolvedAtOnce
            """), "\(text)")
        #expect(!text.contains("= PromiseContext.isExecutingNow") && !text.contains("!PromiseContext.isExecutingNow"), "\(text)")
        // `mapResult` with a step after it: the closure's value goes on.
        #expect(text.contains("""
                    let value4: Int
                    switch mapped {
                    case .value(let mappedValue): value4 = mappedValue
                    case .error(let error): switch error {}
                    case .cancelled: throw CancellationError()
                    }
                    return value4 * 2
            """), "\(text)")
        // `flatMapResult` with a step after it: its promise, awaited by the step.
        #expect(text.contains("let next: Promise<Int, StockError> = await withTaskExecutorPreference(PromiseContext.utility.taskExecutor)"))
        #expect(text.contains("let value2 = try await next.value\n        return \"level \\(value2)\""), "\(text)")
        // `mapResult` after `catch` and `always`: the steps are a local function, whose outcome is the result.
        #expect(text.contains("""
                    func steps() async throws -> Int {
                        do {
                            let value2 = try await level(drug)
            """), "\(text)")
        #expect(text.contains("""
                    do {
                        let value2 = try await steps()
                        result = .value(value2)
                    } catch let error as StockError {
            """), "\(text)")
        // `mapResult` on `.nowOr(c)`: the closure on both paths, its result in a `let`.
        #expect(text.contains("""
                    let mapped: PromiseResult<Int, NoError>
                    if resolvedAtOnce {
                        mapped = {
                            .value(result.value ?? 0)
                        }()
                    } else {
                        mapped = await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                            .value(result.value ?? 0)
                        }
                    }
            """), "\(text)")
        // `flatMapResult` on `.nowOr(.main)` off the main actor: its promise made on the main actor, awaited after.
        #expect(text.contains("""
                    let next: Promise<Int, StockError>
                    if resolvedAtOnce {
                        next = {
                            MainActor.assumeIsolated {
            """), "\(text)")
        // `mapResult` with a token: checked where the closure runs.
        #expect(text.contains("""
                    let validity = token.validity()
                    let result = await level(drug).resolvedResult
            """), "\(text)")
        try text.write(to: directory.appendingPathComponent("NowOrLimits.swift"), atomically: true, encoding: .utf8)
        let outcome = try Support.compile([(path: "NowOrLimits.swift", text: text)], swiftVersion: swiftVersion)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(!(outcome.stdout + outcome.stderr).contains("warning:"), "\(outcome.stdout)\(outcome.stderr)")
    }
}
