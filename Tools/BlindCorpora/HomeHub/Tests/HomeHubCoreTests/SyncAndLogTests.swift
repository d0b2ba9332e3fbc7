import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

final class CloudSyncTests: XCTestCase {
    private var transport: FakeTransport!
    private var client: CloudSyncClient!
    private let change = ChangeRecord(sequence: 5, entity: .room, entityID: "living")

    override func setUp() {
        super.setUp()
        transport = FakeTransport()
        client = CloudSyncClient(transport: transport, auth: FakeAuth(), cursor: 2)
        client.retryDelay = 0.01
        transport.reply("/sync/since/2", [ChangeRecord(sequence: 3, entity: .device, entityID: "lamp-1"),
                                          ChangeRecord(sequence: 4, entity: .scene, entityID: "movie")])
        transport.reply("/sync/since/4", [ChangeRecord]())
        transport.reply("/sync/changes", SyncReceipt(acceptedThrough: 5))
    }

    func testSignIn() {
        XCTAssertEqual(result(of: client.signIn(email: "a@b.c", password: "hunter2"))?.value?.accessToken, "tok-a@b.c")
        XCTAssertEqual(result(of: client.signIn(email: "a@b.c", password: "nope"))?.error as? HubError, .unauthorized)
    }

    func testSignInAndRememberKeepsTheSession() {
        XCTAssertNil(client.session)
        XCTAssertEqual(result(of: client.signInAndRemember(email: "a@b.c", password: "hunter2"))?.value?.accountID, "a@b.c")
        XCTAssertEqual(client.session?.accountID, "a@b.c")
        XCTAssertEqual(result(of: client.signInAndRemember(email: "a@b.c", password: "x"))?.error, .unauthorized)
        XCTAssertNil(client.session)
    }

    func testPullAdvancesTheCursor() {
        XCTAssertEqual(result(of: client.pull())?.value?.count, 2)
        XCTAssertEqual(client.cursor, 4)
        XCTAssertEqual(result(of: client.pull())?.value, [])
        XCTAssertEqual(transport.paths, ["/sync/since/2", "/sync/since/4"])
    }

    func testPushSendsTheOutboxAndEmptiesIt() {
        XCTAssertEqual(result(of: client.push())?.value, SyncReceipt(acceptedThrough: 2))
        XCTAssertEqual(transport.paths, [])
        client.enqueue(change)
        XCTAssertEqual(result(of: client.push())?.value, SyncReceipt(acceptedThrough: 5))
        XCTAssertEqual(client.pendingChanges, [])
        XCTAssertEqual(transport.paths, ["/sync/changes"])
    }

    func testUploadThrowsNothingForEncodableRecords() throws {
        let receipt = result(of: try client.upload([change]))
        XCTAssertEqual(receipt?.value?.acceptedThrough, 5)
    }

    func testSyncPullsThenPushes() {
        client.enqueue(change)
        let summary = result(of: client.sync())?.value
        XCTAssertEqual(summary, SyncSummary(pulled: 2, pushed: 1, cursor: 5, usedRetry: false))
        XCTAssertEqual(transport.paths, ["/sync/since/2", "/sync/changes"])
    }

    func testSyncRetriesAnOfflinePullOnce() {
        transport.failNext("/sync/since/2", with: .offline)
        let summary = result(of: client.sync())?.value
        XCTAssertEqual(summary?.usedRetry, true)
        XCTAssertEqual(summary?.pulled, 2)
        XCTAssertEqual(transport.paths, ["/sync/since/2", "/sync/since/2"])
    }

    func testSyncFailsWithPushErrorsAsHubErrors() {
        client.enqueue(change)
        transport.fail("/sync/changes", with: .unauthorized)
        XCTAssertEqual(result(of: client.sync())?.error, .unauthorized)
        XCTAssertEqual(client.pendingChanges, [change])
    }

    func testPeriodicSyncStopsWhenTheTokenIsInvalidated() {
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let periodic = client.syncPeriodically(every: 0.02, token: token)
        let twoPulls = transport.expectRequest("/sync/since/", count: 2, in: self)
        wait(for: [twoPulls], timeout: Self.patience)
        token.invalidate()
        let count = result(of: periodic)?.value
        XCTAssertNotNil(count)
        XCTAssertGreaterThanOrEqual(count ?? 0, 1)
    }
}

final class EventLogTests: XCTestCase {
    func testRecordThenEntriesNewestFirst() {
        let log = EventLog(capacity: 3)
        for index in 1...4 {
            XCTAssertEqual(result(of: log.record(HubEvent(kind: .stateChanged, message: "\(index)")))?.value, min(index, 3))
        }
        XCTAssertEqual(result(of: log.entries())?.value?.map(\.message), ["4", "3", "2"])
        XCTAssertEqual(result(of: log.entries(of: .failure))?.value, [])
    }

    func testEntriesAreReadOnTheLogQueue() {
        let log = EventLog()
        let tag = HubLock<HubQueueTag?>(nil)
        let read = expectation(description: "read")
        // Hold the log queue until the callback is registered: `.immediate` then runs it where
        // the promise resolves, not here.
        let gate = DispatchSemaphore(value: 0)
        HubQueues.eventLog.async { gate.wait() }
        _ = log.entries().then(on: .immediate) { _ in
            tag.withLock { $0 = HubQueues.current }
            read.fulfill()
        }
        gate.signal()
        wait(for: [read], timeout: Self.patience)
        XCTAssertEqual(tag.snapshot, .eventLog)
    }

    func testExportIsOldestFirstJSON() throws {
        let log = EventLog()
        log.append(HubEvent(kind: .devicePaired, message: "first"))
        log.append(HubEvent(kind: .failure, message: "second"))
        let data = try XCTUnwrap(result(of: log.export())?.value)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        XCTAssertEqual(try decoder.decode([HubEvent].self, from: data).map(\.message), ["first", "second"])
        XCTAssertEqual(result(of: log.clear())?.value, 2)
        XCTAssertEqual(result(of: log.entries())?.value, [])
    }

    func testAReleasedLogCancelsItsRecord() {
        var log: EventLog? = EventLog()
        let recorded = HubQueues.eventLog.sync { () -> Guaranteed<Int> in
            let promise = log!.record(HubEvent(kind: .failure, message: "late"))
            log = nil
            return promise
        }
        XCTAssertEqual(result(of: recorded)?.isCancelled, true)
    }
}

final class PresenceTrackerTests: XCTestCase {
    func testRefreshRemembersWhoIsHome() async throws {
        let home = SimulatedHome.sample()
        home.setPresent(["ana", "ben"])
        let tracker = PresenceTracker(transport: LoopbackTransport(home: home))
        let refreshed = expectation(description: "refreshed")
        let people = HubLock<Set<String>>([])
        _ = await tracker.refresh().then(on: .utility) { names in
            people.withLock { $0 = names }
            refreshed.fulfill()
        }
        await fulfillment(of: [refreshed], timeout: Self.patience)
        XCTAssertEqual(people.snapshot, ["ana", "ben"])
        // The actor's own callback ran before the promise the caller got resolved.
        let isHome = await tracker.isHome("ana")
        XCTAssertTrue(isHome)
        let lastRefresh = await tracker.lastRefresh
        XCTAssertNotNil(lastRefresh)
    }

    func testAnybodyHomeUsesAFreshAnswer() async {
        let home = SimulatedHome.sample()
        let tracker = PresenceTracker(transport: LoopbackTransport(home: home))
        let answered = expectation(description: "answered")
        let answer = HubLock<Bool?>(nil)
        _ = await tracker.anybodyHome().then(on: .utility) { value in
            answer.withLock { $0 = value }
            answered.fulfill()
        }
        await fulfillment(of: [answered], timeout: Self.patience)
        XCTAssertEqual(answer.snapshot, false)
        let requests = home.requests.count
        _ = await tracker.anybodyHome(maxAge: 60)
        XCTAssertEqual(home.requests.count, requests, "a fresh answer is reused")
    }
}
