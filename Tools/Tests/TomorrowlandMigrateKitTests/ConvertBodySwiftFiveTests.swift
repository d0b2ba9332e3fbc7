import Foundation
import SwiftSyntax
import Testing
@testable import TomorrowlandMigrateKit

/// The Swift 5 rule (ConvertBody+SwiftFive.swift): in a Swift 5 mode module, a chain whose wrapper
/// would capture a non-Sendable `self` or parameter keeps its wrapper when the chain's own closures
/// already capture that value. Fixtures/ConvertBody/SwiftFive.swift; what the tool writes of it
/// runs in the Swift 5 mode target ConvertedSwiftFiveTests (Tests/ConvertedSwiftFiveTests).
@Suite("convert-body: a wrapper that captures what the chain's closures captured (Swift 5 mode)")
struct ConvertBodySwiftFiveTests {
    /// add-async-twins, then convert-body with the compiler in Swift 5 mode, on the fixture
    /// (`swiftFiveFiles`: as `ConvertBody.run` takes it; the folder is the caller's to remove).
    static func converted(swiftFiveFiles: Set<String>? = nil) throws -> (result: MigrationResult, notes: [String], directory: URL) {
        let source = [try Support.fixture("ConvertBody/SwiftFive.swift")].map { (path: "SwiftFive.swift", text: $0.text) }
        let twins = Support.applying(AddAsyncTwins.run(.inMemory(source)), to: source)
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: 5, source: twins[0])
        let result = ConvertBody.run(set, oracle: oracle, swiftFiveFiles: swiftFiveFiles)
        return (result, result.notes.map(\.message), directory)
    }

    static var convertedFile: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ConvertedSwiftFiveTests/ConvertedSwiftFive.swift")
    }

    @Test("Swift 5 mode: `self` and a parameter the chains' closures captured keep their wrappers, with a note; a chain whose closure does not capture `self` is left")
    func convertedWithWrappers() throws {
        let (result, notes, directory) = try Self.converted()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 3 of 4 chain bodies converted, 1 left (reasons above)"
            + "; 1 waits on a type being Sendable (what to do: the notes before this one)", "\(notes)")
        #expect(notes.contains {
            $0.hasPrefix("tripled(_:): left as a chain: `Tally` is not known to be Sendable: the wrapper's Task cannot capture `self`")
                && $0.contains("the promise version, which could go instead, is still called at ")
        }, "\(notes)")
        #expect(notes.contains {
            $0.hasPrefix("load(_:): converted in a Swift 5 mode module; its wrapper captures `self` (`Tally`), not known to be Sendable, "
                + "as the chain's closures did") && $0.hasSuffix("make the type Sendable or isolate it before switching to Swift 6 mode")
        }, "\(notes)")
        #expect(notes.contains {
            $0.hasPrefix("relayed(_:through:): converted in a Swift 5 mode module; its wrapper captures parameter `wire`")
                && $0.contains("Swift 6 mode names that capture once, in the wrapper, where it named every closure that captured it")
        }, "\(notes)")
        let text = try #require(result.changes.first?.updated, "\(notes)")
        #expect(text.contains("""
                func load(_ input: Int) -> Promise<Int, Error> {
                    StdPromise(on: .immediate) { try await self.load(input) }
                }
            """), "\(text)")
        // The statement before the chain moved into the twin, which the wrapper starts during the call.
        #expect(text.contains("""
                nonisolated(nonsending) func load(_ input: Int) async throws -> Int {
                    note("before \\(input)")
                    let value = try await wire.fetch(input)
                    return await withTaskExecutorPreference(PromiseContext.queue(wireQueue).taskExecutor) { @concurrent in
                        self.note("mapped \\(value)")
                        return value * 2
                    }
                }
            """), "\(text)")
        #expect(text.contains("StdPromise(on: .immediate) { try await relayed(input, through: wire) }"), "\(text)")
        // Its steps all run on a queue in a static property: the wrapper resolves there, without preferring it.
        #expect(text.contains("StdPromise(on: .immediate) { try await self.post(input) }.then(on: PromiseContext.queue(Queues.ledger)) { _ in }"),
                "\(text)")
        #expect(text.contains("wire.fetch(input).map(on: .queue(wireQueue)) { $0 * 3 }"), "\(text)")
        // It builds in Swift 5 mode (the proof's), and it is what the Swift 5 mode test target runs.
        try text.write(to: directory.appendingPathComponent("SwiftFive.swift"), atomically: true, encoding: .utf8)
        let again = try OracleTests.fixture(swiftVersion: 5, source: (path: "SwiftFive.swift", text: text))
        defer { try? FileManager.default.removeItem(at: again.directory) }
        #expect(try again.oracle.facts(for: again.set.files.map(\.path)).errors.isEmpty)
        // `TOMORROWLAND_WRITE_CONVERTED_SWIFT_FIVE=1 swift test --filter convertedWithWrappers` writes it anew.
        let expected = Self.convertedFile
        if ProcessInfo.processInfo.environment["TOMORROWLAND_WRITE_CONVERTED_SWIFT_FIVE"] == "1" {
            try text.write(to: expected, atomically: true, encoding: .utf8)
        }
        #expect(text == (try String(contentsOf: expected, encoding: .utf8)), "ConvertedSwiftFive.swift is not the tool's output")
        // A second run changes nothing.
        let second = ConvertBody.run(again.set, oracle: again.oracle)
        #expect(second.changes.isEmpty, "\(second.diff)")
    }

    @Test("a Swift 6 mode module: the same chains are left with the reason (the wrapper would be the only capture Swift 6 mode names)")
    func swiftSixModule() throws {
        // The fixture's 1.x closures do not compile in Swift 6 mode: its own module's mode is taken to be 6.
        let (result, notes, directory) = try Self.converted(swiftFiveFiles: [])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.changes.isEmpty, "\(result.diff)")
        #expect(notes.last == "convert-body: 0 of 4 chain bodies converted, 4 left (reasons above)"
            + "; 4 wait on a type being Sendable (what to do: the notes before this one)", "\(notes)")
        #expect(notes.contains { $0.hasPrefix("load(_:): left as a chain: `Tally` is not known to be Sendable") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("relayed(_:through:): left as a chain: parameter `wire` is not known to be Sendable") }, "\(notes)")
        #expect(!notes.contains { $0.contains("converted in a Swift 5 mode module") }, "\(notes)")
    }

    @Test("the language mode is the module's own `-swift-version`; complete checking asks for Swift 6 mode's diagnostics")
    func languageMode() {
        let modules = [
            ModuleInvocation(name: "Five", sources: ["/p/Five/a.swift"], arguments: ["-module-name", "Five", "-swift-version", "5"]),
            ModuleInvocation(name: "Six", sources: ["/p/Six/b.swift"], arguments: ["-module-name", "Six", "-swift-version", "6"]),
            ModuleInvocation(name: "Four", sources: ["/p/Four/c.swift"], arguments: ["-swift-version", "4.2"]),
            ModuleInvocation(name: "Strict", sources: ["/p/Strict/d.swift"], arguments: ["-swift-version", "5", "-strict-concurrency=complete"]),
        ]
        let files = ConvertBody.swiftFiveFiles(of: CompilerOracle(swiftc: "/usr/bin/swiftc", modules: modules))
        #expect(files == [CompilerFacts.key("/p/Five/a.swift"), CompilerFacts.key("/p/Four/c.swift")])
    }

    @Test("what a closure captures: `self` (explicit, a member's bare name), a parameter; not `[weak self]`, `[x = self.x]`, `x.api`, `Int.self`, a name the function declares")
    func captures() throws {
        let source = """
            struct Box {
                var items: [Int] = []
                var count = 0
                func f(api: Int) {
                    _ = { [weak self] in 1 }
                    _ = { [store = self.items] in store }
                    _ = { items.count }
                    _ = { (count: Int) in count }
                    _ = { api + 1 }
                    _ = { x.api + x.items }
                    _ = { Int.self }
                    _ = { self.items }
                }
                func g() {
                    _ = { [items] in items.count }
                }
            }
            """
        let file = ParsedFile(path: "Box.swift", folder: "", text: source)
        final class Finder: SyntaxVisitor {
            var functions: [FunctionDeclSyntax] = []
            var closures: [ClosureExprSyntax] = []
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
                functions.append(node)
                return .visitChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
                closures.append(node)
                return .skipChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(file.tree)
        let function = try #require(finder.functions.first)
        let members = ConvertBody.instanceMembers(of: "Box", in: .inMemory([(path: "Box.swift", text: source)]))
        #expect(members == ["items", "count", "f", "g"])
        let local = ConvertBody.declaredNames(in: function)
        let closures = finder.closures.dropLast()
        let capturesSelf = closures.map { ConvertBody.captures($0, "self", members: members, local: local) }
        let capturesAPI = closures.map { ConvertBody.captures($0, "api", members: [], local: local) }
        // `[weak self]` does not keep `self` alive; the wrapper's Task would (Pharmacy's `prescription(id:)`).
        #expect(capturesSelf == [false, false, true, false, false, false, false, true])
        #expect(capturesAPI == [false, false, false, false, true, false, false, false])
        // `[items]` reads `self.items` when the closure is made: the closure captures the copy (Ledger's `[fx]`).
        let g = try #require(finder.functions.last)
        let shorthand = try #require(finder.closures.last)
        #expect(!ConvertBody.captures(shorthand, "self", members: members, local: ConvertBody.declaredNames(in: g)))
    }
}
