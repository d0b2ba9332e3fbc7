import Foundation
import XCTest
import Tomorrowland
@testable import RelayCore

final class InboxTests: XCTestCase {
    func testRefreshKeepsItsBookkeepingOnTheInboxQueue() {
        let world = World()
        let promise = world.inbox.refresh()
        XCTAssertEqual(world.journal.entries.first, "refresh 1 start")
        XCTAssertEqual(awaitValue(promise)?.count, 2)
        XCTAssertEqual(world.journal.entries, ["refresh 1 start", "refresh 1 got 2 @inbox", "refresh 1 end"])
        XCTAssertFalse(world.inbox.isRefreshing)
        XCTAssertEqual(world.inbox.messages.count, 2)
    }

    func testSecondRefreshFetchesOnlyWhatIsNew() {
        let world = World()
        _ = awaitValue(world.inbox.refresh())
        world.transport.mailbox.append(Message(id: 3, from: "ann", text: "still there?"))
        XCTAssertEqual(awaitValue(world.inbox.refresh()), [Message(id: 3, from: "ann", text: "still there?")])
        XCTAssertTrue(world.journal.entries.contains("refresh 2 got 1 @inbox"))
        XCTAssertEqual(world.inbox.messages.count, 3)
    }

    func testRefreshAndCountIssuesBothRequestsBeforeAnyCallback() {
        let world = World(mode: .delayed(0.2))
        let count = world.inbox.refreshAndCount()
        XCTAssertEqual(world.journal.entries, [
            "refresh 1 start", "count requested", "refresh 2 start", "refresh+count issued, refreshing true",
        ])
        XCTAssertEqual(awaitValue(count), 2)
        // Both requests went out before the first answer was recorded: both asked since 0.
        XCTAssertTrue(world.journal.entries.contains("refresh 1 got 2 @inbox"))
        XCTAssertTrue(world.journal.entries.contains("refresh 2 got 2 @inbox"))
        XCTAssertBefore(world.journal.entries, "refresh 1 got 2 @inbox", "refresh 1 end")
        XCTAssertBefore(world.journal.entries, "refresh 2 got 2 @inbox", "refresh 2 end")
        XCTAssertEqual(world.transport.requests, 2)
    }

    func testUnreadCountOfflineIsATypedError() {
        let world = World()
        world.transport.isOnline = false
        XCTAssertEqual(awaitError(world.inbox.unreadCount()), .offline)
        XCTAssertFalse(world.inbox.isRefreshing)
        XCTAssertEqual(world.journal.entries, ["count requested", "refresh 1 start", "refresh 1 end"])
    }

    func testLatestOfAnEmptyInboxIsNotFound() {
        let world = World()
        world.transport.mailbox = []
        XCTAssertEqual(awaitError(world.inbox.latest()), .notFound("latest"))
    }

    func testLatestIsTheNewestMessage() {
        let world = World(mode: .delayed(0.05))
        XCTAssertEqual(awaitValue(world.inbox.latest())?.id, 2)
    }
}
