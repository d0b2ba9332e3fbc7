import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// Functions that get no twin, and the reasons given (issue 20, items 2 and 8).
@Suite("skipped functions")
struct SkipTests {
    static let extensions = (path: "Extensions.swift", text: """
        import Tomorrowland

        extension Promise {
            /// `Error` here is the promise's generic parameter.
            func retagged() -> Promise<Value, Error> { self }
        }

        extension Promise where Error: Swift.Error {
            /// Here it is a Swift.Error: `.value` exists.
            func again() -> Promise<Value, Error> { self }
        }

        // tomorrowland-migrate: skip
        func legacy() -> StdPromise<Int> { Promise(fulfilled: 1) }

        // tomorrowland-migrate: skip
        func modern() async -> Int { 1 }
        """)

    /// A caller of the twin of the constrained extension's method.
    static let client = (path: "Client.swift", text: """
        import TomorrowlandAsync

        func uses() async throws -> Int {
            try await StdPromise<Int>(fulfilled: 2).again()
        }
        """)

    @Test("an unconstrained `extension Promise` gets no twin; a constrained one does; the skip marker")
    func promiseExtension() throws {
        let result = AddAsyncTwins.run(.inMemory([Self.extensions]))
        let text = Support.text(of: "Extensions.swift", in: Support.applying(result, to: [Self.extensions]))
        #expect(!text.contains("func retagged() async"))
        #expect(text.contains("func again() async throws -> Value {"))
        #expect(!text.contains("func legacy() async"))
        let notes = result.notes.map(\.description)
        #expect(notes.contains(
            "Extensions.swift:5: retagged(): no async twin: in `extension Promise`, `Error` is the promise's generic parameter, "
                + "not known to conform to Swift.Error; move it to `extension Promise where Error: Swift.Error` to get a twin"
        ), "\(notes)")
        #expect(notes.contains("Extensions.swift:14: legacy(): no async twin: marked `// tomorrowland-migrate: skip`"), "\(notes)")
        // Deleting nothing by hand: a rerun changes nothing, and add-promise-twins honours the marker too.
        #expect(AddAsyncTwins.run(.inMemory([(path: "Extensions.swift", text: text)])).changes.isEmpty)
        let promiseTwins = AddPromiseTwins.run(.inMemory([(path: "Extensions.swift", text: text)]), all: true)
        #expect(!promiseTwins.changes.contains { $0.updated.contains("func modern() -> Promise") })
        #expect(promiseTwins.notes.map(\.message) == ["modern(): no promise twin: marked `// tomorrowland-migrate: skip`"])
    }

    @Test("the result of both commands on Promise extensions compiles (Swift 5 and 6)", arguments: [5, 6])
    func promiseExtensionCompiles(swiftVersion: Int) throws {
        let asyncTwins = Support.applying(AddAsyncTwins.run(.inMemory([Self.extensions])), to: [Self.extensions])
        let both = Support.applying(AddPromiseTwins.run(.inMemory(asyncTwins), all: true), to: asyncTwins)
        try Support.expectCompiles(both + [Self.client], swiftVersion: swiftVersion)
    }
}
