import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// Twins written by an earlier run count when pinning; unscanned folders are named (issue 20, item 4).
@Suite("call sites scanned in a later run")
struct LaterRunTests {
    static let service = (path: "UserService.swift", text: """
        import Tomorrowland

        struct User: Sendable { var id: Int }

        final class UserService: Sendable {
            func fetchUser(id: Int) -> StdPromise<User> { Promise(fulfilled: User(id: id)) }
        }
        """)

    static let tests = (path: "UserServiceTests.swift", text: """
        import TomorrowlandAsync
        import XCTest

        final class UserServiceTests: XCTestCase {
            func testFetch() async throws {
                let service = UserService()
                let promise = service.fetchUser(id: 99)
                let user = try await promise.value
                XCTAssertEqual(user.id, 99)
                let direct = try await service.fetchUser(id: 1) // written for the twin
                XCTAssertEqual(direct.id, 1)
            }
        }
        """)

    /// `Sources/` first, then `Sources/` and `Tests/` together.
    func twoRuns() -> (second: MigrationResult, sources: [(path: String, text: String)]) {
        let first = Support.applying(AddAsyncTwins.run(.inMemory([Self.service])), to: [Self.service])
        let second = AddAsyncTwins.run(.inMemory(first + [Self.tests]))
        return (second, Support.applying(second, to: first + [Self.tests]))
    }

    @Test("a twin written by an earlier run: the later run pins the new call sites")
    func existingTwinCounts() throws {
        let (second, sources) = twoRuns()
        #expect(Support.text(of: "UserServiceTests.swift", in: sources).contains("let promise = service.fetchUser(id: 99) as StdPromise<User>"))
        // A call under `await` already means the existing twin: left alone.
        #expect(Support.text(of: "UserServiceTests.swift", in: sources).contains("let direct = try await service.fetchUser(id: 1) //"))
        #expect(Support.text(of: "UserService.swift", in: sources).components(separatedBy: "Async twin of").count == 2, "no second twin")
        #expect(second.changes.map(\.path) == ["UserServiceTests.swift"])
        #expect(AddAsyncTwins.run(.inMemory(sources)).changes.isEmpty)
    }

    @Test("the result of the later run compiles (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        try Support.expectCompiles(twoRuns().sources, swiftVersion: swiftVersion)
    }

    /// A package on disk: `Sources/` with the service, `Tests/` with its async test.
    static func package() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("later-run-\(UUID().uuidString)")
        let files = [
            "Package.swift": "// swift-tools-version: 6.1\n// \"TomorrowlandAsync\"\n",
            "Sources/App/UserService.swift": service.text,
            "Tests/AppTests/UserServiceTests.swift": tests.text,
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test("`Tests/` alone after `Sources/`: the twins already in the tree count (Swift 5 and 6)", arguments: [5, 6])
    func testsAloneAfterSources(swiftVersion: Int) throws {
        let root = try Self.package()
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["Sources", "Tests"] {
            let result = AddAsyncTwins.run(SourceSet.load(paths: [root.appendingPathComponent(folder).path]))
            for change in result.changes { try change.updated.write(toFile: change.path, atomically: true, encoding: .utf8) }
        }
        let tests = try String(contentsOf: root.appendingPathComponent("Tests/AppTests/UserServiceTests.swift"), encoding: .utf8)
        #expect(tests.contains("let promise = service.fetchUser(id: 99) as StdPromise<User>"), "\(tests)")
        let service = try String(contentsOf: root.appendingPathComponent("Sources/App/UserService.swift"), encoding: .utf8)
        try Support.expectCompiles([("UserService.swift", service), ("UserServiceTests.swift", tests)], swiftVersion: swiftVersion)
    }

    @Test("a run on Sources/ names the package folders it did not scan, and the missing product once")
    func unscannedFolders() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("later-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = [
            "Package.swift": "// swift-tools-version: 6.1\nimport PackageDescription\nlet package = Package(name: \"App\")\n",
            "Sources/App/UserService.swift": Self.service.text,
            "Sources/App/Other.swift": "import Tomorrowland\n\nfunc other() -> StdPromise<Int> { Promise(fulfilled: 1) }\n",
            "Tests/AppTests/UserServiceTests.swift": Self.tests.text,
            "Examples/Demo/main.swift": "print(1)\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let sources = root.appendingPathComponent("Sources").path
        let notes = AddAsyncTwins.run(SourceSet.load(paths: [sources])).notes.map(\.message)
        #expect(notes.contains(
            "call sites in Examples/, Tests/ were not scanned: a call there that a twin captures is not pinned; "
                + "scan them in the same run (add-async-twins \(sources) Examples/ Tests/)"
        ), "\(notes)")
        #expect(notes.filter { $0.contains("TomorrowlandAsync") }.count == 1, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("added `import TomorrowlandAsync` to 2 file(s)") })

        // A manifest that lists the product: no note about it; everything scanned: no warning.
        try """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "App", targets: [
                .target(name: "App", dependencies: [.product(name: "TomorrowlandAsync", package: "Tomorrowland")]),
            ])
            """.write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let all = ["Sources", "Tests", "Examples"].map { root.appendingPathComponent($0).path }
        #expect(AddAsyncTwins.run(SourceSet.load(paths: all)).notes.filter { !$0.message.contains("gets `as") }.isEmpty)
    }
}
