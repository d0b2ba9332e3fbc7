// The compiler as the oracle: call targets, types and conformances from `swiftc -dump-ast`,
// and `add-async-twins` proving its plan in a scratch copy before it returns it.

import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("the compiler as the oracle")
struct OracleTests {
    /// Fixtures/Oracle.swift in a fresh folder, and an oracle that type-checks it as the
    /// module `Fixture` in `swiftVersion` mode against this test run's library.
    static func fixture(
        swiftVersion: Int, source given: (path: String, text: String)? = nil
    ) throws -> (set: SourceSet, oracle: CompilerOracle, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let source = try given ?? Support.fixture("Oracle.swift")
        try source.text.write(to: directory.appendingPathComponent(source.path), atomically: true, encoding: .utf8)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-module-cache")
        let module = ModuleInvocation(
            name: "Fixture", sources: [directory.appendingPathComponent(source.path).path],
            arguments: [
                "-module-name", "Fixture", "-parse-as-library", "-swift-version", String(swiftVersion),
                "-I", try SwiftCompiler.modulesDirectory(holding: "TomorrowlandAsync").path, "-module-cache-path", cache.path,
            ]
        )
        let oracle = CompilerOracle(swiftc: try SwiftCompiler.swiftc().path, modules: [module])
        return (SourceSet.load(paths: [directory.path]), oracle, directory)
    }

    @Test("facts: the overload each call names, a call's type on a function's result, conformances through protocols")
    func facts() throws {
        let (set, oracle, directory) = try Self.fixture(swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        let facts = try oracle.facts(for: set.files.map(\.path))
        #expect(facts.errors.isEmpty, "\(facts.errors)")
        let file = try #require(set.files.first)
        let compiled = try #require(facts.file(file.path))
        let offset = { (text: String) in file.text.utf8.count - (file.text.range(of: text).map { file.text[$0.lowerBound...] } ?? "").utf8.count }
        // `badge(1)` and `badge("b")` name different declarations, each the right one.
        let intBadge = try #require(compiled.call(calleeAt: offset("badge(1)"))?.callee)
        let stringBadge = try #require(compiled.call(calleeAt: offset("badge(\"b\")"))?.callee)
        #expect(intBadge != stringBadge)
        #expect(compiled.declaration(at: offset("func badge(_ count: Int)"))?.usr == intBadge)
        // A module-qualified call: its callee is found at its name, where the syntax looks.
        #expect(compiled.call(calleeAt: offset("badge(3)"))?.callee == intBadge)
        // A call on a function's result: the compiler knows the receiver and the call's type.
        let find = try #require(compiled.call(calleeAt: offset("find(7)")))
        #expect(find.callee == compiled.declaration(at: offset("func find(_ id: Int) -> Promise<String, Failure> {"))?.usr)
        #expect(CompilerFacts.isPromise(mangled: find.type))
        #expect(find.receiverType?.contains("16MemoryRepositoryV") == true, "\(find.receiverType ?? "nil")")
        // `StdPromise`, `Tomorrowland.Promise`: the compiler's type decides, not the spelling.
        let loaded = try #require(compiled.call(calleeAt: offset("load(\"abc\")")))
        #expect(CompilerFacts.isPromise(mangled: loaded.type))
        // A method reached through the class hierarchy names the superclass's declaration.
        #expect(loaded.callee == compiled.declaration(at: offset("func load(_ key: String)"))?.usr)
        // `StoreError: AppError` where `AppError: Error`: Error, implied.
        let storeError = try #require(compiled.declaration(at: offset("enum StoreError")))
        #expect(storeError.conformances.contains("s:s5ErrorP"))
    }

    @Test("with the proof, every function gets a twin but a variadic one and one whose error is no Error; it compiles", arguments: [6, 5])
    func provenTwins(swiftVersion: Int) throws {
        let (set, oracle, directory) = try Self.fixture(swiftVersion: swiftVersion)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = AddAsyncTwins.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        #expect(notes.contains { $0.hasPrefix("checked by the compiler") }, "\(notes)")
        let skips = notes.filter { $0.contains("no async twin") }
        // The variadic function (a limit of the language); the override and the conformer are
        // served by the twins of the method they override and of the requirement.
        #expect(skips.count == 4, "\(skips)")
        #expect(skips.contains { $0.hasPrefix("legacyCode(): no async twin: the compiler rejects the twin") && $0.contains("`.value` needs") })
        #expect(skips.contains { $0.hasPrefix("sum(_:): no async twin: has a variadic parameter") })
        #expect(skips.contains { $0.hasPrefix("refresh(): no async twin: an override") })
        #expect(skips.contains { $0.hasPrefix("find(_:): no async twin: implements `Repository.find(_:)`") })
        let text = try #require(result.changes.first?.updated)
        // badge ×2, Repository.find, prune, Loader.load, Loader.refresh, loadCount, Screen.show.
        #expect(text.components(separatedBy: "(added by tomorrowland-migrate)").count - 1 == 8)
        #expect(text.contains("func show(_ count: Int) async throws -> Int {"))
        #expect(text.contains("try await (loadCount() as Loading<Int>).value"))
        // Pinned by the proof (round 2), not by the syntax.
        #expect(text.contains("let anything: Any = badge(2) as Promise<String, StoreFailure>"))
        #expect(notes.contains { $0.hasPrefix("checked by the compiler (round 2)") })
        #expect(text.contains("try await (prune(&xs, keeping: n) as StdPromise<Int>).value"))
        #expect(text.contains("try await (find(id) as Promise<String, Failure>).value"))
        let client = (path: "OracleClient.swift", text: """
            import TomorrowlandAsync

            func client() async throws -> String {
                var xs = [1, 2, 3]
                let removed = try await prune(&xs, keeping: 2)
                let item = try await makeStore().find(1)
                let count = try await CachingLoader().load("abcd")
                let fresh = try await CachingLoader().refresh()
                let loaded = try await loadCount()
                let total = removed + count + fresh + loaded
                let first = try await badge(total)
                let second = try await badge("x")
                return first + second + item
            }
            """)
        let outcome = try Support.compile([("Oracle.swift", text), client], swiftVersion: swiftVersion)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test("with the proof, a function used as a value gets its twin; every reference still names the promise version", arguments: [6, 5])
    func valueUsesProven(swiftVersion: Int) throws {
        let (set, oracle, directory) = try Self.fixture(swiftVersion: swiftVersion, source: (path: "Values.swift", text: """
            import Tomorrowland

            public func valueOrNil(_ promise: StdPromise<Int>) -> Promise<Int?, NoError> {
                promise.map(on: .immediate) { Optional($0) }.recover(on: .immediate) { _ in nil }
            }
            public func settled(_ promises: [StdPromise<Int>]) -> Promise<[Int?], NoError> {
                when(fulfilled: promises.map(valueOrNil))
            }
            public func fetch(_ id: Int) -> StdPromise<Int> { StdPromise(fulfilled: id) }
            public let fetcher = fetch
            """))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = AddAsyncTwins.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        #expect(!notes.contains { $0.contains("no async twin") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("checked by the compiler") }, "\(notes)")
        // In synchronous code the references keep naming the promise versions: the proof checked each.
        #expect(text.contains("func valueOrNil(_ promise: StdPromise<Int>) async throws(CancellationError) -> Int? {"), "\(text)")
        #expect(text.contains("func fetch(_ id: Int) async throws -> Int {"), "\(text)")
        #expect(text.contains("when(fulfilled: promises.map(valueOrNil))"))
        #expect(text.contains("public let fetcher = fetch\n") || text.hasSuffix("public let fetcher = fetch"))
        let client = (path: "Client.swift", text: """
            import TomorrowlandAsync

            func client() async throws -> Int? {
                let promise: StdPromise<Int> = fetcher(1)
                let values = try await settled([promise, fetch(2)])
                return try await valueOrNil(fetch(values.count))
            }
            """)
        let outcome = try Support.compile([("Values.swift", text), client], swiftVersion: swiftVersion)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test("with the proof, a use as a value in async code that would name the twin costs the function its twin", arguments: [6, 5])
    func valueUseInAsyncCode(swiftVersion: Int) throws {
        let (set, oracle, directory) = try Self.fixture(swiftVersion: swiftVersion, source: (path: "Values.swift", text: """
            import Tomorrowland

            public func fetch(_ id: Int) -> StdPromise<Int> { StdPromise(fulfilled: id) }
            public func later() async -> StdPromise<Int> {
                let make = fetch
                return make(3)
            }
            """))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = AddAsyncTwins.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        // In async code `let make = fetch` would pick the async overload: the proof sees the reference change.
        #expect(notes.contains { $0.hasPrefix("fetch(_:): no async twin:") && $0.contains("Values.swift:5") }, "\(notes)")
        #expect(!(result.changes.first?.updated.contains("func fetch(_ id: Int) async") ?? false))
    }

    @Test("the error a note cites is the first by file, line and column, whatever order the compiler printed")
    func firstErrorByPlace() {
        var facts = CompilerFacts()
        #expect(facts.firstError == nil)
        facts.errors = [
            CompilerDiagnostic(path: "Sources/B.swift", line: 3, column: 1, message: "b"),
            CompilerDiagnostic(path: "Sources/A.swift", line: 9, column: 5, message: "a late"),
            CompilerDiagnostic(path: "Sources/A.swift", line: 9, column: 2, message: "a early"),
        ]
        #expect(facts.firstError?.message == "a early")
        facts.errors.reverse()
        #expect(facts.firstError?.message == "a early")
    }

    @Test("code that does not type-check: the syntax decides, and the first note says why")
    func fallsBackToSyntax() throws {
        let broken = (path: "Broken.swift", text: """
            import Tomorrowland

            func count() -> StdPromise<Int> { StdPromise(fulfilled: undefinedValue) }
            """)
        let (set, oracle, directory) = try Self.fixture(swiftVersion: 6, source: broken)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = AddAsyncTwins.run(set, oracle: oracle)
        let first = try #require(result.notes.first?.message)
        #expect(first.hasPrefix("call targets read from syntax only: the code does not type-check as it is"), "\(first)")
        #expect(first.contains("undefinedValue"))
        // The syntax-only plan is still made.
        #expect(result.changes.first?.updated.contains("func count() async throws -> Int") == true)
    }

    @Test("convert-body on code that does not type-check writes nothing, and its tally counts nothing converted")
    func convertBodyTallyCountsWhatIsWritten() throws {
        let broken = (path: "Broken.swift", text: """
            import Tomorrowland

            func base() -> StdPromise<Int> { StdPromise(fulfilled: 1) }
            func count() -> StdPromise<Int> { base().map(on: .immediate) { $0 + 1 } }
            func broken() -> Int { undefinedValue }
            """)
        let (set, oracle, directory) = try Self.fixture(swiftVersion: 6, source: broken)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertBody.run(set, oracle: oracle)
        #expect(result.changes.isEmpty)
        #expect(result.notes.first?.message.hasPrefix("nothing written: the package does not type-check") == true)
        let tally = try #require(result.notes.last?.message)
        #expect(tally.hasPrefix("convert-body: nothing converted ("), "\(tally)")
    }

    @Test("the report with the compiler's facts counts no caller as unknown")
    func reportHasNoUnknowns() throws {
        let (set, oracle, directory) = try Self.fixture(swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        let withCompiler = Report.make(set, compiler: try oracle.facts(for: set.files.map(\.path)))
        let syntaxOnly = Report.make(set)
        #expect(syntaxOnly.plan.contains { $0.unknownCallers > 0 }, "the fixture has calls the syntax cannot resolve")
        #expect(withCompiler.plan.allSatisfy { $0.unknownCallers == 0 })
        // `makeStore().find(7)` counts for the conformer's method it names, not the requirement.
        #expect(withCompiler.plan.first { $0.function == "MemoryRepository.find(_:)" }?.promiseStyleCallers == 1)
        #expect(withCompiler.plan.first { $0.function == "Repository.find(_:)" }?.promiseStyleCallers == 0)
        // Each overload of `badge` has its own callers: `badge(1)`, `badge(2)` and
        // `Fixture.badge(3)`; `badge("b")`.
        #expect(withCompiler.plan.filter { $0.function == "badge(_:)" }.map(\.promiseStyleCallers) == [3, 1])
    }
}

@Suite("the oracle in a package: what it builds")
struct OraclePackageTests {
    /// A package where `Base` ← `Lib` ← `App` ← `AppTests` (each imports the one before).
    static func package() throws -> URL {
        let root = try Support.makeTemporaryDirectory("tomorrowland-oracle-package")
        let files = [
            "Package.swift": """
                // swift-tools-version: 6.0
                import PackageDescription
                let package = Package(name: "Layers", targets: [
                    .target(name: "Base"), .target(name: "Lib", dependencies: ["Base"]),
                    .target(name: "App", dependencies: ["Lib"]), .testTarget(name: "AppTests", dependencies: ["App"]),
                ])
                """,
            "Sources/Base/Base.swift": "public func base() -> Int { 1 }\n",
            "Sources/Lib/Lib.swift": "import Base\npublic func lib() -> Int { base() + 1 }\n",
            "Sources/App/App.swift": "import Lib\npublic func app() -> Int { lib() + 1 }\n",
            "Tests/AppTests/AppTests.swift": "import App\nimport XCTest\nfinal class AppTests: XCTestCase { func testApp() { XCTAssertEqual(app(), 3) } }\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test("the oracle builds only what the scanned modules import and type-checks them from source, as another command left them")
    func buildsOnlyDependencies() throws {
        let root = try Self.package()
        defer { try? FileManager.default.removeItem(at: root) }
        let roots = ["Sources/Lib", "Sources/App"].map { root.appendingPathComponent($0).path }
        let object = { (module: String) in root.appendingPathComponent(".build/debug/\(module).build/\(module).swift.o").path }
        let modified = { (path: String) in try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date }
        let first = try CompilerOracle.forPackage(around: roots).get()
        // SwiftPM's generated test modules are no module of the package's.
        #expect(first.modules.map(\.name).sorted() == ["App", "AppTests", "Base", "Lib"])
        // Only Base is built: Lib, App and their importer AppTests are checked from source.
        #expect(CompilerOracle.dependencyTargets(of: roots, in: first.modules, root: root.path) == ["Base"])
        // Scanning Lib and AppTests: App, between them, is built (with Lib) for AppTests to import.
        let apart = ["Sources/Lib", "Tests/AppTests"].map { root.appendingPathComponent($0).path }
        #expect(CompilerOracle.dependencyTargets(of: apart, in: first.modules, root: root.path) == ["App", "Base"])
        #expect(FileManager.default.fileExists(atPath: object("Base")))
        #expect(!FileManager.default.fileExists(atPath: object("Lib")) && !FileManager.default.fileExists(atPath: object("App")))
        let scanned = first.pathsWithDependents(of: ["Sources/Lib/Lib.swift", "Sources/App/App.swift"].map { root.appendingPathComponent($0).path })
        #expect(try first.facts(for: scanned).errors.isEmpty)

        // The user builds; then another command's write: Lib gains a function and App calls
        // it. The build folder's Lib is now stale, and the next run must not rebuild App.
        #expect(Process.capture("/usr/bin/env", ["swift", "build", "--build-tests", "--package-path", root.path]).status == 0)
        let built = try modified(object("App"))
        try "import Base\npublic func lib() -> Int { base() + 1 }\npublic func added() -> Int { 5 }\n"
            .write(to: root.appendingPathComponent("Sources/Lib/Lib.swift"), atomically: true, encoding: .utf8)
        try "import Lib\npublic func app() -> Int { lib() + added() + more() }\n"
            .write(to: root.appendingPathComponent("Sources/App/App.swift"), atomically: true, encoding: .utf8)
        // And a file added to Lib: the manifest is written again, with it.
        try "public func more() -> Int { 7 }\n".write(to: root.appendingPathComponent("Sources/Lib/More.swift"), atomically: true, encoding: .utf8)
        let later = try CompilerOracle.forPackage(around: roots).get()
        let facts = try later.facts(for: scanned)
        #expect(facts.errors.isEmpty, "App must see Lib as written, not the build folder's: \(facts.errors)")
        #expect(try modified(object("App")) == built)
        let app = try #require(facts.file(root.appendingPathComponent("Sources/App/App.swift").path))
        #expect(app.references.values.contains { $0.contains { $0.contains("5added") } }, "the call to `added()` names it")
        #expect(app.references.values.contains { $0.contains { $0.contains("4more") } }, "the call to `more()` names it")
    }
}

extension OraclePackageTests {
    @Test("scanning one module builds what it imports, not what its importers import; a command that checks its importers builds theirs")
    func buildsForTheScannedModules() throws {
        // Base ← Lib ← App ← AppTests, and App imports Other too.
        let module = { (name: String, dependencies: [String]) in
            ModuleInvocation(name: name, sources: ["/p/Sources/\(name)/\(name).swift"], arguments: [], dependencies: dependencies)
        }
        let all = [
            module("Base", []), module("Lib", ["Base"]), module("Other", []), module("App", ["Lib", "Other"]), module("AppTests", ["App"]),
        ]
        #expect(CompilerOracle.dependencyTargets(of: ["/p/Sources/Lib"], in: all, root: "/p") == ["Base"])
        // With its importers type-checked from source (delete-twins, convert-body), what they
        // import; not App itself, which they type-check.
        #expect(CompilerOracle.dependencyTargets(of: ["/p/Sources/Lib"], importers: true, in: all, root: "/p") == ["Base", "Other"])
        #expect(CompilerOracle.dependencyTargets(of: ["/p/Sources/App"], in: all, root: "/p") == ["Lib", "Other"])

        // In a package: `report Sources/Lib` builds Base only, and its facts need no more.
        let root = try Self.package()
        defer { try? FileManager.default.removeItem(at: root) }
        let object = { (module: String) in root.appendingPathComponent(".build/debug/\(module).build/\(module).swift.o").path }
        let oracle = try CompilerOracle.forPackage(around: [root.appendingPathComponent("Sources/Lib").path]).get()
        #expect(FileManager.default.fileExists(atPath: object("Base")))
        #expect(!FileManager.default.fileExists(atPath: object("Lib")) && !FileManager.default.fileExists(atPath: object("App")),
                "App, which imports the scanned module, is not built")
        let facts = try oracle.facts(for: [root.appendingPathComponent("Sources/Lib/Lib.swift").path])
        #expect(facts.errors.isEmpty, "\(facts.errors)")
        #expect(facts.file(root.appendingPathComponent("Sources/Lib/Lib.swift").path)?.references.isEmpty == false)
    }

    @Test("a proof type-checks the importers of a changed module again only when its interface changed, through any import")
    func importersOfAnUnchangedInterface() throws {
        let root = try Self.package()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = { (relative: String) in root.appendingPathComponent(relative).path }
        let (lib, app, tests) = (path("Sources/Lib/Lib.swift"), path("Sources/App/App.swift"), path("Tests/AppTests/AppTests.swift"))
        let oracle = try CompilerOracle.forPackage(around: [path("Sources/Lib"), path("Sources/App")]).get()
        let scanned = oracle.pathsWithDependents(of: [lib, app])
        let before = try oracle.facts(for: scanned)
        #expect(before.errors.isEmpty)
        #expect(Set(before.interfaces.keys) == ["Lib", "App"], "the modules another scanned one imports were emitted")
        // The facts the proof may keep, marked: a module type-checked again has references.
        var marked = before
        marked.files[app] = CompilerFacts.File()
        marked.files[tests] = CompilerFacts.File()
        let isKept = { (facts: CompilerFacts, file: String) in facts.file(file)?.references.isEmpty == true }

        // A body changes: App and AppTests see the same Lib, and keep their facts.
        let body = try oracle.facts(for: scanned, replacing: [lib: "import Base\npublic func lib() -> Int { base() + 2 }\n"], unchanged: marked)
        #expect(body.errors.isEmpty)
        #expect(body.interfaces["Lib"] == before.interfaces["Lib"])
        #expect(isKept(body, app) && isKept(body, tests))
        #expect(body.file(lib)?.references.isEmpty == false)

        // Lib gains a function: App is type-checked again; its own interface is the same, but
        // AppTests loads Lib through it, and is type-checked again too.
        let added = "import Base\npublic func lib() -> Int { base() + 1 }\npublic func added() -> Int { 5 }\n"
        let interface = try oracle.facts(for: scanned, replacing: [lib: added], unchanged: marked)
        #expect(interface.errors.isEmpty)
        #expect(interface.interfaces["Lib"] != before.interfaces["Lib"])
        #expect(interface.interfaces["App"] == before.interfaces["App"])
        #expect(!isKept(interface, app) && !isKept(interface, tests))
    }
}

@Suite("the oracle's kept dumps")
struct ASTCacheTests {
    @Test("a module's dump is kept by its text and read back for the same text; another text is type-checked again")
    func keptByText() throws {
        let (set, plain, directory) = try OracleTests.fixture(swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cacheDirectory = directory.appendingPathComponent("asts").path
        let oracle = CompilerOracle(swiftc: plain.swiftc, modules: plain.modules, cacheDirectory: cacheDirectory)
        let path = try #require(set.files.first?.path)
        let first = try oracle.facts(for: [path])
        #expect(first.errors.isEmpty)
        let entries = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory)
        #expect(entries.count == 1 && entries[0].hasPrefix("Fixture-"), "\(entries)")
        // A second run reads the kept facts: the same as the dump said.
        let second = try #require(try oracle.facts(for: [path]).file(path))
        let firstFile = try #require(first.file(path))
        #expect(!firstFile.references.isEmpty && !firstFile.calls.isEmpty && !firstFile.declarations.isEmpty)
        #expect(second.references == firstFile.references)
        #expect(second.calls == firstFile.calls)
        #expect(second.declarations == firstFile.declarations)
        #expect(second.declarations.contains { !$0.conformances.isEmpty } && second.calls.contains { $0.receiverType != nil })
        // They are what a second run reads: emptied, the file's facts come out empty.
        let kept = cacheDirectory + "/" + entries[0] + "/0.facts"
        try (CompilerFacts.File.encodingHeader + "\nend 0\n").write(toFile: kept, atomically: true, encoding: .utf8)
        #expect(try oracle.facts(for: [path]).file(path)?.references.isEmpty == true)
        // Anything else there is not read: the module is type-checked again.
        try "{}".write(toFile: kept, atomically: true, encoding: .utf8)
        #expect(try oracle.facts(for: [path]).file(path)?.references == firstFile.references)
        // Another text is another key: type-checked, and right.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = try oracle.facts(for: [path], replacing: [path: text + "\nfunc addedForTheCacheTest() {}\n"])
        #expect(changed.errors.isEmpty)
        #expect(changed.file(path)?.declarations.contains { $0.name == "addedForTheCacheTest" } == true)
        // Fields with what the format escapes come back as they were.
        var odd = CompilerFacts.File()
        odd.declarations = [CompilerFacts.Declaration(
            usr: "s:a\tb\\c", kind: "func_decl", name: "=?\n", offset: 1, end: 2, resultType: "", conformances: ["p\t", "q"]
        )]
        odd.references = [7: ["u1", "u\\2"]]
        odd.calls = [CompilerFacts.Call(offset: 3, lastTokenOffset: 4, callee: nil, calleeOffset: 5, type: "?", receiverType: "=")]
        let decoded = try #require(CompilerFacts.File(encoded: odd.encoded))
        #expect(decoded.declarations == odd.declarations && decoded.references == odd.references && decoded.calls == odd.calls)
        #expect(CompilerFacts.File(encoded: String(odd.encoded.dropLast(3))) == nil, "a cut-short file is not read")
        let lines = odd.encoded.split(separator: "\n")
        #expect(CompilerFacts.File(encoded: lines.dropLast().joined(separator: "\n") + "\n") == nil, "nor one cut at a line's end")
        // Bytes, not characters: a carriage return before the line's end, a mark after a tab.
        var bytes = CompilerFacts.File()
        bytes.references = [5: ["A\r"], 6: ["B"]]
        bytes.declarations = [CompilerFacts.Declaration(
            usr: "u", kind: "k", name: "\t\u{301}", offset: 0, end: 0, resultType: nil, conformances: ["\r"]
        )]
        let read = try #require(CompilerFacts.File(encoded: bytes.encoded))
        #expect(read.references == bytes.references && read.declarations == bytes.declarations)
        #expect(CompilerFacts.File(encoded: bytes.encoded.replacingOccurrences(of: "\\r", with: "\\x")) == nil, "an unknown escape")
        // At most the newest entry but one is left besides it (a third text, a third entry).
        _ = try oracle.facts(for: [path], replacing: [path: text + "\nfunc thirdForTheCacheTest() {}\n"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheDirectory).count == 2)
        // A text with an error is not kept.
        let broken = try oracle.facts(for: [path], replacing: [path: text + "\nlet broken: Int = \"no\"\n"])
        #expect(!broken.errors.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheDirectory).count == 2)
    }
}
