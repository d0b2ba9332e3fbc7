import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on the two chains the blind corpus Kitchen's first run left for a limit of the
/// tool: `lock(); defer { unlock() }` in a step's closure (`InventoryStore.restock`), and a final
/// `always` on a named context in a chain whose promise cannot fail (`FryerStation.changeOil`).
/// Run-time checks of both: ConvertedLockAndAlwaysTests.
@Suite("convert-body: Kitchen's shapes")
struct ConvertBodyKitchenTests {
    static let inventory = """
        import Foundation
        import Tomorrowland

        public enum StockError: Error, Sendable { case short }

        public final class InventoryStore: @unchecked Sendable {
            private let lock = NSLock()
            private var stock: [String: Int] = [:]
            public let context: PromiseContext

            public init(context: PromiseContext = .utility) {
                self.context = context
            }

            public func fetch(_ n: Int) -> Promise<Int, Error> {
                Promise(fulfilled: n)
            }

            public func restock(_ sku: String, amount: Int, after delay: TimeInterval) -> Promise<Int, NoError> {
                return Promise<Int, NoError>(on: .utility, fulfilled: amount, after: delay)
                    .map(on: context) { amount in
                        self.lock.lock()
                        defer { self.lock.unlock() }
                        self.stock[sku, default: 0] += amount
                        return self.stock[sku] ?? 0
                    }
            }

            public func count(_ sku: String, from n: Int) -> Promise<Void, Error> {
                fetch(n).map(on: context) { value -> Void in
                    self.lock.lock(); defer { self.lock.unlock() }
                    if value < 0 { return }
                    self.stock[sku] = value
                }
            }

            public func take(_ sku: String, from n: Int) -> Promise<Int, Error> {
                fetch(n).tryMap(on: .utility) { amount in
                    self.lock.lock()
                    defer { self.lock.unlock() }
                    guard let have = self.stock[sku], have >= amount else { throw StockError.short }
                    self.stock[sku] = have - amount
                    return have - amount
                }
            }

            public func level(_ sku: String, from n: Int) -> Promise<Int, Error> {
                fetch(n).map(on: .utility) { _ in
                    self.lock.lock()
                    defer { self.lock.unlock() }
                    return self.stock[sku] ?? 0
                }
            }

            public func chained(_ sku: String, from n: Int) -> Promise<Int, Error> {
                fetch(n).flatMap(on: context) { value in
                    self.lock.lock()
                    defer { self.lock.unlock() }
                    self.stock[sku] = value
                    return self.fetch(value)
                }
            }
        }
        """

    @Test("`lock(); defer { unlock() }` then the rest of a step's closure: `return lock.withLock { <rest> }`, or its await left",
          arguments: [5, 6])
    func deferredUnlock(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes(Self.inventory, path: "InventoryStore.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 4 of 5 chain bodies converted, 1 left (reasons above)", "\(notes)")
        // Kitchen's `restock`: the same statements under the lock, their value the closure's.
        #expect(text.contains("""
                    let value = try await Promise<Int, NoError>(on: .utility, fulfilled: amount, after: delay).value
                    return await withTaskExecutorPreference(context.taskExecutor) { @concurrent in
                        return self.lock.withLock {
                            self.stock[sku, default: 0] += value
                            return self.stock[sku] ?? 0
                        }
                    }
            """), "\(text)")
        // No value returned: no `return` before `withLock`; an early `return` leaves its closure, as it left the step's.
        #expect(text.contains("""
                        self.lock.withLock {
                            if value < 0 { return }
                            self.stock[sku] = value
                        }
            """), "\(text)")
        // A throw under the lock: `withLock` rethrows it and unlocks, as the `defer` did.
        #expect(text.contains("""
                        return try self.lock.withLock {
                            guard let have = self.stock[sku], have >= amount else { throw StockError.short }
            """), "\(text)")
        #expect(text.contains("return self.lock.withLock { self.stock[sku] ?? 0 }"), "\(text)")
        // The promise a `flatMap` returned is awaited in the twin: the lock would be held across it.
        #expect(notes.contains(
            "chained(_:from:): left as a chain: `lock.lock()` in what becomes async code (`NSLock.lock()` is unavailable from async contexts), "
                + "and the statements its `defer { lock.unlock() }` holds it over hold an `await` (a lock is never held across a suspension)"
        ), "\(notes)")
        #expect(!text.contains("self.lock.lock()\n                    defer { self.lock.unlock() }\n                    self.stock[sku, default: 0]"), "\(text)")
    }

    @Test("`withLocks` on `lock(); defer { unlock() }` in an async closure: the rest of the closure in `withLock`, or why not")
    func deferredUnlockLines() throws {
        let reason = ConvertBodyTransitTests.lockReason
        let open = "await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in"
        #expect(try ChainConversion.withLocks([open, "    lock.lock(); defer { lock.unlock() }", "    n += 1", "}"])
            == [open + "\n    lock.withLock { n += 1 }\n}"])
        // A lone call's value stays discarded; `self.lock` and `lock` are one lock.
        #expect(try ChainConversion.withLocks([open, "    self.lock.lock()", "    defer { lock.unlock() }", "    log(n)", "}"])
            == [open + "\n    self.lock.withLock { _ = log(n) }\n}"])
        // A value returned, a `break` of a `switch` in it, a throw: `return try lock.withLock { … }`.
        #expect(try ChainConversion.withLocks([
            open, "    lock.lock()", "    defer { lock.unlock() }", "    switch n {", "    case 0: break", "    default: try check(n)", "    }",
            "    return n", "}",
        ]) == [open + "\n    return try lock.withLock {\n        switch n {\n        case 0: break\n        default: try check(n)\n        }\n"
            + "        return n\n    }\n}"])
        // A throw caught in the rest, `try?`: no `try`.
        #expect(try ChainConversion.withLocks([open, "    lock.lock()", "    defer { lock.unlock() }", "    do { try check(n) } catch { n = 0 }",
                                               "    return try? load(n)", "}"])
            == [open + "\n    return lock.withLock {\n        do { try check(n) } catch { n = 0 }\n        return try? load(n)\n    }\n}"])
        #expect(reason([open, "    lock.lock()", "    defer { lock.unlock() }", "    await refresh()", "}"])?
            .hasSuffix("hold an `await` (a lock is never held across a suspension)") == true)
        // Another lock's `unlock()` in the `defer`: no pair.
        #expect(reason([open, "    lock.lock()", "    defer { other.unlock() }", "    n += 1", "}"])?.contains("no `lock.unlock()`") == true)
        // In a block that is not the closure's (an `if`), the lock was held past it: no rewrite.
        #expect(reason([open, "    if n > 0 {", "        lock.lock()", "        defer { lock.unlock() }", "        n += 1", "    }", "}"])?
            .contains("not a closure's") == true)
    }

    /// Kitchen's `FryerStation.changeOil(duration:)`, a method of `fryer` and `station`.
    static let changeOil = """
            public func changeOil(duration: TimeInterval) -> Promise<Void, NoError> {
                oilChanges += 1
                let change = Promise<Void, NoError>(on: context, fulfilled: (), after: duration)
                changingOil = change
                return change.always(on: context) { [weak self] _ in
                    self?.changingOil = nil
                }
            }
        """

    static let fryer = """
        import Foundation
        import Tomorrowland

        public final class FryerStation: @unchecked Sendable {
            public private(set) var oilChanges = 0
            private var changingOil: Promise<Void, NoError>?
            public let context: PromiseContext

            public init(context: PromiseContext) {
                self.context = context
            }

        \(changeOil)

            public func measured(_ probe: Promise<Int, NoError>) -> Promise<Int, NoError> {
                probe.map(on: .immediate) { $0 * 2 }.always(on: .utility) { _ in
                    self.oilChanges += 1
                }
            }
        }
        """

    @Test("a final `always` on a named context in a chain that cannot fail: after the value and in a `catch` of the cancellation",
          arguments: [5, 6])
    func alwaysWithoutErrors(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes(Self.fryer, path: "Fryer.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("""
                public nonisolated(nonsending) func changeOil(duration: TimeInterval) async throws(CancellationError) {
                    oilChanges += 1
                    let change = Promise<Void, NoError>(on: context, fulfilled: (), after: duration)
                    changingOil = change
                    do {
                        try await change.value
                        await withTaskExecutorPreference(context.taskExecutor) { @concurrent in
                            self.changingOil = nil
                        }
                    } catch {
                        await withTaskExecutorPreference(context.taskExecutor) { @concurrent in
                            self.changingOil = nil
                        }
                        throw error
                    }
                }
            """), "\(text)")
        #expect(text.contains("""
                    do {
                        let value = try await probe.value * 2
                        await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                            self.oilChanges += 1
                        }
                        return value
                    } catch {
            """), "\(text)")
    }

    static let station = """
        import Foundation
        import Tomorrowland

        public class StationWorker {
            public let context: PromiseContext

            public init(context: PromiseContext) {
                self.context = context
            }
        }

        public final class FryerStation: StationWorker {
            public private(set) var oilChanges = 0
            private var changingOil: Promise<Void, NoError>?

        \(changeOil)
        }

        """

    /// `convert-body --include-public` on `station` (plus `caller`) in a Swift 5 mode module, Kitchen's mode.
    static func convertedStation(caller: String) throws -> (text: String?, notes: [String]) {
        let source = [(path: "Stations.swift", text: station + caller)]
        let twins = Support.applying(AddAsyncTwins.run(.inMemory(source)), to: source)
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: 5, source: twins[0])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertBody.run(set, oracle: oracle, includingPublic: true)
        return (result.changes.first?.updated, result.notes.map(\.message))
    }

    @Test("Kitchen's `FryerStation`, a non-Sendable subclass: left while its promise version is called, converted once it is not")
    func fryerStation() throws {
        let called = try Self.convertedStation(caller: """
            public func startShift(_ fryer: FryerStation) {
                _ = fryer.changeOil(duration: 60)
            }
            """)
        #expect(called.notes.contains {
            $0.hasPrefix("changeOil(duration:): left as a chain: `FryerStation` is not known to be Sendable")
                && $0.contains("the promise version, which could go instead, is still called at ")
        }, "\(called.notes)")
        #expect(!called.notes.contains { $0.contains("`always`") }, "\(called.notes)")
        // Nothing calls it: the promise version goes, and the twin holds the `always` as above.
        let uncalled = try Self.convertedStation(caller: "")
        #expect(uncalled.notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(uncalled.notes)")
        let text = try #require(uncalled.text, "\(uncalled.notes)")
        #expect(!text.contains("func changeOil(duration: TimeInterval) -> Promise<Void, NoError>"), "\(text)")
        #expect(text.contains("""
                    } catch {
                        await withTaskExecutorPreference(context.taskExecutor) { @concurrent in
                            self.changingOil = nil
                        }
                        throw error
                    }
            """), "\(text)")
    }
}
