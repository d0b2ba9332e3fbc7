import Foundation
import Testing
import Tomorrowland
import TomorrowlandAsync
@testable import TomorrowlandMigrateKit

/// `convert-body` on Ledger's overrides (issue 37): a call of the base's twin on a final
/// subclass comes to name the subclass's new async override, as the plan expects; a base whose
/// code is a chain and its one override are converted together, across modules too.
@Suite("convert-body: overrides and their base, together")
struct ConvertBodyPairsTests {
    /// Ledger's InstantTransferService.submit(_:): the twin test's `Task { try await service.submit(quote) }`
    /// on the final subclass named the base's twin through an implicit upcast (the compiler's receiver
    /// is `TransferService` there); once the subclass has its async override, Swift finds that first.
    @Test("a call of the base's twin on a final subclass (in a Task too) moves to the subclass's new async override", arguments: [5, 6])
    func callOnTheSubclass(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            import TomorrowlandAsync

            open class Service: @unchecked Sendable {
                public init() {}

                open func submit(_ amount: Int) -> Promise<String, Error> {
                    book(amount)
                }

                /// Async twin of `submit(_:)` (added by tomorrowland-migrate): awaits the promise it returns.
                public nonisolated(nonsending) func submit(_ amount: Int) async throws -> String {
                    try await (submit(amount) as Promise<String, Error>).value
                }

                final func book(_ amount: Int) -> Promise<String, Error> { Promise(fulfilled: "b\\(amount)") }
            }

            public final class Instant: Service, @unchecked Sendable {
                override public func submit(_ amount: Int) -> Promise<String, Error> {
                    book(amount).map(on: .utility) { $0 + "!" }
                }
            }

            // Calls of the base's twin on the subclass, as Ledger's twin tests make them.

            func submitBoth(_ instant: Instant) async throws -> [String] {
                let task = Task { try await instant.submit(1) }
                let direct = try await instant.submit(2)
                return [try await task.value, direct]
            }
            """, path: "Rail.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(notes.contains { $0.contains("and the 2 the changes redirect name what they should") }, "\(notes)")
        #expect(text.contains("override nonisolated(nonsending) public func submit(_ amount: Int) async throws -> String {"), "\(text)")
    }

    /// Ledger's InstantTransferService.submit(_:) at run time: its tests cancel the transfer and expect the rail's
    /// cancel, which a live handle to `sent` in the twin blocked (the promise timed out instead).
    @Test("a `let` of a specialized promise type's initializer, read once as the base's receiver, is consumed there", arguments: [5, 6])
    func consumedInitializer(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            typealias RailPromise<T> = Promise<T, Error>

            extension Promise where Error == Swift.Error {
                func within(_ seconds: TimeInterval) -> Promise<Value, Error> {
                    timeout(on: .utility, delay: seconds).mapError(on: .immediate) { $0 as Swift.Error }
                }
            }

            final class Rail: @unchecked Sendable {
                var cancelled: [String] = []

                func submit(_ reference: String) -> Promise<String, Error> {
                    let sent = RailPromise<String>(on: .immediate) { resolver in
                        resolver.onRequestCancel(on: .immediate) { resolver in
                            self.cancelled.append(reference)
                            resolver.cancel()
                        }
                    }
                    return sent.within(10).map(on: .utility) { $0 + "!" }
                }
            }
            """, path: "Rail.swift", swiftVersion: swiftVersion)
        // (`within(_:)` is left: a lone `timeout` is not a chain.)
        #expect(notes.last == "convert-body: 1 of 2 chain bodies converted, 1 left (reasons above)", "\(notes)")
        #expect(text.contains("try await (consume sent).within(10)"), "\(text)")
    }

    @Test("the compiler's receiver of a call of a superclass's method is the subclass, as written (not the implicit upcast)")
    func receiverBeforeUpcast() throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: 6, source: (path: "Upcast.swift", text: """
            class Base { func f() -> Int { 1 } }
            final class Sub: Base {}
            func use(_ sub: Sub) -> Int { sub.f() }
            """))
        defer { try? FileManager.default.removeItem(at: directory) }
        let facts = try oracle.facts(for: set.files.map(\.path))
        let file = try #require(set.files.first)
        let offset = try #require(file.text.range(of: "sub.f()").map { file.text.utf8.distance(from: file.text.utf8.startIndex, to: $0.lowerBound) })
        let call = try #require(facts.file(file.path)?.call(calleeAt: offset + "sub.".utf8.count))
        #expect(call.receiverType == "$s7Fixture3SubCD", "\(call)")
    }
}

extension ConvertBodyPairsTests {
    /// A base whose `quote(_:)` is a chain; the tests add its subclasses.
    static let service = """
        import Foundation
        import Tomorrowland

        enum QuoteError: Error { case invalid }

        func raw(_ x: Int) -> Promise<Int, QuoteError> { x > 0 ? Promise(fulfilled: x) : Promise(rejected: .invalid) }

        class Service: @unchecked Sendable {
            func quote(_ x: Int) -> Promise<Int, QuoteError> {
                raw(x).map(on: .utility) { $0 + 1 }
            }
        }
        """ + "\n\n"

    @Test("a base whose code is a chain and its one override calling `super`: both converted, `super` awaits the base's twin",
          arguments: [5, 6])
    func pairInOneFile(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes(Self.service + """
            final class Premium: Service, @unchecked Sendable {
                private(set) var count = 0

                override func quote(_ x: Int) -> Promise<Int, QuoteError> {
                    count += 1
                    return super.quote(x).map(on: .immediate) { $0 * 2 }
                }
            }
            """, path: "Quotes.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(!text.contains("raw(x).map(on: .utility)"), "\(text)")
        #expect(text.contains("override nonisolated(nonsending) func quote(_ x: Int) async throws -> Int {"), "\(text)")
        #expect(text.contains("try await super.quote(x)") && !text.contains("super.quote(x).value"), "\(text)")
        #expect(text.components(separatedBy: "StdPromise(on: .immediate) { try await self.quote(x) }").count == 3, "\(text)")
    }

    /// Ledger's TransferService.prepare(_:) (LedgerCore, `open`) and PremiumTransferService.prepare(_:) (LedgerFeatures).
    @Test("the pair across modules: the base's twin becomes `open`, so that the other module's async override can override it",
          arguments: [5, 6])
    func pairAcrossModules(swiftVersion: Int) throws {
        let library = (path: "Library/Service.swift", text: """
            import Foundation
            import Tomorrowland

            public enum QuoteError: Error { case invalid }

            public func raw(_ x: Int) -> Promise<Int, QuoteError> { x > 0 ? Promise(fulfilled: x) : Promise(rejected: .invalid) }

            open class Service: @unchecked Sendable {
                public init() {}

                open func quote(_ x: Int) -> Promise<Int, QuoteError> {
                    guard x < 100 else { return Promise(rejected: .invalid) }
                    return raw(x).map(on: .utility) { $0 + 1 }
                }
            }
            """)
        let app = (path: "App/Premium.swift", text: """
            import Foundation
            import Library
            import Tomorrowland

            public final class Premium: Service, @unchecked Sendable {
                public private(set) var count = 0

                override public func quote(_ x: Int) -> Promise<Int, QuoteError> {
                    count += 1
                    return super.quote(x).map(on: .immediate) { $0 * 2 }
                }
            }

            func quoted(_ premium: Premium) async throws -> Int {
                try await premium.quote(3)
            }
            """)
        let (result, notes, texts) = try Self.provedInTwoModules(library: library, app: app, swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let base = try #require(texts[library.path])
        #expect(base.contains("open nonisolated(nonsending) func quote(_ x: Int) async throws -> Int {"), "\(base)")
        #expect(!base.contains("public nonisolated(nonsending) func quote(_ x: Int) async"), "\(base)")
        let premium = try #require(texts[app.path])
        #expect(premium.contains("override nonisolated(nonsending) public func quote(_ x: Int) async throws -> Int {"), "\(premium)")
        #expect(premium.contains("try await super.quote(x)"), "\(premium)")
        #expect(result.changes.count == 2)
        // What it wrote builds in the other mode too.
        let errors = try Self.errorsInTwoModules(library: (library.path, base), app: (app.path, premium), swiftVersion: swiftVersion == 6 ? 5 : 6)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test("two overrides: no pair; the one that calls `super` gets an async override awaiting `super`'s promise, the base stays",
          arguments: [5, 6])
    func twoOverrides(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes(Self.service + """
            final class Premium: Service, @unchecked Sendable {
                override func quote(_ x: Int) -> Promise<Int, QuoteError> {
                    super.quote(x).map(on: .immediate) { $0 * 2 }
                }
            }

            final class Basic: Service, @unchecked Sendable {
                override func quote(_ x: Int) -> Promise<Int, QuoteError> {
                    raw(x)
                }
            }
            """, path: "Quotes.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 2 chain bodies converted, 1 left (reasons above)", "\(notes)")
        #expect(notes.contains { $0.hasPrefix("quote(_:): left as a chain: overridden by `") }, "\(notes)")
        // The base's code stays where `super` reaches it; the override's async override awaits it there.
        #expect(text.contains("raw(x).map(on: .utility) { $0 + 1 }"), "\(text)")
        #expect(text.contains("override nonisolated(nonsending) func quote(_ x: Int) async throws -> Int {"), "\(text)")
        #expect(text.contains("try await super.quote(x).value"), "\(text)")
    }

    @Test("a pair whose override cannot convert: both left, each with the reason it has alone")
    func pairLeftWhole() throws {
        let (result, notes, directory) = try ConvertBodyTests.proved("""
            import Foundation
            import Tomorrowland

            func raw(_ x: Int) -> Promise<Int, Error> { Promise(fulfilled: x) }

            class Service: @unchecked Sendable {
                func quote(_ x: Int) -> Promise<Int, Error> {
                    raw(x).map(on: .utility) { $0 + 1 }
                }
            }

            final class Premium: Service, @unchecked Sendable {
                let factor = 2

                override func quote(_ x: Int) -> Promise<Int, Error> {
                    super.quote(x).flatMap(on: .utility) { [weak self] value -> Promise<Int, Error> in
                        guard let self = self else { return Promise(rejected: CancellationError()) }
                        return Promise(fulfilled: value * self.factor)
                    }
                }
            }
            """, path: "Quotes.swift", swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.changes.isEmpty, "\(result.diff)")
        #expect(notes.last == "convert-body: 0 of 2 chain bodies converted, 2 left (reasons above)", "\(notes)")
        // Each as it would be alone: the base for its override, the override for its own reason.
        #expect(notes.contains { $0.hasPrefix("quote(_:): left as a chain: overridden by `Premium` with a promise method only") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("quote(_:): left as a chain: a `[weak self]` closure that does something when `self` is gone") },
                "\(notes)")
    }
}

extension ConvertBodyPairsTests {
    /// add-async-twins on both files, then convert-body proved with Library and App (which imports it)
    /// as two modules: the result, its notes, and the texts written by path.
    static func provedInTwoModules(
        library: (path: String, text: String), app: (path: String, text: String), swiftVersion: Int
    ) throws -> (result: MigrationResult, notes: [String], texts: [String: String]) {
        let sources = [library, app]
        let twins = Support.applying(AddAsyncTwins.run(.inMemory(sources)), to: sources)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-pairs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let oracle = try Self.twoModules(twins, in: directory, swiftVersion: swiftVersion)
        let result = ConvertBody.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        var texts: [String: String] = [:]
        for source in sources {
            let path = CompilerFacts.key(directory.appendingPathComponent(source.path).path)
            texts[source.path] = result.changes.first { CompilerFacts.key($0.path) == path }?.updated
        }
        return (result, result.notes.map(\.message), texts)
    }

    /// The errors of Library and App as given, in Swift `swiftVersion` mode.
    static func errorsInTwoModules(
        library: (path: String, text: String), app: (path: String, text: String), swiftVersion: Int
    ) throws -> [CompilerDiagnostic] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-pairs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let oracle = try Self.twoModules([library, app], in: directory, swiftVersion: swiftVersion)
        return try oracle.facts(for: [library, app].map { directory.appendingPathComponent($0.path).path }).errors
    }

    /// Writes the two sources under `directory`: the oracle of Library (the first) and App (the second, importing it).
    static func twoModules(_ sources: [(path: String, text: String)], in directory: URL, swiftVersion: Int) throws -> CompilerOracle {
        for source in sources {
            let url = directory.appendingPathComponent(source.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.text.write(to: url, atomically: true, encoding: .utf8)
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-module-cache")
        let common = ["-parse-as-library", "-swift-version", String(swiftVersion), "-module-cache-path", cache.path,
                      "-I", try SwiftCompiler.modulesDirectory(holding: "TomorrowlandAsync").path]
        return CompilerOracle(swiftc: try SwiftCompiler.swiftc().path, modules: [
            ModuleInvocation(name: "Library", sources: [directory.appendingPathComponent(sources[0].path).path],
                             arguments: ["-module-name", "Library"] + common),
            ModuleInvocation(name: "App", sources: [directory.appendingPathComponent(sources[1].path).path],
                             arguments: ["-module-name", "App"] + common, dependencies: ["Library"]),
        ])
    }
}

extension ConvertBodyPairsTests {
    @Test("ConvertedPairs.swift is exactly what the tool writes for Fixtures/ConvertBody/Pairs.swift")
    func pairsFileIsTheToolsOutput() throws {
        let pairs = try Support.fixture("ConvertBody/Pairs.swift")
        let compiled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ConvertedPairs.swift")
        let converted = ConvertBodyTests.converted(pairs.text, path: "Pairs.swift")
        // `TOMORROWLAND_WRITE_CONVERTED_PAIRS=1 swift test --filter pairsFileIsTheToolsOutput` writes it anew.
        if ProcessInfo.processInfo.environment["TOMORROWLAND_WRITE_CONVERTED_PAIRS"] == "1" {
            try converted.text.write(to: compiled, atomically: true, encoding: .utf8)
        }
        #expect(converted.notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(converted.notes)")
        #expect(converted.text == (try String(contentsOf: compiled, encoding: .utf8)))
    }
}

/// ConvertedPairs.swift at run time: every call of the pair runs the code it ran as a chain, in the
/// same order, the statements before each chain during the call.
@Suite("convert-body: a base and its override converted together, at run time")
struct ConvertedPairsBehaviourTests {
    @Test("the subclass's promise version: its statements, the base's and the source's run during the call; the value is the override's")
    func subclassPromise() async throws {
        let log = PairLog()
        let premium = PairPremiumService(log: log)
        let promise: Promise<Int, PairError> = premium.quote(5)
        #expect(premium.count == 1)
        #expect(log.entries == ["premium quote 1", "base quote 5", "source 5"])
        #expect(try await promise.value == 12)
    }

    @Test("the subclass's async method, and both versions through the base's type, reach the override")
    func subclassAsync() async throws {
        let log = PairLog()
        let premium = PairPremiumService(log: log)
        #expect(try await premium.quote(5) == 12)
        let service: PairQuoteService = premium
        #expect(try await service.quote(5) == 12)
        #expect(try await (service.quote(5) as Promise<Int, PairError>).value == 12)
        #expect(premium.count == 3)
        #expect(log.entries.filter { $0.hasPrefix("premium") } == ["premium quote 1", "premium quote 2", "premium quote 3"])
    }

    @Test("the base alone runs the base's code, in both versions")
    func base() async throws {
        let log = PairLog()
        let service = PairQuoteService(log: log)
        let promise: Promise<Int, PairError> = service.quote(5)
        #expect(log.entries == ["base quote 5", "source 5"])
        #expect(try await promise.value == 6)
        #expect(try await service.quote(5) == 6)
    }

    @Test("the typed error comes through `super`, to both versions")
    func error() async throws {
        let premium = PairPremiumService(log: PairLog())
        #expect(await (premium.quote(-1) as Promise<Int, PairError>).resolvedResult == .error(.invalid))
        await #expect(throws: PairError.invalid) { try await premium.quote(-1) }
    }
}
