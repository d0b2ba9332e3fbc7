// `convert-calls`: each bridge shape converted (exact text), each kind of bridge left with its
// reason, the converted code compiling in Swift 6 and 5 mode, and a second run changing nothing.

import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("convert-calls")
struct ConvertCallsTests {
    /// The fixture's callers after the conversion.
    static let expectedCallers = """
        func callers(store: Store, token: PromiseInvalidationToken) async throws -> [String] {
            let found = try await store.find(1)
            let count = try await store.count()
            let level = try await store.setting().value
            let sum = try await total()
            let polled = try await store.poll(token: token)
            let typed = try await strict().value
            let result = await store.find(2).resolvedResult
            let eager = try await store.find(3).value(onTaskCancel: .stopWaiting)
            let kept = store.find(4) as Promise<String, Failure>
            let later = try await kept.value
            var missing = false
            do {
                _ = try await store.find(0)
            } catch Failure.missing {
                missing = true
            }
            let detached = Task { try await store.find(5) }
            let fifth = try await detached.value
            return [found, "\\(count + level + sum + polled + typed)", "\\(result)", eager, later, "\\(missing)", fifth]
        }

        func switches(store: Store) async -> [String] {
            var lines: [String] = []
            do {
                let item = try await store.find(0)
                lines.append(item)
            } catch let error as Failure {
                lines.append("\\(error)")
            } catch {
                lines.append("cancelled")
            }
            do {
                let count = try await store.count()
                lines.append("\\(count)")
            } catch {
                lines.append("cancelled")
            }
            switch await store.find(1).resolvedResult {
            case .error(let error):
                lines.append("\\(error)")
            case .value(let item):
                lines.append(item)
            case .cancelled:
                lines.append("cancelled")
            }
            switch await store.setting().resolvedResult {
            case .value(let setting):
                lines.append("\\(setting.value)")
            case .error(let error):
                lines.append("\\(error)")
            case .cancelled:
                lines.append("cancelled")
            }
            return lines
        }

        func number(in item: String) throws(Failure) -> Int {
            guard let number = Int(item.dropFirst(5)) else { throw .missing }
            return number
        }

        /// The `.value` case throws Failure itself: in a do block, `catch let error as Failure` would
        /// catch it and return -1 instead of throwing.
        func parsed(store: Store) async throws -> Int {
            switch await (store.find(6) as Promise<String, Failure>).resolvedResult {
            case .value(let item):
                return try number(in: item + "x") + [1].map { try? number(in: "item \\($0)") }.count
            case .error:
                return -1
            case .cancelled:
                return 0
            }
        }
        """

    @Test("bridges become direct calls; the rest is listed with the reason; it compiles and a second run changes nothing", arguments: [6, 5])
    func converts(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Support.fixture("Convert.swift"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertCalls.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        let callers = try #require(text.range(of: "func callers(")).lowerBound
        #expect(String(text[callers...]).trimmingCharacters(in: .newlines) == Self.expectedCallers)
        // The twins' own bodies still await their promises.
        #expect(text.contains("try await (find(id) as Promise<String, Failure>).value"))
        #expect(text.contains("StdPromise { try await total() }"))
        #expect(notes.contains("left `try await strict().value`: " + ConvertCalls.Reason.thrown(bridge: "any Error", direct: "Failure")))
        #expect(notes.contains("left `store.find(2).resolvedResult`: " + ConvertCalls.Reason.resolvedResult))
        #expect(notes.contains("left `store.find(3).value(onTaskCancel: .stopWaiting)`: " + ConvertCalls.Reason.cancellationPolicy))
        #expect(notes.contains("left `store.find(4)`: " + ConvertCalls.Reason.valueUse))
        #expect(notes.contains { $0.hasPrefix("checked by the compiler (round 1)") }, "\(notes)")
        #expect(notes.contains("left `switch await store.find(1).resolvedResult`: a `switch` on `.resolvedResult` converts only "
            + "with the cases `.value`, `.error`, `.cancelled` in that order"))
        #expect(notes.contains("left `switch await store.setting().resolvedResult`: " + ConvertCalls.Reason.untypedResultSwitch))
        #expect(notes.contains("left `switch await store.find(6).resolvedResult`: the .value case throws: do/catch would catch its errors"))
        #expect(notes.last?.hasPrefix("convert-calls: 9 call(s) converted, 7 left (1: ") == true, "\(notes)")
        try Support.expectCompiles([("Convert.swift", text)], swiftVersion: swiftVersion)

        // A second run on the converted file finds nothing to convert.
        try text.write(to: directory.appendingPathComponent("Convert.swift"), atomically: true, encoding: .utf8)
        let second = ConvertCalls.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        #expect(second.changes.isEmpty)
        #expect(second.notes.last?.message.hasPrefix("convert-calls: 0 call(s) converted, 7 left") == true)
    }

    @Test("a conversion the compiler does not confirm is left, with its reason, and the others are written")
    func compilerObjects() throws {
        // The proof is the last word: a conversion whose call does not name what the command
        // expects (here, by asking for a declaration that does not exist) is dropped with the
        // compiler's finding, and the other conversions in the same file are still written.
        let source = (path: "Objects.swift", text: """
            import Tomorrowland
            import TomorrowlandAsync

            func load() -> StdPromise<Int> { StdPromise(fulfilled: 1) }

            /// Async twin of `load()` (added by tomorrowland-migrate): awaits the promise it returns.
            func load() async throws -> Int { try await (load() as StdPromise<Int>).value }

            func use() async throws -> Int {
                let first = try await (load() as StdPromise<Int>).value
                let second: Int = try await load().value
                return first + second
            }
            """)
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: 6, source: source)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try oracle.facts(for: set.files.map(\.path))
        var (changes, _) = ConvertCalls.plan(set, project: Project(set.recognizing(before), compiler: before))
        #expect(changes.count == 2)
        // Expect the first call to name something else: the proof must drop it.
        changes[0].expectations = [.init(place: changes[0].expectations[0].place, target: .usr("s:nothing"), meaning: "something else")]
        let outcome = EditProof(oracle: oracle, before: before, paths: set.files.map(\.path), set: set).settle(changes)
        #expect(outcome.accepted.count == 1)
        #expect(outcome.dropped.first?.reason.contains("not something else") == true)
        let written = try #require(EditProof.fileChanges(outcome.accepted, in: set).first?.updated)
        #expect(written.contains("let first = try await (load() as StdPromise<Int>).value"))
        #expect(written.contains("let second: Int = try await load()\n"))
    }
}

@Suite("convert-calls and delete-twins on the command line")
struct ProvenCommandLineTests {
    @Test("without the compiler they refuse, saying why, and change nothing; the help names them in the workflow")
    func refuseWithoutTheCompiler() throws {
        let tool = try Support.tool()
        let directory = try Support.makeTemporaryDirectory("proven-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("A.swift")
        let text = "import Tomorrowland\n\nfunc load() -> StdPromise<Int> { Promise(fulfilled: 1) }\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        for command in ["convert-calls", "delete-twins"] {
            let syntaxOnly = try SwiftCompiler.run(tool, [command, directory.path, "--syntax-only", "--write"])
            #expect(syntaxOnly.status == 1)
            #expect(syntaxOnly.stderr.contains("\(command) needs the compiler to prove its changes; it does not run with --syntax-only"))
            // Not in a package: no compiler invocation to ask.
            let noPackage = try SwiftCompiler.run(tool, [command, directory.path, "--write"])
            #expect(noPackage.status == 1)
            #expect(noPackage.stderr.contains("\(command) needs the compiler to prove its changes: no Package.swift above"), "\(noPackage.stderr)")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
        let help = try SwiftCompiler.run(tool, ["--help"])
        #expect(help.stdout.contains("add-async-twins → convert-calls"), "\(help.stdout)")
        #expect(help.stdout.contains("delete-twins (the twins nothing calls)"))
    }
}

extension ConvertCallsTests {
    @Test("a twin in a module the scanned one imports is a target too (convert-calls Tests/ with the twins in Sources/)")
    func twinsInAnImportedModule() throws {
        let directory = try Support.makeTemporaryDirectory("convert-imported")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("Library.swift")
        try """
            import Tomorrowland
            import TomorrowlandAsync

            public func load() -> StdPromise<Int> { StdPromise(fulfilled: 1) }

            /// Async twin of `load()` (added by tomorrowland-migrate): awaits the promise it returns.
            public func load() async throws -> Int { try await (load() as StdPromise<Int>).value }
            """.write(to: library, atomically: true, encoding: .utf8)
        let app = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let caller = app.appendingPathComponent("Caller.swift")
        try """
            import Library
            import Tomorrowland
            import TomorrowlandAsync

            func use() async throws -> Int {
                try await (load() as StdPromise<Int>).value + 1
            }
            """.write(to: caller, atomically: true, encoding: .utf8)
        let modules = directory.appendingPathComponent("Modules")
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-module-cache")
        let common = ["-parse-as-library", "-swift-version", "6", "-module-cache-path", cache.path,
                      "-I", try SwiftCompiler.modulesDirectory(holding: "TomorrowlandAsync").path, "-I", modules.path]
        let emitted = try SwiftCompiler.run(try SwiftCompiler.swiftc(), ["-emit-module", "-module-name", "Library", "-emit-module-path",
                                                                          modules.appendingPathComponent("Library.swiftmodule").path, library.path] + common)
        try #require(emitted.status == 0, "\(emitted.stderr)")
        let oracle = CompilerOracle(swiftc: try SwiftCompiler.swiftc().path, modules: [
            ModuleInvocation(name: "Library", sources: [library.path], arguments: ["-module-name", "Library"] + common),
            ModuleInvocation(name: "App", sources: [caller.path], arguments: ["-module-name", "App"] + common, dependencies: ["Library"]),
        ])
        let result = ConvertCalls.run(SourceSet.load(paths: [app.path]), oracle: oracle)
        #expect(result.changes.map(\.path) == [caller.path], "\(result.notes)")
        #expect(result.changes.first?.updated.contains("    try await load() + 1\n") == true)
    }
}
