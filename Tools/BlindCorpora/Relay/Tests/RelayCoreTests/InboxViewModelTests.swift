import Foundation
import XCTest
import Tomorrowland
@testable import RelayCore

/// XCTest runs each test on the main thread; the bodies say so to the compiler (an
/// `@MainActor` test class cannot be run by XCTest on Linux).
final class InboxViewModelTests: XCTestCase {
    func testLoadIsLoadingUntilItsCallbacksRan() {
        MainActor.assumeIsolated {
            let world = World()
            let model = InboxViewModel(inbox: world.inbox, contacts: world.contacts, journal: world.journal)
            let rows = model.load()
            XCTAssertTrue(model.isLoading)
            XCTAssertEqual(model.rows, [])
            XCTAssertEqual(Array(world.journal.entries.prefix(2)), ["vm load 1", "refresh 1 start"])

            XCTAssertEqual(awaitValue(rows), ["ann: hi", "bob: lunch?"])
            XCTAssertFalse(model.isLoading)
            XCTAssertEqual(model.rows, ["ann: hi", "bob: lunch?"])
            XCTAssertBefore(world.journal.entries, "refresh 1 end", "vm rows 2")
            XCTAssertBefore(world.journal.entries, "vm rows 2", "vm idle")
        }
    }

    func testOpenConversationStartsBothBeforeAnyScreenUpdate() {
        MainActor.assumeIsolated {
            let world = World()
            let model = InboxViewModel(inbox: world.inbox, contacts: world.contacts, journal: world.journal)
            let opened = model.openConversation(with: "ann")
            let screenSide = world.journal.entries.filter { !$0.hasPrefix("refresh") }
            XCTAssertEqual(screenSide, [
                "vm load 1", "vm sender ann", "contact ann miss", "contact ann stored", "name ann",
                "vm open ann, loading true",
            ])
            XCTAssertEqual(model.title, "")
            XCTAssertEqual(awaitValue(opened), "ANN LEE")
            XCTAssertEqual(model.title, "ANN LEE")
            XCTAssertFalse(model.isLoading)
        }
    }

    func testLoadOfflineShowsTheError() {
        MainActor.assumeIsolated {
            let world = World()
            world.transport.isOnline = false
            let model = InboxViewModel(inbox: world.inbox, contacts: world.contacts, journal: world.journal)
            XCTAssertEqual(awaitError(model.load()), .offline)
            XCTAssertEqual(model.errorText, "offline")
            XCTAssertFalse(model.isLoading)
            XCTAssertBefore(world.journal.entries, "vm error offline", "vm idle")
        }
    }
}
