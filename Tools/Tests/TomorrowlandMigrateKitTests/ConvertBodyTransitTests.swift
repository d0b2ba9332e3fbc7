import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on the shapes of the blind corpus Transit whose first conversion the compiler
/// rejected (Fixtures/ConvertBody/Transit.swift): each is converted and compiles (issue 37).
@Suite("convert-body: Transit's shapes")
struct ConvertBodyTransitTests {
    @Test("with the compiler, Swift 5 and 6 mode: pinned calls and promises, `withLock`, typed context values, ignoringCancel, propagatingCancellation, timeout, nowOr, tap, onCancel",
          arguments: [5, 6])
    func converted(swiftVersion: Int) throws {
        let fixture = try Support.fixture("ConvertBody/Transit.swift")
        let (result, notes, directory) = try ConvertBodyTests.proved(fixture.text, path: "Transit.swift", swiftVersion: swiftVersion)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 14 of 14 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let text = try #require(result.changes.first?.updated)
        // A call kept for its promise, over several lines, is pinned to the promise's type (the
        // async twin would be picked, and the compiler then failed to produce a diagnostic).
        #expect(text.contains("""
                    let primary = server.request("primary/\\(stopID)") { () -> Result<[Int], TransitError> in
                        server.departures[stopID].map { .success($0) } ?? .failure(.notFound(stopID))
                    } as Promise<[Int], TransitError>
            """), "\(text)")
        #expect(text.contains("return try await when(first: [(consume primary), (consume mirror)], cancelRemaining: true).value"))
        // `lock()` … `unlock()` (unavailable in async code) as `withLock`; a lone call's value is discarded, as it was.
        #expect(text.contains("""
                    if let cached = cached(stopID) {
                        lock.withLock { served += 1 }
                        return cached
                    }
                    let first = try await fastest(stopID: stopID).first ?? 0
                    self.lock.withLock {
                        self.byID[stopID] = first
                        self.served += 1
                    }
                    self.lock.withLock { _ = self.seen.insert(stopID) }
                    return first
            """), "\(text)")
        // A `PromiseContext.Main` value off the main actor: its executor is the main queue's.
        #expect(text.contains("return await withTaskExecutorPreference(announce.context.taskExecutor) { @concurrent in"), "\(text)")
        // On the main actor, `PromiseContext.Main` and `PromiseContext.CallerIsolated` values run inline (no `.taskExecutor`),
        // after one suspension: 1.x enqueued the first (`.main`) callback (ConvertedCallbackOrderTests).
        #expect(text.contains("""
                    let rows = try await Task.yieldingAfter { try await departures.fastest(stopID: "S1") }
                    self.rows = rows
                    self.updates += 1
                    self.updates += 1
                    return rows
            """), "\(text)")
        // `ignoringCancel` on the base: awaited as it is (a cancelled Task keeps waiting for the value it still delivers).
        #expect(text.contains("""
                    let value = try await fastest(stopID: stopID)
                        .ignoringCancel().value
            """), "\(text)")
        // `propagatingCancellation` on the base: the handler is the `onCancel` of the base's await.
        #expect(text.contains("""
                    let value = try await withTaskCancellationHandler {
                        try await server.request("tracked/\\(stopID)") { () -> Result<[Int], TransitError> in .success([1]) }
                    } onCancel: {
                        self.lock.lock()
                        self.served += 1
                        self.lock.unlock()
                    }
                    return value.count
            """), "\(text)")
        // A context chosen at run time: the executor, chosen before the first await.
        #expect(text.contains("""
                    let executor: (any TaskExecutor)? = deliversAtOnce ? nil : PromiseContext.utility.taskExecutor
                    let value = try await fastest(stopID: stopID)
                    return await withTaskExecutorPreference(executor) { @concurrent in
            """), "\(text)")
        // `timeout` on the base: it stays on that promise, awaited; the handler takes its `PromiseTimeoutError`.
        #expect(text.contains("""
                    do {
                        return try await fastest(stopID: stopID)
                            .timeout(on: .utility, delay: seconds).value
                    } catch let error as PromiseTimeoutError<TransitError> {
                        switch error {
                        case .timedOut: throw TransitError.offline
                        case .rejected(let underlying): throw underlying
                        }
                    }
            """), "\(text)")
        // `timeout` alone on the base: the twin awaits it.
        #expect(text.contains("return try await fastest(stopID: stopID).timeout(on: .utility, delay: 5).value"), "\(text)")
        // A `let` alone between `lock()` and `unlock()`.
        #expect(text.contains("""
                    let count = lock.withLock { served }
                    return try await fastest(stopID: stopID).count + count
            """), "\(text)")
        // A promise made on the base: its type spelled (the compiler's).
        #expect(text.contains("""
                    _ = try await (Promise(on: .utility) { resolver in
                        DispatchQueue.global().async { resolver.fulfill(with: ()) }
                    } as Promise<(), TransitError>).value
                    self.lock.withLock { self.served += 1 }
            """), "\(text)")
        // A `tap` reading the result before the one error handler: the result's `switch` throws into the handler's `catch`.
        #expect(text.contains("""
                    do {
                        let result: PromiseResult<Int?, TransitError>
                        do {
                            let value = try await fastest(stopID: stopID).first
                            result = .value(value)
                        } catch let error as TransitError {
                            result = .error(error)
                        } catch {
                            result = .cancelled
                        }
                        if case .error = result { self.lock.withLock { self.served += 1 } }
                        switch result {
                        case .value(let value): return value
                        case .error(let error): throw error
                        case .cancelled: throw CancellationError()
                        }
                    } catch let error as CancellationError {
                        throw error
                    } catch {
                        return nil
                    }
            """), "\(text)")
        // `.nowOr(.main)` on the main actor: inline.
        #expect(text.contains("""
                    let rows = try await departures.fastest(stopID: "S3")
                    self.rows = rows
                    return rows
            """), "\(text)")
        // `catch` and `onCancel` at the end: a clause each.
        #expect(text.contains("""
                    do {
                        let rows = try await Task.yieldingAfter { try await departures.fastest(stopID: "S2") }
                        self.rows = rows
                        return rows
                    } catch let error as CancellationError {
                        self.status = "idle"
                        throw error
                    } catch let error as TransitError {
                        self.status = "failed \\(error)"
                        throw error
                    }
            """), "\(text)")
        // What was written compiles in the same mode, with no warning in what convert-body wrote.
        try text.write(to: directory.appendingPathComponent("Transit.swift"), atomically: true, encoding: .utf8)
        let outcome = try Support.compile([(path: "Transit.swift", text: text)], swiftVersion: swiftVersion)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(!(outcome.stdout + outcome.stderr).contains("warning:"), "\(outcome.stdout)\(outcome.stderr)")
    }

    /// Why `withLocks` leaves `lines` as a chain, or nil when it rewrites them.
    static func lockReason(_ lines: [String]) -> String? {
        do {
            _ = try ChainConversion.withLocks(lines)
            return nil
        } catch {
            return (error as? ChainConversion.Left)?.reason
        }
    }

    @Test("a `lock()` in async code whose `unlock()` does not bracket statements `withLock` can hold leaves the chain, with why")
    func locksLeft() throws {
        let reason = Self.lockReason
        #expect(reason(["lock.lock()", "await refresh()", "lock.unlock()"])?.hasSuffix("hold an `await` (a lock is never held across a suspension)") == true)
        #expect(reason(["lock.lock()", "guard ok else { return 1 }", "lock.unlock()"])?.contains("a `return` out of the locked statements") == true)
        #expect(reason(["self.lock.lock()", "let n = count", "let m = n", "lock.unlock()", "print(m)"])?.contains("a declaration") == true)
        // A `let` alone between them: its value under the lock.
        #expect(try ChainConversion.withLocks(["lock.lock()", "let n = count", "lock.unlock()"]) == ["let n = lock.withLock { count }"])
        // Statements, then a `let` last (Pharmacy's `prescription(id:)`): the value is the closure's `return`, read under the lock.
        #expect(try ChainConversion.withLocks(["lock.lock()", "lookups += 1", "let cached = cache[id]", "lock.unlock()", "log(cached)"])
            == ["let cached = lock.withLock {\n    lookups += 1\n    return cache[id]\n}\nlog(cached)"])
        #expect(reason(["lock.lock()", "lookups += 1", "let cached = try load(id)", "lock.unlock()"]) != nil, "a throwing value stays out")
        // `defer { unlock() }` in the twin's own body: it held the lock to the end of the promise function (ConvertBodyKitchenTests).
        #expect(reason(["lock.lock()", "defer { lock.unlock() }"])?.contains("holds it to the end of a block that is not a closure's") == true)
        #expect(reason(["lock.lock()", "defer { other.unlock() }"])?.contains("no `lock.unlock()` in the same block") == true)
        // In a synchronous closure `lock()` is allowed: nothing to do.
        #expect(try ChainConversion.withLocks(["let f = { lock.lock(); n += 1; lock.unlock() }"]) == ["let f = { lock.lock(); n += 1; lock.unlock() }"])
        // In the closure of `withTaskExecutorPreference`, async code: rewritten there too.
        #expect(try ChainConversion.withLocks([
            "await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in",
            "    lock.lock(); n += 1; lock.unlock()",
            "}",
        ]) == ["await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in\n    lock.withLock { n += 1 }\n}"])
    }
}
