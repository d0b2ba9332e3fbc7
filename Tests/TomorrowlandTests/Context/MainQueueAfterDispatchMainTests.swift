// Rule 9 and rule 10 under Swift Testing, which runs after `dispatchMain()`: main-queue
// blocks then run on a worker thread where `Thread.isMainThread` may be false, so "main"
// must be decided by the main queue.

import Dispatch
import Foundation
import TestSupport
import Testing
@testable import Tomorrowland

@Suite(".main after dispatchMain (Swift Testing)")
struct MainQueueAfterDispatchMainTests {
    @Test("rule 10: .main callbacks chain in the same turn, in order, never nested")
    func rule10_mainFIFOAfterDispatchMain() async throws {
        let log = Recorder<String>()
        let (first, firstResolver) = Promise<Int, String>.makeWithResolver()
        let (second, secondResolver) = Promise<Int, String>.makeWithResolver()
        _ = first.then(on: .main) { _ in
            log.append("A begin main=\(MainQueue.isCurrent)")
            DispatchQueue.main.async { log.append("next turn") }
            secondResolver.fulfill(with: 2)
            log.append("A end")
        }
        _ = second.then(on: .main) { _ in log.append("B main=\(MainQueue.isCurrent)") }
        _ = second.then(on: .main) { _ in log.append("C") }
        let done: Bool? = await waitFor { complete in
            _ = second.then(on: .main) { _ in DispatchQueue.main.async { DispatchQueue.main.async { complete(true) } } }
            firstResolver.fulfill(with: 1)
        }
        #expect(done == true)
        #expect(log.values == ["A begin main=true", "A end", "B main=true", "C", "next turn"])
    }

    @Test("rule 9: .auto is .main inside a main-queue block even off the main thread")
    func rule09_autoOnMainQueueAfterDispatchMain() async {
        let seen: (PromiseContext, Bool)? = await waitFor { complete in
            DispatchQueue.main.async { complete((PromiseContext.auto, MainQueue.isCurrent)) }
        }
        #expect(seen?.0 == .main)
        #expect(seen?.1 == true)
        let background: PromiseContext? = await waitFor { complete in
            DispatchQueue.global().async { complete(PromiseContext.auto) }
        }
        #expect(background == .default)
    }

    @Test("rule 9: a callback registered with .auto on the main queue runs on the main queue")
    func rule09_autoCallbackRunsOnMainQueue() async {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let ranOnMain: Bool? = await waitFor { complete in
            DispatchQueue.main.async {
                _ = promise.then { _ in complete(MainQueue.isCurrent) }
                DispatchQueue.global().async { resolver.fulfill(with: 1) }
            }
        }
        #expect(ranOnMain == true)
    }

    @Test("rule 18: an invoked .main callback is released before the next chained .main callback")
    func rule18_releasedBeforeNextMainCallback() async {
        let released = Counter()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        // The spy lives only in the callback: nothing in this async frame holds it.
        let child = Self.registerSpy(on: promise) { released.increment() }
        let observed: Int? = await waitFor { complete in
            _ = child.then(on: .main) { _ in complete(released.value) }
            resolver.fulfill(with: 1)
        }
        #expect(observed == 1)
    }

    private static func registerSpy(on promise: Promise<Int, String>, _ onDeinit: @escaping @Sendable () -> Void) -> Promise<Int, String> {
        let spy = DeinitSpy(onDeinit)
        return promise.then(on: .main) { _ in spy.touch() }
    }
}
