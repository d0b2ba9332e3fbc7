import Foundation
import XCTest
import Tomorrowland
@testable import RelayCore

final class ContactsCacheTests: XCTestCase {
    func testCacheHitAnswersDuringTheCall() {
        let world = World()
        XCTAssertEqual(awaitValue(world.contacts.contact("ann"))?.name, "Ann Lee")
        let name = world.contacts.displayName("ann")
        // Promise(fulfilled:) plus an .immediate map: resolved before the call returns.
        XCTAssertEqual(name.result?.value, "ANN LEE")
        XCTAssertEqual(Array(world.journal.entries.suffix(2)), ["contact ann hit", "name ann"])
        XCTAssertEqual(world.contacts.hits, 1)
        XCTAssertEqual(world.transport.requests, 1)
    }

    func testNowOrMainStoresDuringTheCallWhenTheAnswerIsThere() {
        let world = World()
        let promise = world.contacts.contact("bob")
        XCTAssertEqual(world.journal.entries, ["contact bob miss", "contact bob stored"])
        XCTAssertEqual(promise.result?.value, Contact(id: "bob", name: "Bob Stone"))
    }

    func testNowOrMainStoresLaterWhenTheNetworkIsSlow() {
        let world = World(mode: .delayed(0.05))
        let promise = world.contacts.contact("bob")
        XCTAssertEqual(world.journal.entries, ["contact bob miss"])
        XCTAssertNil(promise.result)
        XCTAssertEqual(awaitValue(promise)?.name, "Bob Stone")
        XCTAssertEqual(world.journal.entries.last, "contact bob stored")
        XCTAssertEqual(world.contacts.contact("bob").result?.value?.name, "Bob Stone")
        XCTAssertEqual(world.contacts.hits, 1)
    }

    func testWarmIssuesEveryLookupBeforeNotingIt() {
        let world = World(mode: .delayed(0.05))
        let warmed = world.contacts.warm(["ann", "bob"])
        XCTAssertEqual(world.journal.entries, ["warm 2", "contact ann miss", "contact bob miss", "warm issued, lookups 2"])
        XCTAssertEqual(awaitValue(warmed)?.map { $0.id }, ["ann", "bob"])
        XCTAssertEqual(world.transport.requests, 2)
    }

    func testUnknownContactIsNotFoundOrUnknown() {
        let world = World()
        XCTAssertEqual(awaitError(world.contacts.displayName("zed")), .notFound("zed"))
        XCTAssertEqual(awaitValue(world.contacts.displayNameOrUnknown("zed")), "Unknown")
        XCTAssertEqual(world.journal.entries.last, "unknown zed")
    }

    func testCancelRightAfterALookupReachesTheRequest() {
        let world = World(mode: .delayed(2))
        let promise = world.contacts.contact("ann")
        promise.requestCancel()
        XCTAssertEqual(awaitResult(promise)?.isCancelled, true)
        XCTAssertEqual(world.transport.cancelledRequests, 1)
        XCTAssertFalse(world.journal.entries.contains("contact ann stored"))
        world.transport.mode = .synchronous
        _ = world.contacts.contact("ann")
        XCTAssertEqual(world.journal.entries.last, "contact ann stored")  // it missed again
        XCTAssertEqual(world.contacts.hits, 0)
    }
}
