import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("report")
struct ReportTests {
    static let graph = (path: "Graph.swift", text: """
        import TomorrowlandAsync

        protocol Source {
            func next() -> StdPromise<Int>
            var current: StdPromise<Int> { get }
        }

        struct Pipeline {
            var cached: StdPromise<Int> { Promise(fulfilled: 0) }

            func leaf() -> StdPromise<Int> { Promise(fulfilled: 1) }
            func middle() -> StdPromise<Int> { leaf().map(on: .immediate) { $0 + 1 } }
            func top() -> StdPromise<Int> { middle().then(on: .immediate) { _ in } }
            func usesLeafAsync() async throws -> Int { try await leaf().value }
            func modern() async -> Int { 1 }
        }

        func caller(_ pipeline: Pipeline) {
            pipeline.top().always(on: .immediate) { _ in }
            _ = pipeline.top()
            _ = [1, 2].map { $0 + 1 }
        }

        func wrapped() -> StdPromise<Int> {
            StdPromise { try await Pipeline().usesLeafAsync() }
        }
        """)

    @Test("declarations, async functions, bridges and operator calls")
    func inventory() {
        let report = Report.make(.inMemory([Self.graph]))
        #expect(report.promiseDeclarations.map { "\($0.kind) \($0.name)" } == [
            "requirement next()", "requirement current", "property cached",
            "method leaf()", "method middle()", "method top()", "function wrapped()",
        ])
        #expect(report.asyncFunctions.map(\.name) == ["usesLeafAsync()", "modern()"])
        #expect(report.bridges.map { "\($0.line) \($0.kind)" } == ["14 .value", "25 StdPromise { await … }"])
        // `[1, 2].map { }` is not a promise operator; `map(on:)` is.
        #expect(report.operatorCalls.first?.counts == ["map": 1, "then": 1, "always": 1])
    }

    @Test("migration percentage per file, per folder and in total")
    func percentages() {
        let other = (path: "Other.swift", text: "func done() async {}\n")
        let report = Report.make(.inMemory([Self.graph, other]))
        // Graph.swift: P = 7 declarations + 3 operator calls; A = 2 async functions + 2 bridges.
        #expect(report.files[0].promiseStyle == 10 && report.files[0].asyncStyle == 4)
        #expect(report.files[0].migratedPercent == 28.6)
        #expect(report.files[1].migratedPercent == 100)
        #expect(report.total.promiseStyle == 10 && report.total.asyncStyle == 5)
        #expect(report.total.migratedPercent == 33.3)
        #expect(report.folders.map(\.name) == ["."])
    }

    @Test("the plan: leaves first, each with its promise-style callers")
    func plan() {
        let report = Report.make(.inMemory([Self.graph]))
        // A protocol requirement is a step too (its twin goes in an extension of the protocol).
        #expect(report.plan.map(\.function) == ["Source.next()", "Pipeline.leaf()", "wrapped()", "Pipeline.middle()", "Pipeline.top()"])
        #expect(report.plan.map(\.level) == [0, 0, 0, 1, 2])
        // leaf: called by middle (promise style) but not by usesLeafAsync (awaited);
        // top: twice from caller(_:).
        #expect(report.plan.map(\.promiseStyleCallers) == [0, 1, 0, 1, 2])
    }

    @Test("twins the report shows as unused can be deleted")
    func twins() throws {
        let api = (path: "A.swift", text: """
            import TomorrowlandAsync

            func load() -> StdPromise<Int> { Promise(fulfilled: 1) }
            func store() -> StdPromise<Int> { Promise(fulfilled: 1) }
            func useLoad() async throws -> Int { try await load() }
            """)
        let migrated = Support.applying(AddAsyncTwins.run(.inMemory([api])), to: [api])
        let report = Report.make(.inMemory(migrated))
        #expect(report.twins.map { "\($0.function) \($0.kind) \($0.callers)" } == ["load() async twin 1", "store() async twin 0"])
        #expect(report.renderText().contains("0 (unused)"))
    }

    @Test("a call convert-calls rewrites stays async style: `try await f()` counts as the bridge it replaced")
    func convertedCallsKeepTheFigure() {
        let api = (path: "A.swift", text: """
            import TomorrowlandAsync

            func load() -> StdPromise<Int> { Promise(fulfilled: 1) }
            func useLoad() async throws -> Int { try await load().value }
            """)
        let twinned = Support.applying(AddAsyncTwins.run(.inMemory([api])), to: [api])
        let before = Report.make(.inMemory(twinned)).total
        // What convert-calls writes for the bridge (pinned or not by add-async-twins).
        let converted = twinned.map { file in
            (path: file.path, text: file.text.replacingOccurrences(
                of: #"(func useLoad\(\) async throws -> Int \{ )try await (?:\(load\(\) as StdPromise<Int>\)|load\(\))\.value"#,
                with: "$1try await load()", options: .regularExpression
            ))
        }
        #expect(converted[0].text.contains("func useLoad() async throws -> Int { try await load() }"), "\(converted[0].text)")
        #expect(Report.make(.inMemory(converted)).twins.map(\.function) == ["load()"], "the twin is still one")
        let after = Report.make(.inMemory(converted)).total
        #expect(before.asyncStyle == 2 && before.promiseStyle == 1, "useLoad and its bridge; load")
        #expect(after.asyncStyle == before.asyncStyle && after.migratedPercent == before.migratedPercent)
        // A call of the promise version, not awaited, stays promise style's business: not counted.
        let promiseCall = [(path: "B.swift", text: "func keep() -> StdPromise<Int> { load() }\n")]
        #expect(Report.make(.inMemory(converted + promiseCall)).total.asyncStyle == after.asyncStyle)
    }

    @Test("unreadable paths and files that do not parse are reported; the rest is still scanned")
    func problems() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Feature"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "func good() -> StdPromise<Int> { Promise(fulfilled: 1) }\n".write(to: directory.appendingPathComponent("Feature/Good.swift"), atomically: true, encoding: .utf8)
        try "func broken( -> {\n".write(to: directory.appendingPathComponent("Broken.swift"), atomically: true, encoding: .utf8)
        let set = SourceSet.load(paths: [directory.path, directory.path + "/Missing"])
        #expect(set.files.map { ($0.path as NSString).lastPathComponent } == ["Good.swift"])
        #expect(set.files.first?.folder == directory.path + "/Feature")
        #expect(set.problems.count == 2)
        #expect(set.problems[0].description.hasPrefix(directory.path + "/Broken.swift: error: does not parse: 1:"))
        #expect(set.problems[1].description == directory.path + "/Missing: error: no such file or folder")
    }

    @Test("the command line: tables, --json, non-zero exit on problems, diff and --write")
    func commandLine() throws {
        let tool = try Support.tool()
        let directory = try Support.makeTemporaryDirectory("cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("A.swift")
        try "import Tomorrowland\n\nfunc load() -> StdPromise<Int> { Promise(fulfilled: 1) }\n".write(to: file, atomically: true, encoding: .utf8)

        let table = try SwiftCompiler.run(tool, ["report", directory.path])
        #expect(table.status == 0)
        #expect(table.stdout.contains("== Plan: migrate in this order (leaves first)"))
        let json = try SwiftCompiler.run(tool, ["report", "--json", directory.path, directory.path + "/Missing"])
        #expect(json.status == 1)
        #expect(json.stderr.contains("Missing: error: no such file or folder"))
        let decoded = try JSONDecoder().decode(Report.self, from: Data(json.stdout.utf8))
        #expect(decoded.plan.map(\.function) == ["load()"])
        let help = try SwiftCompiler.run(tool, ["report", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Migration percentage = 100 × A / (A + P)"))

        let diff = try SwiftCompiler.run(tool, ["add-async-twins", directory.path])
        #expect(diff.status == 0)
        #expect(diff.stdout.contains("+nonisolated(nonsending) func load() async throws -> Int {"))
        #expect(try String(contentsOf: file, encoding: .utf8).contains("async") == false, "no --write: file unchanged")
        let write = try SwiftCompiler.run(tool, ["add-async-twins", "--write", directory.path])
        #expect(write.status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("func load() async throws -> Int {"))
        let again = try SwiftCompiler.run(tool, ["add-async-twins", directory.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.isEmpty, "nothing left to add after --write")
    }
}

/// The report measures the code, not the tool (issue 20, item 6).
@Suite("report: calls resolved, twins not counted")
struct ReportResolutionTests {
    static let source = (path: "Network.swift", text: """
        import Foundation
        import Tomorrowland

        struct User: Codable, Sendable { var id: Int }

        final class HTTPClient: Sendable {
            func get(_ path: String) -> StdPromise<Data> { Promise(fulfilled: Data()) }
            func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) -> StdPromise<T> {
                Promise(on: .immediate) { resolver in
                    do { resolver.fulfill(with: try JSONDecoder().decode(T.self, from: data)) } catch { resolver.reject(with: error) }
                }
            }
        }

        final class UserAPI: Sendable {
            let client: HTTPClient = HTTPClient()

            func fetchUser(id: Int) -> StdPromise<User> {
                client.get("/users/\\(id)").flatMap(on: .immediate) { self.client.decode(User.self, from: $0) }
            }

            func fetchUser(email: String) -> StdPromise<User> { Promise(fulfilled: User(id: email.count)) }

            func cached(id: Int) -> StdPromise<User> {
                let decoder = JSONDecoder()
                let user = try? decoder.decode(User.self, from: Data())
                return Promise(fulfilled: user ?? User(id: id))
            }

            func refreshed() async throws -> User {
                try await fetchUser(id: 1).value
            }
        }

        func mystery() -> UserAPI { UserAPI() }

        func screens(api: UserAPI) {
            _ = api.fetchUser(email: "a")
            _ = api.fetchUser(id: 1)
            _ = try? JSONDecoder().decode(User.self, from: Data())
            _ = mystery().fetchUser(email: "b")
        }
        """)

    @Test("calls are resolved by labels, arity and receiver type; unknown receivers are said to be unknown")
    func resolution() throws {
        let report = Report.make(.inMemory([Self.source]))
        let steps = Dictionary(uniqueKeysWithValues: report.plan.map { ($0.function, $0) })
        let decode = try #require(steps["HTTPClient.decode(_:from:)"])
        #expect(decode.promiseStyleCallers == 1, "self.client.decode only, not JSONDecoder's")
        #expect(decode.unknownCallers == 0)
        let byEmail = try #require(steps["UserAPI.fetchUser(email:)"])
        #expect(byEmail.promiseStyleCallers == 1 && byEmail.unknownCallers == 1)
        let byID = try #require(steps["UserAPI.fetchUser(id:)"])
        #expect(byID.promiseStyleCallers == 1, "refreshed() awaits it")
        #expect(byID.level == 1, "it calls HTTPClient.get and .decode")
        #expect(steps["UserAPI.cached(id:)"]?.level == 0, "JSONDecoder's decode is not a promise function")
        #expect(report.renderText().contains("1 (+1 unknown)"))
        // Calls through `any UserServicing` resolve to the requirement, not to a conformer.
        let protocolReport = Report.make(.inMemory([ProtocolTests.api]))
        let requirement = try #require(protocolReport.plan.first { $0.function == "UserService.fetchUser(id:)" })
        #expect(requirement.promiseStyleCallers == 1, "firstUser(_:) calls it through any UserService")
        #expect(protocolReport.plan.first { $0.function == "LiveUserService.fetchUser(id:)" }?.promiseStyleCallers == 0)
    }

    @Test("twins and the pins the tool writes change neither P nor A")
    func twinsAreNotProgress() throws {
        let before = Report.make(.inMemory([Self.source]))
        let (_, migrated) = Support.bothCommands([Self.source])
        let after = Report.make(.inMemory(migrated))
        #expect(Support.text(of: "Network.swift", in: migrated).contains("Async twin of"))
        #expect(Support.text(of: "Network.swift", in: migrated).contains("Promise twin of"))
        #expect(after.total.promiseStyle == before.total.promiseStyle)
        #expect(after.total.asyncStyle == before.total.asyncStyle)
        #expect(after.total.migratedPercent == before.total.migratedPercent)
    }

    @Test("the migrated fixture compiles (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        try Support.expectCompiles(Support.bothCommands([Self.source]).sources, swiftVersion: swiftVersion)
    }
}
