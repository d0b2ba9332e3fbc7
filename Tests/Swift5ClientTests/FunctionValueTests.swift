// 1.x code often passes existing (non-@Sendable) function values as callbacks: completion
// handlers, method references, initializers. In Swift 5 mode that must still compile
// (warning: "converting non-Sendable function value to '@Sendable ...' may introduce data
// races" / "passing non-Sendable parameter ... to function expecting a '@Sendable' closure").

import Foundation
import Tomorrowland
import XCTest

class FeedController {
    var shownItems: [[String]] = []
    var errors: [String] = []
    var completions = 0

    func show(_ items: [String]) { shownItems.append(items) }
    func handleError(_ error: String) { errors.append(error) }

    /// A completion-handler API implemented on top of a promise, 1.x style.
    func loadFeed(_ feed: Promise<[String], String>, completion: @escaping ([String]) -> Void) {
        feed.then(on: .immediate, completion)
            .then(on: .immediate, show)
            .catch(on: .immediate, handleError)
            .always(on: .immediate) { _ in self.completions += 1 }
    }
}

final class FunctionValueTests: XCTestCase {
    func testCompletionHandlersAndMethodReferencesAsCallbacks() {
        let controller = FeedController()
        var completed: [[String]] = []
        controller.loadFeed(Promise(fulfilled: ["a", "b"]), completion: { completed.append($0) })
        controller.loadFeed(Promise(rejected: "offline"), completion: { completed.append($0) })
        XCTAssertEqual(completed, [["a", "b"]])
        XCTAssertEqual(controller.shownItems, [["a", "b"]])
        XCTAssertEqual(controller.errors, ["offline"])
        XCTAssertEqual(controller.completions, 2)
    }

    func testInitializersAndStoredClosuresAsTransforms() {
        let describe: (Int) -> String = { "#\($0)" }
        let promise = Promise<Int, String>(fulfilled: 5)
        XCTAssertEqual(promise.map(on: .immediate, String.init(describing:)).result?.value, "5")
        XCTAssertEqual(promise.map(on: .immediate, describe).result?.value, "#5")
        let logResult: (PromiseResult<Int, String>) -> Void = { XCTAssertEqual($0, .value(5)) }
        promise.always(on: .immediate, logResult)
        promise.tap(on: .immediate, logResult)
    }

    func testHandleCallbackStoredAsPlainClosureType() {
        let (promise, resolver) = StdPromise<Data>.makeWithResolver()
        // A 1.x client storing the callback in a non-Sendable closure type.
        let callback: (Data?, Error?) -> Void = resolver.handleCallback()
        callback(pngBytes, nil)
        XCTAssertEqual(promise.result?.value, pngBytes)
    }

    /// A `@MainActor` class (every UIKit/AppKit view controller) touches its state from
    /// `.main` callbacks directly: the callbacks are isolated to the main actor.
    func testMainActorClassUsesItsStateInCallbacks() {
        @MainActor class FeedViewController {
            var title = ""
            func load(_ feed: Promise<[String], String>, done: @escaping () -> Void) {
                feed.then(on: .main) { [weak self] items in
                    self?.title = items.joined(separator: ",")
                }.always(on: .main) { _ in done() }
            }
        }
        let loaded = expectation(description: "loaded")
        let controller = MainActor.assumeIsolated { FeedViewController() }
        MainActor.assumeIsolated {
            controller.load(Promise(on: .utility) { $0.fulfill(with: ["x", "y"]) }, done: { loaded.fulfill() })
        }
        wait(for: [loaded], timeout: 10)
        MainActor.assumeIsolated { XCTAssertEqual(controller.title, "x,y") }
    }
}
