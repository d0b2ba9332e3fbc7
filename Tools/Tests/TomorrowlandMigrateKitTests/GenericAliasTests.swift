import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// Promise types written through typealiases, generic ones and aliases of aliases, and generic
/// over the function's own or the enclosing type's parameters (issue 37, item 2): each function
/// gets its async twin, and the result compiles.
@Suite("promise types through generic typealiases")
struct GenericAliasTests {
    static let api = (path: "Hub.swift", text: """
        import Foundation
        import Tomorrowland

        enum HubError: Error { case offline }
        struct Device: Sendable { var id: Int }

        typealias HubPromise<T> = Promise<T, HubError>
        typealias Guaranteed<T> = Promise<T, NoError>
        typealias DevicePromise = HubPromise<Device>
        typealias Page<Element> = HubPromise<[Element]>

        final class Hub: Sendable {
            func device(id: Int) -> DevicePromise { Promise(fulfilled: Device(id: id)) }
            func count() -> Guaranteed<Int> { Promise(fulfilled: 1) }
            func echo<T: Sendable>(_ value: T) -> HubPromise<T> { Promise(fulfilled: value) }
            func page(of ids: [Int]) -> Page<Device> { Promise(fulfilled: ids.map { Device(id: $0) }) }
        }

        struct Endpoint<Response: Sendable>: Sendable {
            let response: Response
            func call() -> HubPromise<Response> { Promise(fulfilled: response) }
        }

        protocol Fetching: Sendable {}
        extension Fetching {
            func fetch<T: Sendable>(_ value: T) -> HubPromise<T> { Promise(fulfilled: value) }
        }
        """)

    @Test("every function returning a promise through an alias gets an async twin, with the alias's types")
    func twins() throws {
        let (notes, sources) = Support.bothCommands([Self.api], all: false)
        let text = Support.text(of: "Hub.swift", in: sources)
        #expect(text.contains("func device(id: Int) async throws -> Device {"), "\(text)\n\(notes)")
        #expect(text.contains("func count() async throws(CancellationError) -> Int {"), "\(text)")
        #expect(text.contains("func echo<T: Sendable>(_ value: T) async throws -> T {"), "\(text)")
        #expect(text.contains("func page(of ids: [Int]) async throws -> [Device] {"), "\(text)")
        #expect(text.contains("func call() async throws -> Response {"), "\(text)")
        #expect(text.contains("func fetch<T: Sendable>(_ value: T) async throws -> T {"), "\(text)")
    }

    @Test("the twins compile (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        try Support.expectCompiles(Support.bothCommands([Self.api], all: false).sources, swiftVersion: swiftVersion)
    }

    @Test("alias substitution replaces whole identifiers only")
    func substitution() {
        #expect(PromiseType.substituting(["T"], with: ["Device"], in: "[T: Tag]") == "[Device: Tag]")
        #expect(PromiseType.substituting(["T", "E"], with: ["Int", "HubError"], in: "Result<T, E>") == "Result<Int, HubError>")
    }
}

/// The note that the twins' target needs the TomorrowlandAsync product (both blind corpora
/// listed it only in a commented-out target, and got no note).
@Suite("the TomorrowlandAsync product in the manifest")
struct AsyncProductTests {
    @Test("it counts only in the manifest's code, not in a comment")
    func outsideComments() {
        let commented = PackageContext(root: "/p", manifest: """
            .target(name: "A", dependencies: [.product(name: "Tomorrowland", package: "Tomorrowland")]),
            // .testTarget(name: "T", dependencies: [.product(name: "TomorrowlandAsync", package: "Tomorrowland")]),
            """)
        #expect(!commented.listsAsyncProduct)
        let listed = PackageContext(root: "/p", manifest: """
            .target(name: "A", dependencies: [.product(name: "TomorrowlandAsync", package: "Tomorrowland")]),
            """)
        #expect(listed.listsAsyncProduct)
    }

    /// Both blind corpora as MIGRATION.md orders the steps: no target had the product yet, and
    /// the proof found the twins it cannot write one file a round, until it gave up after 8.
    @Test("a target that does not import TomorrowlandAsync gets no twins, and one note names it")
    func targetsWithoutTheProduct() {
        let set = SourceSet.inMemory([
            (path: "/p/Sources/Core/A.swift", text: "import Tomorrowland\nfunc a() -> Promise<Int, Error> { fatalError() }\n"),
            // A requirement left out makes its conformer a candidate: left out too.
            (path: "/p/Sources/Core/P.swift", text: """
                import Tomorrowland
                protocol P { func p() -> Promise<Int, Error> }
                struct S: P { func p() -> Promise<Int, Error> { fatalError() } }
                """),
            (path: "/p/Sources/Twins/B.swift", text: "import Tomorrowland\nfunc b() -> Promise<Int, Error> { fatalError() }\n"),
            (path: "/p/Sources/Above/C.swift", text: "import Tomorrowland\nfunc c() -> Promise<Int, Error> { fatalError() }\n"),
        ])
        let oracle = CompilerOracle(swiftc: "swiftc", modules: [
            ModuleInvocation(name: "TomorrowlandAsync", sources: ["/t/Async.swift"], arguments: [], dependencies: ["Tomorrowland"]),
            ModuleInvocation(name: "Core", sources: ["/p/Sources/Core/A.swift", "/p/Sources/Core/P.swift"], arguments: [], dependencies: ["Tomorrowland"]),
            ModuleInvocation(name: "Twins", sources: ["/p/Sources/Twins/B.swift"], arguments: [], dependencies: ["TomorrowlandAsync"]),
            // Through the module it imports.
            ModuleInvocation(name: "Above", sources: ["/p/Sources/Above/C.swift"], arguments: [], dependencies: ["Twins"]),
        ])
        let candidates = { (decisions: ProofDecisions) in
            AddAsyncTwins.plan(set, project: Project(set), decisions: decisions, elsewhere: []).candidates
        }
        #expect(candidates(ProofDecisions()).map(\.name).sorted() == ["a", "b", "c", "p"])
        var decisions = ProofDecisions()
        let note = AddAsyncTwins.rejectTargetsWithoutAsyncProduct(oracle: oracle, set: set, decisions: &decisions, candidates: candidates)
        #expect(decisions.rejected.keys.map { ($0.container ?? "") + "." + $0.signature }.sorted() == [".a()", "P.p()", "S.p()"])
        #expect(decisions.rejected.values.first?.contains("Core, does not depend on the TomorrowlandAsync product") == true)
        #expect(note?.message.hasPrefix("add the TomorrowlandAsync product to the dependencies of the target(s) Core, then run") == true)
        var none = ProofDecisions()
        let everyTarget = CompilerOracle(swiftc: "swiftc", modules: oracle.modules.map { module in
            module.name == "Core" ? ModuleInvocation(name: "Core", sources: module.sources, arguments: [], dependencies: ["TomorrowlandAsync"]) : module
        })
        #expect(AddAsyncTwins.rejectTargetsWithoutAsyncProduct(oracle: everyTarget, set: set, decisions: &none, candidates: candidates) == nil)
        #expect(none.rejected.isEmpty)
    }
}
