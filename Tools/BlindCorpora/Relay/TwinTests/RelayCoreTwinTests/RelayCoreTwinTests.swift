import Foundation
import XCTest
import TomorrowlandAsync
@testable import RelayCore

/// Calls the async twins that `tomorrowland-migrate add-async-twins` adds next to each
/// promise-returning function (same name, `async`, typed `throws`), and checks that they keep
/// the promise version's values, errors, order and cancellation. Each runs on the main actor,
/// as the app's callers do (an `@MainActor` test class cannot be run by XCTest on Linux).
final class RelayCoreTwinTests: XCTestCase {
    private func onMain(_ body: @escaping @MainActor () async throws -> Void) async throws {
        try await body()
    }

    func testSendTwinReturnsTheReceiptAfterTheCallbacksRan() async throws {
        try await onMain {
            let world = World()
            let receipt = try await world.outbox.send("a")
            XCTAssertEqual(receipt, Receipt(messageID: 101, text: "a"))
            XCTAssertEqual(world.outbox.pending, 0)
            XCTAssertEqual(world.journal.entries.first, "send a")
            XCTAssertBefore(world.journal.entries, "sent a @outbox", "settled a @main")
        }
    }

    func testSendPairTwinStillNotesBothSendsFirst() async throws {
        try await onMain {
            let world = World()
            let receipts = try await world.outbox.sendPair("a", "b")
            XCTAssertEqual(receipts.map { $0.text }, ["a", "b"])
            let mainSide = world.journal.entries.filter { !$0.hasSuffix("@outbox") }
            XCTAssertEqual(Array(mainSide.prefix(3)), ["send a", "send b", "pair queued, pending 2"])
            XCTAssertEqual(world.outbox.pending, 0)
        }
    }

    func testOfflineSendTwinThrowsTheTypedError() async throws {
        try await onMain {
            let world = World()
            world.transport.isOnline = false
            do {
                _ = try await world.outbox.send("a")
                XCTFail("expected offline")
            } catch {
                XCTAssertEqual(error as? RelayError, .offline)
            }
            XCTAssertEqual(world.outbox.failures, 1)
        }
    }

    func testSendOrKeepTwinKeepsADraft() async throws {
        try await onMain {
            let world = World()
            world.transport.isOnline = false
            let receipt = try await world.outbox.sendOrKeep("a")
            XCTAssertEqual(receipt, Receipt(messageID: -1, text: "a"))
            XCTAssertBefore(world.journal.entries, "settled a @main", "kept a after offline")
        }
    }

    func testDisplayNameTwinServesTheCache() async throws {
        try await onMain {
            let world = World()
            _ = try await world.contacts.contact("ann")
            let name = try await world.contacts.displayName("ann")
            XCTAssertEqual(name, "ANN LEE")
            XCTAssertEqual(world.contacts.hits, 1)
            XCTAssertEqual(world.transport.requests, 1)
            XCTAssertEqual(Array(world.journal.entries.suffix(2)), ["contact ann hit", "name ann"])
        }
    }

    func testRefreshAndCountTwinIssuesBothRequestsFirst() async throws {
        try await onMain {
            let world = World(mode: .delayed(0.2))
            let count = try await world.inbox.refreshAndCount()
            XCTAssertEqual(count, 2)
            XCTAssertEqual(Array(world.journal.entries.prefix(4)), [
                "refresh 1 start", "count requested", "refresh 2 start", "refresh+count issued, refreshing true",
            ])
        }
    }

    func testViewModelLoadTwin() async throws {
        try await onMain {
            let world = World()
            let model = InboxViewModel(inbox: world.inbox, contacts: world.contacts, journal: world.journal)
            let rows = try await model.load()
            XCTAssertEqual(rows, ["ann: hi", "bob: lunch?"])
            XCTAssertEqual(model.rows, rows)
            XCTAssertFalse(model.isLoading)
            XCTAssertBefore(world.journal.entries, "vm rows 2", "vm idle")
        }
    }

    func testPresenceSyncPairTwin() async throws {
        try await onMain {
            let world = World()
            let tracker = PresenceTracker(transport: world.transport, journal: world.journal)
            let presences = try await tracker.syncPair("ann", "bob")
            XCTAssertEqual(presences, [.online, .away])
            XCTAssertEqual(Array(world.journal.entries.prefix(3)), ["sync ann", "sync bob", "pair in flight 2"])
            let inFlight = await tracker.inFlight
            XCTAssertEqual(inFlight, 0)
        }
    }

    func testCancellingTheAwaitingTaskCancelsTheRequest() async throws {
        try await onMain {
            let world = World(mode: .delayed(2))
            let outbox = world.outbox
            let task = Task { try await outbox.send("a") }
            while world.transport.requests == 0 {
                await Task.yield()
            }
            task.cancel()
            do {
                _ = try await task.value
                XCTFail("expected a cancellation")
            } catch {
                XCTAssertTrue(error is CancellationError, "\(error)")
            }
            XCTAssertEqual(world.transport.cancelledRequests, 1)
            XCTAssertEqual(world.outbox.pending, 0)
        }
    }
}
