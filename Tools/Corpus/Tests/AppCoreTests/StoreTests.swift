// Where each callback of the store runs, checked with DispatchQueue.getSpecific: a context that
// names a queue (spelled, in a property, custom, in a ternary) runs the callback on that queue;
// `.main` (the custom `.ui`) runs it on the main queue.

import AppCore
import Foundation
import Tomorrowland
import XCTest

// XCTest runs these on the main thread, the main actor's (a @MainActor XCTestCase with
// synchronous tests does not load on Linux).
final class StoreTests: XCTestCase {
    func testCallbacksRunWhereTheirContextSays() {
        let store = Store()
        let model = MainActor.assumeIsolated { StoreViewModel(store: store) }
        let saved = expectation(description: "saved")
        store.save(7, for: "volume").always(on: .main) { _ in saved.fulfill() }
        wait(for: [saved], timeout: 10)
        let shown = expectation(description: "shown")
        MainActor.assumeIsolated {
            _ = model.show("volume", quick: false).always(on: .main) { _ in shown.fulfill() }
        }
        wait(for: [shown], timeout: 10)
        XCTAssertEqual(MainActor.assumeIsolated { model.status }, "7")
        XCTAssertEqual(store.placements["save"], "storage")
        XCTAssertEqual(store.placements["read"], "storage")
        XCTAssertEqual(store.placements["unwrap"], "other", "`quick ? .immediate : .work(.utility)`: a utility queue")
        XCTAssertEqual(store.placements["format"], "storage", "`formatContext`, a property holding .storage")
        XCTAssertEqual(store.placements["show"], "main", "`.ui`, the custom context for .main")
        XCTAssertEqual(store.placements["afterShow"], "storage", "`.nowOr(.storage)` on a pending promise")
    }

    func testDelayedPromiseAndOperationRunOnTheirContext() {
        let store = Store()
        let counted = expectation(description: "counted")
        _ = store.lazyCount(cached: nil).promise.then(on: .main) { count in
            XCTAssertEqual(count, 0)
            counted.fulfill()
        }
        let operation = store.clear(now: false)
        let cleared = expectation(description: "cleared")
        _ = operation.promise.then(on: .main) { _ in cleared.fulfill() }
        operation.start()
        wait(for: [counted, cleared], timeout: 10)
        XCTAssertEqual(store.placements["lazyCount"], "storage", "`cached != nil ? .immediate : .storage`")
        XCTAssertEqual(store.placements["clear"], "storage", "`now ? .immediate : .storage`")
    }

    func testImmediateBranchRunsInPlace() {
        let store = Store()
        let count = store.lazyCount(cached: 3).promise
        XCTAssertEqual(count.result?.value, 3, "`.immediate` runs the handler on first access, synchronously")
        XCTAssertEqual(store.placements["lazyCount"], "main")
    }
}
