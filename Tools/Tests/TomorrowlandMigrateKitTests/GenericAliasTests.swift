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
}
