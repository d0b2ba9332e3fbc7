import Foundation
import Testing
import Tomorrowland
import TomorrowlandAsync

/// ConvertedSplit.swift at run time (the tool's output for Fixtures/ConvertBody/Split.swift): a
/// `timeout` with steps after it keeps 1.x's errors, its cancellation passing through to the
/// source, and its contexts; a `mapResult` after a `catch` or an `always` reads their result, a
/// cancellation included, and the steps after it take what it gives.
@Suite("convert-body: a chain split at a timeout or a mapResult, at run time", .timeLimit(.minutes(2)))
struct ConvertedSplitTests {
    /// Waits (a bounded time) until `log` has an entry that starts with `prefix`.
    func eventually(_ log: SplitLog, has prefix: String) async -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !log.entries.contains(where: { $0.hasPrefix(prefix) }), Date() < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }
        return log.entries.contains { $0.hasPrefix(prefix) }
    }

    @Test("`restock`: the value passes; the statement before the chain and the source ran during the call")
    func restockValue() async throws {
        let log = SplitLog()
        let promise: Promise<Int, StockError> = Shelf(log: log).restock(5, after: 0.01, limit: 300)
        #expect(log.entries == ["restock 5 on elsewhere", "delivery 5 on elsewhere"])
        #expect(try await promise.value == 5)
    }

    @Test("`restock`: the source's error reaches the `mapError` as `.rejected(error)`, which gives it back")
    func restockRejected() async {
        let promise: Promise<Int, StockError> = Shelf(log: SplitLog()).restock(-1, after: 0, limit: 300)
        #expect(await promise.resolvedResult == .error(.outOfStock))
    }

    @Test("`restock`: timing out is `.timedOut` to the `mapError`; the timeout's cancel request reaches the source and the `onCancel` on the queue")
    func restockTimedOut() async {
        let log = SplitLog()
        let promise: Promise<Int, StockError> = Shelf(log: log).restock(5, after: 300, limit: 0.05)
        #expect(await promise.resolvedResult == .error(.timedOut))
        // (The source's `.immediate` handler runs where the request is made: on the queue, where the timer fired.)
        #expect(await eventually(log, has: "delivery cancelled"))
        #expect(await eventually(log, has: "restock cancelled on shelf"))
    }

    /// (A long timeout: a test that blocks the cooperative pool's threads delays the Task's cancellation, never the timer.)
    @Test("`restock`: a cancel request on the wrapper passes through the timeout to the source; the `onCancel` runs on the queue")
    func restockCancelled() async {
        let log = SplitLog()
        let promise: Promise<Int, StockError> = Shelf(log: log).restock(5, after: 300, limit: 300)
        promise.requestCancel()
        let result = await promise.resolvedResult
        #expect(result == .cancelled, "\(result)")
        #expect(await eventually(log, has: "delivery cancelled"))
        #expect(await eventually(log, has: "restock cancelled on shelf"))
    }

    @Test("a `mapError` and a `map` on the queue after a typed `timeout`: the value, and `.timedOut` mapped on the queue")
    func stepsAfterTheTimeout() async throws {
        let log = SplitLog()
        #expect(try await (Shelf(log: log).restockedLevel(5, limit: 300) as Promise<Int, StockError>).value == 60)
        #expect(log.entries.contains("map on shelf"))
        let timedOut = SplitLog()
        #expect(await (Shelf(log: timedOut).restockedLevel(5, limit: 0) as Promise<Int, StockError>).resolvedResult == .error(.timedOut))
        #expect(timedOut.entries.contains("mapError on shelf"))
        #expect(!timedOut.entries.contains("map on shelf"))
    }

    @Test("an untyped `timeout` between value steps: the value")
    func untyped() async throws {
        #expect(try await (Shelf(log: SplitLog()).doubledLevel(5, limit: 300) as StdPromise<Int>).value == 12)
    }

    @Test("`mapResult` after a `catch`: the value goes on to the `map` on the queue; an error skips it after the `catch` ran on the queue")
    func settledValueAndError() async throws {
        let log = SplitLog()
        #expect(try await (Shelf(log: log).settled(2, after: 0.01) as Promise<Int, StockError>).value == 30)
        #expect(log.entries.contains("settled 3 on shelf"))
        let failing = SplitLog()
        #expect(await (Shelf(log: failing).settled(-1, after: 0) as Promise<Int, StockError>).resolvedResult == .error(.outOfStock))
        #expect(failing.entries.contains("failed: outOfStock on shelf"))
        #expect(!failing.entries.contains { $0.hasPrefix("settled") })
    }

    @Test("`mapResult` after a `catch`: a cancel request reaches the source, the closure reads `.cancelled` and its value goes on")
    func settledCancelled() async throws {
        let log = SplitLog()
        let promise: Promise<Int, StockError> = Shelf(log: log).settled(1, after: 300)
        promise.requestCancel()
        #expect(await promise.resolvedResult == .value(-10))
        #expect(log.entries.contains { $0.hasPrefix("delivery cancelled") })
        #expect(log.entries.contains("settled -1 on shelf"))
    }

    @Test("`flatMapResult` after an `always`: the `always` ran, the closure's promise goes on to the `map`, an error too")
    func recounted() async throws {
        let log = SplitLog()
        #expect(try await (Shelf(log: log).recounted(5) as Promise<Int, StockError>).value == 106)
        #expect(log.entries.contains("counted on elsewhere"))
        let failing = SplitLog()
        #expect(await (Shelf(log: failing).recounted(-1) as Promise<Int, StockError>).resolvedResult == .error(.outOfStock))
        #expect(failing.entries.contains("counted on elsewhere"))
    }
}
