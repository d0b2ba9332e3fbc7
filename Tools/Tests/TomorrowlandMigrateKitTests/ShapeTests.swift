import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// Generated code a reviewer accepts as hand-written (issue 20, item 7).
@Suite("shape of generated code")
struct ShapeTests {
    static let api = (path: "Shapes.swift", text: """
        import Foundation
        import Tomorrowland

        enum SaveError: Error { case full }

        struct Saver: Sendable {
            /// Saves; the result may be ignored.
            @discardableResult
            @available(macOS 10.15, *)
            func save(_ text: String) -> Promise<Void, SaveError> { Promise(fulfilled: ()) }

            @discardableResult
            func touch() -> StdPromise<Int> { Promise(fulfilled: 1) }

            /// Counts, with a token for the work it starts.
            func count(token: PromiseInvalidationToken) -> TokenPromise<Int, NoError> {
                Promise<Int, NoError>(fulfilled: 1).withToken(token)
            }

            /// Rewritten as async; old callers need a promise.
            // tomorrowland-migrate: promise-twin
            func reload(
                includingArchivedEntriesFromTheLastSyncWindow includeArchived: Bool,
                maximumNumberOfEntriesToKeep limit: Int
            ) async -> Int { limit }
        }

        func callers(_ saver: Saver) async {
            let counts = ["a", "b"].map { _ in saver.save("x") }
            saver.save("y").then(on: .immediate) { }
            _ = counts
        }
        """)

    func migrated() -> [(path: String, text: String)] {
        Support.bothCommands([Self.api], all: false).sources
    }

    @Test("attributes, Void, typed errors, tokens, markers, 120 columns, no pins in synchronous closures")
    func shape() throws {
        let text = Support.text(of: "Shapes.swift", in: migrated())
        #expect(text.contains("""
                /// Saves; the result may be ignored.
                ///
                /// Async twin of `save(_:)` (added by tomorrowland-migrate): awaits the promise it returns.
                /// Throws the promise's `SaveError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
                /// requests cancellation of the promise.
                @available(macOS 10.15, *)
                nonisolated(nonsending) func save(_ text: String) async throws {
            """), "\(text)")
        // Kept where the twin returns a value; on a Void twin it would only draw a warning.
        #expect(text.contains("    @discardableResult\n    nonisolated(nonsending) func touch() async throws -> Int {"))
        #expect(text.contains("/// `token` is still passed on: awaiting registers no callback it could invalidate"))
        #expect(text.contains("""
                /// Rewritten as async; old callers need a promise.
                ///
                /// Promise twin of `reload(includingArchivedEntriesFromTheLastSyncWindow:maximumNumberOfEntriesToKeep:)` (added by
            """))
        let long = text.split(separator: "\n").filter { $0.count > 120 }
        #expect(long.isEmpty, "\(long)")
        #expect(text.contains(#"["a", "b"].map { _ in saver.save("x") }"#), "no pin in a synchronous closure")
        #expect(text.contains(#"saver.save("y").then(on: .immediate) { }"#))
        #expect(!text.contains("-> Void"))
        #expect(text.contains("""
                    Promise {
                        await self.reload(
                            includingArchivedEntriesFromTheLastSyncWindow: includeArchived,
                            maximumNumberOfEntriesToKeep: limit
                        )
                    }
            """))
    }

    @Test("the generated code compiles (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        let client = (path: "Client.swift", text: """
            import TomorrowlandAsync

            func useTwins(_ saver: Saver, token: PromiseInvalidationToken) async throws {
                try await saver.save("discarded")
                try await saver.touch()
                let count: Int = try await saver.count(token: token)
                let promise: Promise<Int, NoError> = saver.reload(includingArchivedEntriesFromTheLastSyncWindow: true, maximumNumberOfEntriesToKeep: 2)
                _ = (count, promise)
            }
            """)
        try Support.expectCompiles(migrated() + [client], swiftVersion: swiftVersion)
    }
}
