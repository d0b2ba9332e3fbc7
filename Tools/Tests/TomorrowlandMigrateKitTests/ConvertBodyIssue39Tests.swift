import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on the shapes issue 39 left on Tools/Corpus and the copy of Examples/
/// (Fixtures/ConvertBody/Issue39.swift): `timeout` after a step, `then(with: self)`, a context
/// chosen at run time in main-actor code. Each is converted and compiles.
@Suite("convert-body: issue 39's shapes")
struct ConvertBodyIssue39Tests {
    @Test("with the compiler, Swift 5 and 6 mode: `timeout` after a step (typed and untyped), `then(with: self)`, a ternary context on the main actor",
          arguments: [5, 6])
    func converted(swiftVersion: Int) throws {
        let fixture = try Support.fixture("ConvertBody/Issue39.swift")
        let (result, notes, directory) = try ConvertBodyTests.proved(fixture.text, path: "Issue39.swift", swiftVersion: swiftVersion)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 6 of 6 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let text = try #require(result.changes.first?.updated)
        // `timeout` after a step, typed: the steps in a local function, the timeout kept on the promise that starts
        // it at once, the errors the generic `timeout` made.
        #expect(text.contains("""
                    func untimed() async throws -> [String] {
                        return try await titles(limit: 3).map { $0.uppercased() }
                    }
                    do {
                        return try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .immediate, delay: seconds).value
                    } catch is PromiseTimeoutError<Swift.Error> {
                        throw PromiseTimeoutError<FeedError>.timedOut
                    } catch let error as FeedError {
                        throw PromiseTimeoutError<FeedError>.rejected(error)
                    }
            """), "\(text)")
        // Untyped: the statement before the chain first, outside; the `tap` reads the steps' result.
        #expect(text.contains("""
                    tally.record("started \\(path)")
                    func untimed() async throws -> Int {
                        let result: PromiseResult<Int, Swift.Error>
            """), "\(text)")
        #expect(text.contains("return try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .utility, delay: seconds).value"))
        // `then(with: self)`: the owner is the twin's `self`; the token's step still checks it; an assignment stays one;
        // the `then` 1.x enqueued on `.main` runs after the call (`Task.yieldingAfter`: the wrapper starts the twin at once).
        #expect(text.contains("""
                    loading = true
                    let validity = token.validity()
                    let value = try await Task.yieldingAfter { try await feed.titles(limit: 2) }
                    self.show(value)
                    guard validity.isValid else { throw CancellationError() }
                    self.loading = false
            """), "\(text)")
        // A ternary context on the main actor: `.immediate` as the global executor (`nil`), chosen before the await.
        #expect(text.contains("let executor: (any TaskExecutor)? = quick ? nil : PromiseContext.utility.taskExecutor"), "\(text)")
        // `.map { _ in }.recover { _ in }`: the steps (their handlers, `always` as a `defer`) in a local function; every
        // error but cancellation ends in the `catch`.
        #expect(text.contains("""
                    isLoading = true
                    func steps() async throws -> [String] {
                        let validity = token.validity()
                        defer {
            """), "\(text)")
        #expect(text.contains("""
                    do {
                        _ = try await steps()
                    } catch let error as CancellationError {
                        throw error
                    } catch {
                    }
            """), "\(text)")
        // `assumeIsolated` on the actor's queue: the callback's code runs isolated to the actor, on its executor.
        #expect(text.contains("""
                let payment = try await fetchPayment(id)
                return await { (ledger: isolated Ledger) in
                    ledger.record("\\(payment), recorded by a promise callback")
                    return payment
                }(ledger)
            """), "\(text)")
        // What was written compiles in the same mode, with no warning in what convert-body wrote.
        try text.write(to: directory.appendingPathComponent("Issue39.swift"), atomically: true, encoding: .utf8)
        let outcome = try Support.compile([(path: "Issue39.swift", text: text)], swiftVersion: swiftVersion)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(!(outcome.stdout + outcome.stderr).contains("warning:"), "\(outcome.stdout)\(outcome.stderr)")
    }
}
