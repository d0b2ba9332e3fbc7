import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on what Ledger's last run left for the tool's own limits (issue 37, issue 39):
/// each shape is converted and compiles in Swift 5 and 6 mode, or is left with the language's reason.
@Suite("convert-body: Ledger's last tool limits")
struct ConvertBodyLedgerTests {
    @Test("a capture list that binds reads (`[store = self.store, clock = self.clock]`): `let`s where the chain was built",
          arguments: [5, 6])
    func boundCaptures(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            final class Book: Sendable {
                func post(_ amount: Int, at date: Date) -> Promise<Int, Error> { Promise(fulfilled: amount) }
            }

            final class Rail: @unchecked Sendable {
                let store = Book()
                let clock: @Sendable () -> Date = { Date() }

                func send(_ amount: Int) -> Promise<String, Error> { Promise(fulfilled: "ref-\\(amount)") }

                func submit(_ amount: Int) -> Promise<String, Error> {
                    let sent = send(amount)
                    return sent
                        .flatMap(on: .utility) { [store = self.store, clock = self.clock] reference in
                            store.post(amount, at: clock()).map(on: .immediate) { _ in reference }
                        }
                }
            }
            """, path: "Rail.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        // Read during the call, before the first await, as the capture was when 1.x registered the callback.
        let store = try #require(text.range(of: "let store = self.store"), "\(text)")
        let clock = try #require(text.range(of: "let clock = self.clock"), "\(text)")
        let awaited = try #require(text.range(of: "let reference = try await (consume sent).value"), "\(text)")
        #expect(store.upperBound < awaited.lowerBound && clock.upperBound < awaited.lowerBound, "\(text)")
        #expect(!text.contains("[store = self.store"), "\(text)")
    }

    @Test("a bound capture whose name the function uses outside its closure is left, with the reason")
    func boundCaptureClash() throws {
        let (result, notes, directory) = try ConvertBodyTests.proved("""
            import Foundation
            import Tomorrowland

            final class Rail: @unchecked Sendable {
                var limit = 3

                func send(_ amount: Int) -> Promise<Int, Error> { Promise(fulfilled: amount) }

                func submit(_ amount: Int) -> Promise<Int, Error> {
                    let limit = 10
                    return send(amount + limit).map(on: .utility) { [limit = self.limit] value in value + limit }
                }
            }
            """, path: "Rail.swift", swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.changes.isEmpty)
        #expect(notes.contains { $0.hasPrefix("submit(_:): left as a chain: a capture `[limit = self.limit]` whose name") }, "\(notes)")
    }
}

extension ConvertBodyLedgerTests {
    @Test("chains with no twin say add-async-twins' reason: a variadic parameter, a subclass's own async method, a non-Sendable override")
    func reasonsWithoutTwin() throws {
        let (result, notes, directory) = try ConvertBodyTests.proved("""
            import Foundation
            import Tomorrowland

            func raw(_ x: Int) -> Promise<Int, Error> { Promise(fulfilled: x) }

            final class Store: @unchecked Sendable {
                func accounts(withIDs ids: Int...) -> Promise<[Int], Error> {
                    when(fulfilled: ids.map { raw($0) })
                }
            }

            class Exporter {
                func export(_ x: Int) -> Promise<Int, Error> {
                    raw(x).map(on: .utility) { $0 + 1 }
                }
            }

            final class CSVExporter: Exporter {
                var limit = 3

                override func export(_ x: Int) -> Promise<Int, Error> {
                    raw(x).map(on: .utility) { $0 + 2 }
                }
            }

            final class PDFExporter: Exporter {
                func export(_ x: Int) async throws -> Int { x + 3 }
            }
            """, path: "Export.swift", swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.changes.isEmpty, "\(result.diff)")
        #expect(notes.contains { $0.hasPrefix("accounts(withIDs:): left as a chain: no async twin: it has a variadic parameter, which cannot be forwarded: Swift cannot pass an array") }, "\(notes)")
        #expect(notes.contains {
            $0.hasPrefix("export(_:): left as a chain: no async twin: the subclass `PDFExporter` already has an async `export(_:)`")
                && $0.contains("Swift makes a subclass's method of the same name and types an override")
        }, "\(notes)")
        #expect(notes.contains {
            $0.hasPrefix("export(_:): left as a chain: an override, whose promise version stays (it overrides the base's), so it needs a wrapper: "
                + "`CSVExporter` is not known to be Sendable")
        }, "\(notes)")
        // Sendable, it would still be left (the base has no twin): no advice promises it.
        #expect(!notes.contains { $0.contains(" on `CSVExporter` being Sendable (") }, "\(notes)")
        #expect(!notes.contains { $0.contains("wait on a type being Sendable") || $0.contains("waits on a type being Sendable") }, "\(notes)")
        #expect(!notes.contains { $0.contains("run add-async-twins first") }, "\(notes)")
    }
}

extension ConvertBodyLedgerTests {
    @Test("a conformer in a file two modules compile: the other module's call on its type moves to its new method (Ledger's FakeFXProvider)")
    func conformerInASharedFile() throws {
        let shared = (path: "Shared.swift", text: """
            import Foundation
            import Tomorrowland

            protocol RateProviding: Sendable {
                func rate(_ x: Int) -> Promise<Int, Error>
            }

            func raw(_ x: Int) -> Promise<Int, Error> { Promise(fulfilled: x) }

            final class FakeRates: RateProviding {
                func rate(_ x: Int) -> Promise<Int, Error> {
                    raw(x).map(on: .utility) { $0 * 2 }
                }
            }
            """)
        let use = (path: "Use.swift", text: """
            import Foundation
            import Tomorrowland

            func direct() async throws -> Int {
                try await FakeRates().rate(2)
            }
            """)
        let twins = Support.applying(AddAsyncTwins.run(.inMemory([shared, use])), to: [shared, use])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for source in twins { try source.text.write(to: directory.appendingPathComponent(source.path), atomically: true, encoding: .utf8) }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-module-cache")
        let modules = try [("TwinSupport", ["Shared.swift", "Use.swift"]), ("Support", ["Shared.swift"])].map { name, files in
            ModuleInvocation(
                name: name, sources: files.map { directory.appendingPathComponent($0).path },
                arguments: [
                    "-module-name", name, "-parse-as-library", "-swift-version", "6",
                    "-I", try SwiftCompiler.modulesDirectory(holding: "TomorrowlandAsync").path, "-module-cache-path", cache.path,
                ]
            )
        }
        let oracle = CompilerOracle(swiftc: try SwiftCompiler.swiftc().path, modules: modules)
        let result = ConvertBody.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        let notes = result.notes.map(\.message)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let text = try #require(result.changes.first { $0.path.hasSuffix("Shared.swift") }?.updated, "\(notes)")
        #expect(text.contains("func rate(_ x: Int) async throws -> Int {"), "\(text)")
    }
}

extension ConvertBodyLedgerTests {
    @Test("`[x = x]`: of a parameter, the twin reads the parameter; of a property, left with the reason")
    func sameNameCaptures() throws {
        let (result, notes, directory) = try ConvertBodyTests.proved("""
            import Foundation
            import Tomorrowland

            final class Rail: @unchecked Sendable {
                let limit = 3

                func send(_ amount: Int) -> Promise<Int, Error> { Promise(fulfilled: amount) }

                func parameter(_ amount: Int) -> Promise<Int, Error> {
                    send(amount).map(on: .utility) { [amount = amount] value in value + amount }
                }

                func property(_ amount: Int) -> Promise<Int, Error> {
                    send(amount).map(on: .utility) { [limit = limit] value in value + limit }
                }
            }
            """, path: "Rail.swift", swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 1 of 2 chain bodies converted, 1 left (reasons above)", "\(notes)")
        #expect(notes.contains { $0.hasPrefix("property(_:): left as a chain: a capture `[limit = limit]` of a name that is not a parameter") },
                "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(!text.contains("let amount = amount") && text.contains("value + amount"), "\(text)")
    }
}

extension ConvertBodyLedgerTests {
    /// The order of the work it starts is checked at run time by Ledger's
    /// `testSyncCoordinatorRecordsSummaries` ("sync all 2", "start checking", "start savings"):
    /// each `sync` wrapper starts its twin on the actor during the call, and the twin suspends
    /// after its base (`Task.yieldingAfter`) before it journals "done".
    @Test("an actor's method ending in a `tap` that reads the result (Ledger's SyncCoordinator.syncAll)", arguments: [5, 6])
    func actorTap(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            func importAll(_ account: String) -> Promise<Int, Error> { Promise(fulfilled: account.count) }

            actor Coordinator {
                private(set) var journal: [String] = []

                func sync(_ account: String) -> Promise<Int, Error> {
                    journal.append("start \\(account)")
                    return importAll(account)
                        .then { count in
                            self.journal.append("done \\(account)")
                        }
                }

                func syncAll(_ accounts: [String]) -> Promise<[Int], Error> {
                    journal.append("sync all \\(accounts.count)")
                    return when(fulfilled: accounts.map { sync($0) })
                        .tap(on: .utility) { result in
                            print("syncAll: \\(result.value?.count ?? 0)")
                        }
                }
            }
            """, path: "Coordinator.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("let result: PromiseResult<[Int], Swift.Error>") || text.contains("let result: PromiseResult<[Int], Error>"), "\(text)")
        #expect(text.contains("try await Task.yieldingAfter {"), "\(text)")
    }
}

extension ConvertBodyLedgerTests {
    /// Ledger's InstantTransferService.submit(_:) (`override public`) and FakeFXProvider.latestRate(for:) (an early
    /// `return StdPromise(on: .immediate) { resolver in … }`, which Swift 6 mode could not type in the twin).
    @Test("`override public`: the async method says `override`; an early return of a promise typed by the function's return",
          arguments: [5, 6])
    func overridePublicAndTypedReturn(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            open class Service: @unchecked Sendable {
                public init() {}

                open func submit(_ amount: Int) -> Promise<String, Error> {
                    book(amount)
                }

                final func book(_ amount: Int) -> Promise<String, Error> { Promise(fulfilled: "b") }
            }

            public final class Instant: Service, @unchecked Sendable {
                public var hold = false

                public override init() {}

                override public func submit(_ amount: Int) -> Promise<String, Error> {
                    if hold {
                        return StdPromise(on: .immediate) { resolver in
                            resolver.onRequestCancel(on: .immediate) { resolver in resolver.cancel() }
                        }
                    }
                    return book(amount).map(on: .utility) { $0 + "!" }
                }
            }
            """, path: "Rail.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("override nonisolated(nonsending) public func submit(_ amount: Int) async throws -> String {"), "\(text)")
        #expect(text.contains("as Promise<String, Error>).value"), "\(text)")
    }
}
