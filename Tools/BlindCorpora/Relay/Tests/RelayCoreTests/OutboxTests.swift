import Foundation
import XCTest
import Tomorrowland
@testable import RelayCore

final class OutboxTests: XCTestCase {
    func testAnsweredSendStillRunsItsCallbacksAfterTheCall() {
        let world = World()
        let promise = world.outbox.send("a")
        // The server already answered, but the callbacks are queued, not run in the call.
        XCTAssertEqual(world.outbox.pending, 1)
        XCTAssertNil(promise.result)
        XCTAssertEqual(world.journal.entries.first, "send a")
        XCTAssertFalse(world.journal.entries.contains("settled a @main"))

        XCTAssertEqual(awaitValue(promise), Receipt(messageID: 101, text: "a"))
        XCTAssertEqual(world.outbox.pending, 0)
        XCTAssertEqual(world.outbox.sent, [Receipt(messageID: 101, text: "a")])
        XCTAssertBefore(world.journal.entries, "sent a @outbox", "settled a @main")
    }

    func testSendPairNotesBothSendsBeforeAnyMainCallback() {
        let world = World()
        let pair = world.outbox.sendPair("a", "b")
        let mainSide = world.journal.entries.filter { !$0.hasSuffix("@outbox") }
        XCTAssertEqual(mainSide, ["send a", "send b", "pair queued, pending 2"])

        XCTAssertEqual(awaitValue(pair), [Receipt(messageID: 101, text: "a"), Receipt(messageID: 102, text: "b")])
        XCTAssertEqual(world.outbox.pending, 0)
        XCTAssertBefore(world.journal.entries, "pair queued, pending 2", "settled a @main")
        XCTAssertBefore(world.journal.entries, "settled a @main", "settled b @main")
    }

    func testSendPairOnASlowNetworkKeepsTheOrder() {
        let world = World(mode: .delayed(0.1))
        let pair = world.outbox.sendPair("a", "b")
        XCTAssertEqual(world.journal.entries, ["send a", "send b", "pair queued, pending 2"])
        XCTAssertEqual(awaitValue(pair)?.map { $0.text }, ["a", "b"])
        XCTAssertBefore(world.journal.entries, "sent a @outbox", "sent b @outbox")
        XCTAssertBefore(world.journal.entries, "settled a @main", "settled b @main")
        XCTAssertEqual(world.outbox.sent.count, 2)
    }

    func testOfflineSendRejectsWithTheTypedError() {
        let world = World()
        world.transport.isOnline = false
        XCTAssertEqual(awaitError(world.outbox.send("a")), .offline)
        XCTAssertEqual(world.outbox.failures, 1)
        XCTAssertEqual(world.outbox.pending, 0)
        XCTAssertTrue(world.journal.entries.contains("failed a offline @other"), "\(world.journal.entries)")
        XCTAssertBefore(world.journal.entries, "failed a offline @other", "settled a @main")
    }

    func testEmptyMessageIsRejectedWithoutARequest() {
        let world = World()
        let promise = world.outbox.send("")
        XCTAssertNil(promise.result)  // the rejection still goes through the queued callbacks
        XCTAssertEqual(awaitError(promise), .rejected("empty"))
        XCTAssertEqual(world.transport.requests, 0)
        XCTAssertEqual(world.outbox.failures, 1)
    }

    func testSendOrKeepRecoversAfterTheSendSettled() {
        let world = World()
        world.transport.isOnline = false
        XCTAssertEqual(awaitValue(world.outbox.sendOrKeep("a")), Receipt(messageID: -1, text: "a"))
        XCTAssertBefore(world.journal.entries, "settled a @main", "kept a after offline")
        XCTAssertEqual(world.outbox.failures, 1)
    }

    func testSendCheckedMapsTheError() {
        let world = World()
        world.transport.isOnline = false
        let promise = world.outbox.sendChecked("a")
        XCTAssertEqual(Array(world.journal.entries.prefix(2)), ["check a", "send a"])
        XCTAssertEqual(awaitError(promise), .rejected("offline: a"))
    }

    func testCancelRightAfterSendReachesTheRequest() {
        let world = World(mode: .delayed(2))
        let promise = world.outbox.send("a")
        promise.requestCancel()
        let result = awaitResult(promise)
        XCTAssertEqual(result?.isCancelled, true)
        XCTAssertEqual(world.transport.cancelledRequests, 1)
        XCTAssertTrue(world.journal.entries.contains("transport cancelled send a"))
        XCTAssertTrue(world.journal.entries.contains("send a cancelled"))
        XCTAssertEqual(world.outbox.pending, 0)
        XCTAssertEqual(world.outbox.failures, 0)
        XCTAssertFalse(world.journal.entries.contains("sent a @outbox"))
    }

    func testCancelInFlightThroughTheCancellable() {
        let world = World(mode: .delayed(2))
        let promise = world.outbox.send("a")
        world.outbox.cancelInFlight()
        XCTAssertEqual(awaitResult(promise)?.isCancelled, true)
        XCTAssertEqual(world.transport.cancelledRequests, 1)
        XCTAssertBefore(world.journal.entries, "cancel in flight", "transport cancelled send a")
    }
}
