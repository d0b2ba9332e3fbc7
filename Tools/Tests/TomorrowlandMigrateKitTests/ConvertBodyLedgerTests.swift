import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on what Ledger's last run left for the tool's own limits (issue 37, issue 39):
/// each shape is converted and compiles in Swift 5 and 6 mode, or is left with the language's reason.
@Suite("convert-body: Ledger's last tool limits")
struct ConvertBodyLedgerTests {
    @Test("a capture list that binds reads (`[store = self.store, clock = self.clock]`): `let`s where the chain was built",
          arguments: [5, 6])
    func boundCaptures(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            final class Book: Sendable {
                func post(_ amount: Int, at date: Date) -> Promise<Int, Error> { Promise(fulfilled: amount) }
            }

            final class Rail: @unchecked Sendable {
                let store = Book()
                let clock: @Sendable () -> Date = { Date() }

                func send(_ amount: Int) -> Promise<String, Error> { Promise(fulfilled: "ref-\\(amount)") }

                func submit(_ amount: Int) -> Promise<String, Error> {
                    let sent = send(amount)
                    return sent
                        .flatMap(on: .utility) { [store = self.store, clock = self.clock] reference in
                            store.post(amount, at: clock()).map(on: .immediate) { _ in reference }
                        }
                }
            }
            """, path: "Rail.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        // Read during the call, before the first await, as the capture was when 1.x registered the callback.
        let store = try #require(text.range(of: "let store = self.store"), "\(text)")
        let clock = try #require(text.range(of: "let clock = self.clock"), "\(text)")
        let awaited = try #require(text.range(of: "let reference = try await (consume sent).value"), "\(text)")
        #expect(store.upperBound < awaited.lowerBound && clock.upperBound < awaited.lowerBound, "\(text)")
        #expect(!text.contains("[store = self.store"), "\(text)")
    }

    @Test("a bound capture whose name the function uses outside its closure is left, with the reason")
    func boundCaptureClash() throws {
        let (result, notes, directory) = try ConvertBodyTests.proved("""
            import Foundation
            import Tomorrowland

            final class Rail: @unchecked Sendable {
                var limit = 3

                func send(_ amount: Int) -> Promise<Int, Error> { Promise(fulfilled: amount) }

                func submit(_ amount: Int) -> Promise<Int, Error> {
                    let limit = 10
                    return send(amount + limit).map(on: .utility) { [limit = self.limit] value in value + limit }
                }
            }
            """, path: "Rail.swift", swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.changes.isEmpty)
        #expect(notes.contains { $0.hasPrefix("submit(_:): left as a chain: a capture `[limit = self.limit]` whose name") }, "\(notes)")
    }
}
