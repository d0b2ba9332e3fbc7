import Foundation
import GalleryCore
import Tomorrowland
import XCTest

final class EditHistoryTests: XCTestCase {
    func testApplyGivesTheNewVersionAndUpdatesThePreview() throws {
        let history = EditHistory(assetID: "a")
        var versions: [Int] = []
        history.onChange = { versions.append($0) }

        XCTAssertEqual(try value(of: history.apply(.rotate(degrees: 90))), 1)
        XCTAssertEqual(try value(of: history.apply(.filter("mono"))), 2)

        XCTAssertEqual(history.renderedVersion, 2)
        XCTAssertEqual(versions, [1, 2])
    }

    func testAnInvalidCropIsRejectedDuringTheCall() {
        let history = EditHistory(assetID: "a")

        let promise = history.apply(.crop(width: 0, height: 10))

        XCTAssertEqual(promise.result, .error(.invalidEdit("crop to 0x10")))
        XCTAssertTrue(history.applied.isEmpty)
    }

    func testAnOddRotationIsRejected() {
        let history = EditHistory(assetID: "a")

        XCTAssertEqual(error(of: history.apply(.rotate(degrees: 45))), .invalidEdit("rotate by 45"))
    }

    func testUndoAndRedo() throws {
        let history = EditHistory(assetID: "a")
        _ = try value(of: history.apply(.rotate(degrees: 90)))
        _ = try value(of: history.apply(.rotate(degrees: 180)))

        XCTAssertEqual(result(of: history.undo())?.value, 1)
        XCTAssertEqual(history.undone, [.rotate(degrees: 180)])
        XCTAssertEqual(try value(of: history.redo()), 2)
        XCTAssertEqual(history.applied, [.rotate(degrees: 90), .rotate(degrees: 180)])
        XCTAssertEqual(error(of: history.redo()), .invalidEdit("nothing to redo"))
    }

    func testAMainCallbackRunsAfterTheCallersNextStatement() {
        let history = EditHistory(assetID: "a")
        let order = OrderLog()
        let done = expectation(description: "callback ran")

        history.undo().then(on: .main) { _ in
            order.append("callback")
            done.fulfill()
        }
        order.append("after the call")
        wait(for: [done], timeout: 10)

        XCTAssertEqual(order.all, ["after the call", "callback"])
    }

    func testAnImmediateCallbackRunsDuringTheCall() {
        let history = EditHistory(assetID: "a")
        let order = OrderLog()

        history.undo().then(on: .immediate) { version in
            order.append("callback \(version)")
        }
        order.append("after the call")

        XCTAssertEqual(order.all, ["callback 0", "after the call"])
    }

    func testSidecarIsWrittenOnTheRenderContext() throws {
        let history = EditHistory(assetID: "a", renderContext: .database)
        _ = try value(of: history.apply(.filter("warm")))
        let queue = Captured<String>()
        let tapped = expectation(description: "tap ran")

        // Called on the database queue, so its callback cannot run before the tap is registered.
        let sidecar = GalleryQueues.database.sync {
            history.exportSidecar().tap(on: .immediate) { _ in
                queue.value = GalleryQueues.current
                tapped.fulfill()
            }
        }

        XCTAssertEqual(try value(of: sidecar), Data("filter(\"warm\")".utf8))
        wait(for: [tapped], timeout: 10)
        XCTAssertEqual(queue.value, "database")
    }

    func testExportWithoutEditsFails() {
        let history = EditHistory(assetID: "blank")

        XCTAssertEqual(error(of: history.exportSidecar()), .invalidEdit("no edits to export for blank"))
    }

    func testANewerPreviewSupersedesTheOneRendering() throws {
        let history = EditHistory(assetID: "a")
        var versions: [Int] = []
        history.onChange = { versions.append($0) }

        let first = history.apply(.filter("a"))
        let second = history.apply(.filter("b"))

        XCTAssertEqual(try value(of: second), 2)
        XCTAssertEqual(try value(of: first), 1)
        XCTAssertEqual(versions, [2])
    }
}
