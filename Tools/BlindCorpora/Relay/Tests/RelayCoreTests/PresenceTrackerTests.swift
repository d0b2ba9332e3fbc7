import Foundation
import XCTest
import Tomorrowland
@testable import RelayCore

final class PresenceTrackerTests: XCTestCase {
    private func settle<T, E>(_ promise: Promise<T, E>) async -> PromiseResult<T, E>? {
        let resolved = expectation(description: "promise resolved")
        let seen = Seen<PromiseResult<T, E>>()
        promise.always(on: .immediate) { result in
            seen.set(result)
            resolved.fulfill()
        }
        await fulfillment(of: [resolved], timeout: 10)
        return seen.value
    }

    func testSyncPairNotesBothBeforeAnyCallback() async {
        let world = World()
        let tracker = PresenceTracker(transport: world.transport, journal: world.journal)
        let pair = await tracker.syncPair("ann", "bob")
        let result = await settle(pair)
        XCTAssertEqual(result?.value, [.online, .away])
        let entries = world.journal.entries
        XCTAssertEqual(Array(entries.prefix(3)), ["sync ann", "sync bob", "pair in flight 2"])
        XCTAssertBefore(entries, "synced ann", "synced bob")
        let inFlight = await tracker.inFlight
        XCTAssertEqual(inFlight, 0)
        let bob = await tracker.status(of: "bob")
        XCTAssertEqual(bob, .away)
    }

    func testOfflineSyncCountsAFailure() async {
        let world = World(mode: .delayed(0.05))
        world.transport.isOnline = false
        let tracker = PresenceTracker(transport: world.transport, journal: world.journal)
        let result = await settle(await tracker.sync("ann"))
        XCTAssertEqual(result?.error as? RelayError, .offline)
        let failed = await tracker.failedSyncs
        let inFlight = await tracker.inFlight
        XCTAssertEqual(failed, 1)
        XCTAssertEqual(inFlight, 0)
        XCTAssertEqual(world.journal.entries, ["sync ann", "sync ann failed"])
    }

    func testIsOnlineCannotFail() async {
        let world = World(mode: .delayed(0.05))
        let tracker = PresenceTracker(transport: world.transport, journal: world.journal)
        let bob = await settle(await tracker.isOnline("bob"))
        let ann = await settle(await tracker.isOnline("ann"))
        XCTAssertEqual(bob?.value, false)
        XCTAssertEqual(ann?.value, true)
        world.transport.isOnline = false
        let offline = await settle(await tracker.isOnline("ann"))
        XCTAssertEqual(offline?.value, false)
        XCTAssertEqual(Array(world.journal.entries.prefix(2)), ["ask bob", "sync bob"])
    }

    func testCancelRightAfterASyncReachesTheRequest() async {
        let world = World(mode: .delayed(2))
        let tracker = PresenceTracker(transport: world.transport, journal: world.journal)
        let sync = await tracker.sync("ann")
        sync.requestCancel()
        let result = await settle(sync)
        XCTAssertEqual(result?.isCancelled, true)
        XCTAssertEqual(world.transport.cancelledRequests, 1)
        let inFlight = await tracker.inFlight
        XCTAssertEqual(inFlight, 0)
        XCTAssertFalse(world.journal.entries.contains("sync ann failed"))
    }
}
