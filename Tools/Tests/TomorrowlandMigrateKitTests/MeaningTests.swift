import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// Twins never change what existing code computes (issue 20, item 1 and item 8).
@Suite("no silent change of meaning")
struct MeaningTests {
    static let setting = (path: "Setting.swift", text: """
        import Tomorrowland

        public struct Setting: Sendable { public var key: String; public var value: Int }

        public func fetchSetting(_ key: String) -> StdPromise<Setting> {
            Promise(fulfilled: Setting(key: key, value: 7))
        }

        public func describeSetting() async throws -> String {
            "\\(try await fetchSetting("theme").value)"
        }

        public func settingResult() -> String {
            "\\(String(describing: fetchSetting("theme").result))"
        }

        public func settingInTask() -> Task<String, Error> {
            Task { "\\(try await fetchSetting("a").resolvedResult)" }
        }

        public func awaitedPromise() async throws -> StdPromise<Setting> {
            let promise = try await fetchSetting("b")
            return promise
        }
        """)

    /// Reads `Setting` where a twin would make it an `Int`: fails to compile if a pin is missing.
    static let check = (path: "Check.swift", text: """
        import TomorrowlandAsync

        func stillSettings() async throws {
            let setting: Setting = try await (fetchSetting("x") as StdPromise<Setting>).value
            let viaTwin: Setting = try await fetchSetting("x")
            let promise: StdPromise<Setting> = try await awaitedPromise()
            _ = (setting, viaTwin, promise)
        }
        """)

    @Test("`f(…).value`, `.result`, `.resolvedResult` and `try await f()` are pinned to the promise")
    func memberReadsArePinned() throws {
        let result = AddAsyncTwins.run(.inMemory([Self.setting]))
        let text = Support.text(of: "Setting.swift", in: Support.applying(result, to: [Self.setting]))
        #expect(text.contains(#""\(try await (fetchSetting("theme") as StdPromise<Setting>).value)""#))
        #expect(text.contains(#"Task { "\(try await (fetchSetting("a") as StdPromise<Setting>).resolvedResult)" }"#))
        #expect(text.contains(#"let promise = try await fetchSetting("b") as StdPromise<Setting>"#))
        // Synchronous code cannot call the twin: left alone.
        #expect(text.contains(#"String(describing: fetchSetting("theme").result)"#))
        #expect(text.contains("func fetchSetting(_ key: String) async throws -> Setting {"))
        #expect(AddAsyncTwins.run(.inMemory([(path: "Setting.swift", text: text)])).changes.isEmpty, "a second run changes nothing")
    }

    @Test("the pinned result compiles and still reads the Setting (Swift 5 and 6)", arguments: [5, 6])
    func pinnedResultCompiles(swiftVersion: Int) throws {
        let result = AddAsyncTwins.run(.inMemory([Self.setting]))
        try Support.expectCompiles(Support.applying(result, to: [Self.setting]) + [Self.check], swiftVersion: swiftVersion)
    }

    @Test("without the pin the twin is read instead, and it still compiles: what the pin prevents")
    func withoutPinMeaningChanges() throws {
        // The interpolation accepts an Int as well as a Setting; `probe` compiles only if
        // `fetchSetting("theme").value` under `await` is the twin's Int.
        let original = Self.setting.text.components(separatedBy: "public func settingResult")[0]
        let twin = """

            func fetchSetting(_ key: String) async throws -> Setting { try await (fetchSetting(key) as StdPromise<Setting>).value }
            func probe() async throws -> Int { try await fetchSetting("theme").value }
            """
        let unpinned = (path: "Setting.swift", text: original.replacingOccurrences(of: "import Tomorrowland\n", with: "import TomorrowlandAsync\n") + twin)
        let outcome = try Support.compile([unpinned], swiftVersion: 6)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }
}
