import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on chains split where an operator acts on the whole chain before it and steps
/// follow (Fixtures/ConvertBody/Split.swift, ChainConversion+Split.swift): a `timeout` with steps
/// after it (Pharmacy's `restock`), a `mapResult` or `flatMapResult` with steps after it after an
/// error handler or `always`. Each is converted and compiles in both modes; what the tool writes in
/// Swift 6 mode is ConvertedSplit.swift, which ConvertedSplitTests runs.
@Suite("convert-body: a chain split at a timeout or a mapResult")
struct ConvertBodySplitTests {
    @Test("with the compiler, Swift 5 and 6 mode: the steps before the split a local function, the steps after it on what stands for it",
          arguments: [5, 6])
    func converted(swiftVersion: Int) throws {
        let fixture = try Support.fixture("ConvertBody/Split.swift")
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes(fixture.text, path: "Split.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 5 of 5 chain bodies converted, 0 left (reasons above)", "\(notes)")
        // Pharmacy's `restock`: the statements before the chain first (a promise made with its resolver, awaited in `untimed()`,
        // whose `onCancel` on it, the last step before the `timeout`, has the type `untimed()` returns); the steps in `untimed()`,
        // under the chain's `timeout` in `timed()`, which throws what the generic `timeout` made; the `mapError` switches over it.
        #expect(text.contains("""
                        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                            resolver.fulfill(with: amount)
                        }
                    }
                    func untimed() async throws -> Int {
                        let value: Int
                        do {
                            value = try await promise.value
                        } catch let error as CancellationError {
                            await withTaskExecutorPreference(PromiseContext.queue(queue).taskExecutor) { @concurrent in
                                log.append("restock cancelled")
                            }
                            throw error
                        }
                        return value
                    }
                    func timed() async throws -> Int {
                        do {
                            return try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .queue(queue), delay: limit).value
                        } catch is PromiseTimeoutError<Swift.Error> {
                            throw PromiseTimeoutError<StockError>.timedOut
                        } catch let error as StockError {
                            throw PromiseTimeoutError<StockError>.rejected(error)
                        }
                    }
                    do {
                        return try await timed()
                    } catch let error as PromiseTimeoutError<StockError> {
                        switch error {
                        case .timedOut: throw StockError.timedOut
                        case .rejected(let error): throw error
                        }
                    }
            """), "\(text)")
        // A `mapError` on a queue then a `map` after the `timeout`: as after any awaited base.
        #expect(text.contains("""
                    let level: Int
                    do {
                        level = try await timed()
                    } catch let error as PromiseTimeoutError<StockError> {
                        throw await withTaskExecutorPreference(PromiseContext.queue(queue).taskExecutor) { @concurrent () async -> StockError in
                            log.append("mapError")
            """), "\(text)")
        // Untyped: the `timeout` on the steps' `StdPromise`, as 1.x's untyped `timeout`.
        #expect(text.contains("""
                    let level = try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .utility, delay: limit).value
            """), "\(text)")
        // `mapResult` after a `catch`: the steps before it in `steps()`, the result taken from it, the `map` after it.
        #expect(text.contains("""
                    func steps() async throws -> Int {
                        do {
                            return try await delivery(amount, after: delay) + 1
                        } catch let error as StockError {
            """), "\(text)")
        #expect(text.contains("""
                    let result: PromiseResult<Int, StockError>
                    do {
                        let value2 = try await steps()
                        result = .value(value2)
                    } catch let error as StockError {
                        result = .error(error)
                    } catch {
                        result = .cancelled
                    }
            """), "\(text)")
        // `flatMapResult` after an `always` (a `defer` in `steps()`): its promise awaited by the `map` after it.
        #expect(text.contains("""
                    func steps() async throws -> Int {
                        defer {
                            log.append("counted")
                        }
                        return try await delivery(amount, after: 0)
                    }
            """), "\(text)")
        #expect(text.contains("return try await next.value + 1"), "\(text)")
        // `TOMORROWLAND_WRITE_CONVERTED_SPLIT=1 swift test --filter ConvertBodySplitTests` writes ConvertedSplit.swift anew.
        guard swiftVersion == 6 else { return }
        let compiled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ConvertedSplit.swift")
        if ProcessInfo.processInfo.environment["TOMORROWLAND_WRITE_CONVERTED_SPLIT"] == "1" {
            try text.write(to: compiled, atomically: true, encoding: .utf8)
        }
        #expect(text == (try String(contentsOf: compiled, encoding: .utf8)), "ConvertedSplit.swift is not the tool's output")
    }

    @Test("a chain not split there keeps its chain, with the limit named: a second `timeout` after steps")
    func notSplit() throws {
        let (result, notes, directory) = try ConvertBodyTests.proved("""
            import Foundation
            import Tomorrowland
            import TomorrowlandAsync

            enum LoadError: Error, Sendable {
                case slow
            }

            func load(_ n: Int) -> Promise<Int, LoadError> {
                Promise(fulfilled: n)
            }

            func twiceBounded(_ n: Int) -> StdPromise<Int> {
                load(n)
                    .upcast
                    .map(on: .immediate) { $0 + 1 }
                    .timeout(on: .utility, delay: 1)
                    .map(on: .immediate) { $0 * 2 }
                    .timeout(on: .utility, delay: 2)
                    .map(on: .immediate) { $0 - 1 }
            }
            """, path: "Twice.swift")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.changes.isEmpty, "\(result.diff)")
        #expect(notes.contains {
            $0.hasPrefix("twiceBounded(_:): left as a chain: `timeout` after steps, in a chain not split there (a limit of the tool: "
                + "one `timeout` per chain")
        }, "\(notes)")
    }
}
