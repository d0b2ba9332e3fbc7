// Item 2: where (and whether synchronously) combinators and timers resolve their OUTPUT, as
// Tomorrowland 1.4 did. The 1.4 source lines are cited on each test (README.md has the table).
// Everything here runs in nonisolated code, and the output is watched by an `.immediate`
// observer (see `observe`), so the label it records is the thread/queue that resolved the output.
//
// 1.4 sources read: nostradani/Tomorrowland@772d184 (a fork of lilyball/Tomorrowland at
// 1.4 + PromiseOperation + SwiftPM): Sources/When.swift, Sources/Utilities.swift; and
// lilyball/Tomorrowland Sources/Promise.swift / Sources/TokenPromise.swift (1.4 versions).
// This file is compiled in Swift 6 mode and (symbolic link) in Swift 5 mode.

import Dispatch
import Foundation
import Tomorrowland
import XCTest

// MARK: - when(fulfilled:) array

final class WhenFulfilledArrayPlacementTests: PlacementTestCase {
    /// When.swift:64-71 (1.4): an input rejected after registration goes through
    /// `context.execute(isSynchronous: false)` with `context = .nowOr(.init(qos: qos))` (line 61):
    /// the output is rejected on a global queue, not on the queue that rejected the input.
    func rejection(cancelOnFailure: Bool, file: StaticString = #filePath, line: UInt = #line) async {
        let probe = Probe()
        let (a, ra) = StdPromise<Int>.makeWithResolver()
        let (b, rb) = StdPromise<Int>.makeWithResolver()
        let out = when(fulfilled: [a, b], cancelOnFailure: cancelOnFailure)
        _ = out.always(on: .immediate) { result in
            // The bug report's deadlock: a callback that syncs onto the rejecting queue.
            let here = currentLabel()
            if here != "R" {
                rQueue.sync {}
            }
            probe.record(describe(result))
        }
        rQueue.async { ra.reject(with: TestError.boom) }
        let ran = await probe.wait()
        withExtendedLifetime((ra, rb)) {}
        XCTAssertTrue(ran, "output never resolved", file: file, line: line)
        XCTAssertEqual(probe.firstNote, "error", file: file, line: line)
        XCTAssertEqual(probe.first, "global", "1.4 rejects the output on a global queue of the QoS, not synchronously on the rejecting queue (ran on '\(probe.first ?? "-")')", file: file, line: line)
    }

    func test_array_pendingRejection_resolvesOnGlobalQueue() async {
        await rejection(cancelOnFailure: false)
    }

    func test_array_pendingRejection_cancelOnFailure_resolvesOnGlobalQueue() async {
        await rejection(cancelOnFailure: true)
    }

    /// When.swift:73-76 (1.4): a cancelled input is delivered the same way.
    func cancellation(cancelOnFailure: Bool, file: StaticString = #filePath, line: UInt = #line) async {
        let probe = Probe()
        let (a, ra) = StdPromise<Int>.makeWithResolver()
        let (b, rb) = StdPromise<Int>.makeWithResolver()
        let out = when(fulfilled: [a, b], cancelOnFailure: cancelOnFailure)
        observe(out, probe)
        rQueue.async { ra.cancel() }
        let ran = await probe.wait()
        withExtendedLifetime((ra, rb)) {}
        XCTAssertTrue(ran, "output never resolved", file: file, line: line)
        XCTAssertEqual(probe.firstNote, "cancelled", file: file, line: line)
        XCTAssertEqual(probe.first, "global", "1.4 cancels the output on a global queue (ran on '\(probe.first ?? "-")')", file: file, line: line)
    }

    func test_array_pendingCancel_resolvesOnGlobalQueue() async {
        await cancellation(cancelOnFailure: false)
    }

    func test_array_pendingCancel_cancelOnFailure_resolvesOnGlobalQueue() async {
        await cancellation(cancelOnFailure: true)
    }

    /// When.swift:99-102 (1.4): when inputs are still pending at call time, the output is
    /// fulfilled by `group.notify(queue: .global(qos: qos))`.
    func test_array_pendingValues_fulfilOnGlobalQueue() async {
        let probe = Probe()
        let (a, ra) = StdPromise<Int>.makeWithResolver()
        let (b, rb) = StdPromise<Int>.makeWithResolver()
        let out = when(fulfilled: [a, b])
        observe(out, probe)
        rQueue.async {
            ra.fulfill(with: 1)
            rb.fulfill(with: 2)
        }
        let ran = await probe.wait()
        XCTAssertTrue(ran, "output never resolved")
        XCTAssertEqual(probe.firstNote, "value")
        XCTAssertEqual(probe.first, "global", "1.4 fulfils the output from group.notify on a global queue (ran on '\(probe.first ?? "-")')")
    }

    /// When.swift:99-100 (1.4): every input already fulfilled: fulfilled synchronously.
    func test_array_alreadyFulfilled_resolvesSynchronously() {
        let out = when(fulfilled: [StdPromise<Int>(fulfilled: 1), StdPromise<Int>(fulfilled: 2)])
        XCTAssertEqual(out.result?.value, [1, 2])
    }

    /// When.swift:64-70 with isSynchronous == true (1.4): an input already rejected at call time
    /// rejects the output synchronously, even while another input is pending.
    func test_array_alreadyRejected_resolvesSynchronously() {
        let (pending, resolver) = StdPromise<Int>.makeWithResolver()
        let out = when(fulfilled: [StdPromise<Int>(rejected: TestError.boom), pending])
        XCTAssertNotNil(out.result?.error, "1.4 rejects synchronously when an input was already rejected")
        withExtendedLifetime(resolver) {}
    }

    func test_array_alreadyRejected_cancelOnFailure_resolvesSynchronously() {
        let (pending, resolver) = StdPromise<Int>.makeWithResolver()
        let out = when(fulfilled: [StdPromise<Int>(rejected: TestError.boom), pending], cancelOnFailure: true)
        XCTAssertNotNil(out.result?.error, "1.4 rejects synchronously when an input was already rejected")
        withExtendedLifetime(resolver) {}
    }

    /// When.swift:73-75 with isSynchronous == true (1.4).
    func test_array_alreadyCancelled_resolvesSynchronously() {
        let (pending, resolver) = StdPromise<Int>.makeWithResolver()
        let out = when(fulfilled: [StdPromise<Int>(with: .cancelled), pending])
        XCTAssertEqual(out.result?.isCancelled, true, "1.4 cancels synchronously when an input was already cancelled")
        withExtendedLifetime(resolver) {}
    }
}

// MARK: - when(fulfilled:) tuple forms

final class WhenFulfilledTuplePlacementTests: PlacementTestCase {
    /// When.swift:166-172, 175 and 559-569 (1.4): the tuple forms run the whole handler
    /// (handleResult: reject/cancel) inside `context.execute` with `context = .nowOr(.init(qos:))`.
    func pendingTwo(reject: Bool, cancelOnFailure: Bool, file: StaticString = #filePath, line: UInt = #line) async {
        let probe = Probe()
        let (a, ra) = StdPromise<Int>.makeWithResolver()
        let (b, rb) = StdPromise<String>.makeWithResolver()
        let out = when(fulfilled: a, b, cancelOnFailure: cancelOnFailure)
        _ = out.tap(on: .immediate) { result in
            let here = currentLabel()
            if here != "R" {
                rQueue.sync {}
            }
            probe.record(describe(result))
        }
        rQueue.async {
            if reject {
                rb.reject(with: TestError.boom)
            } else {
                rb.cancel()
            }
        }
        let ran = await probe.wait()
        withExtendedLifetime((ra, rb)) {}
        XCTAssertTrue(ran, "output never resolved", file: file, line: line)
        XCTAssertEqual(probe.firstNote, reject ? "error" : "cancelled", file: file, line: line)
        XCTAssertEqual(probe.first, "global", "1.4 resolves the output on a global queue (ran on '\(probe.first ?? "-")')", file: file, line: line)
    }

    func test_tuple2_pendingRejection_resolvesOnGlobalQueue() async {
        await pendingTwo(reject: true, cancelOnFailure: false)
    }

    func test_tuple2_pendingRejection_cancelOnFailure_resolvesOnGlobalQueue() async {
        await pendingTwo(reject: true, cancelOnFailure: true)
    }

    func test_tuple2_pendingCancel_resolvesOnGlobalQueue() async {
        await pendingTwo(reject: false, cancelOnFailure: false)
    }

    func test_tuple2_pendingCancel_cancelOnFailure_resolvesOnGlobalQueue() async {
        await pendingTwo(reject: false, cancelOnFailure: true)
    }

    /// When.swift:544-547 (1.4, 2-tuple): pending values are fulfilled from group.notify on a global queue.
    func test_tuple2_pendingValues_fulfilOnGlobalQueue() async {
        let probe = Probe()
        let (a, ra) = StdPromise<Int>.makeWithResolver()
        let (b, rb) = StdPromise<String>.makeWithResolver()
        let out = when(fulfilled: a, b)
        observe(out, probe)
        rQueue.async {
            ra.fulfill(with: 1)
            rb.fulfill(with: "b")
        }
        let ran = await probe.wait()
        XCTAssertTrue(ran, "output never resolved")
        XCTAssertEqual(probe.firstNote, "value")
        XCTAssertEqual(probe.first, "global", "ran on '\(probe.first ?? "-")'")
    }

    /// When.swift:451-469 (1.4, 3-tuple): same as the 2-tuple form.
    func test_tuple3_pendingRejection_cancelOnFailure_resolvesOnGlobalQueue() async {
        let probe = Probe()
        let (a, ra) = StdPromise<Int>.makeWithResolver()
        let (b, rb) = StdPromise<String>.makeWithResolver()
        let (c, rc) = StdPromise<Double>.makeWithResolver()
        let out = when(fulfilled: a, b, c, cancelOnFailure: true)
        observe(out, probe)
        rQueue.async { rc.reject(with: TestError.boom) }
        let ran = await probe.wait()
        withExtendedLifetime((ra, rb, rc)) {}
        XCTAssertTrue(ran, "output never resolved")
        XCTAssertEqual(probe.firstNote, "error")
        XCTAssertEqual(probe.first, "global", "ran on '\(probe.first ?? "-")'")
    }

    /// When.swift:175-199 (1.4, 6-tuple).
    func test_tuple6_pendingRejection_resolvesOnGlobalQueue() async {
        let probe = Probe()
        let (a, ra) = StdPromise<Int>.makeWithResolver()
        let (b, rb) = StdPromise<Int>.makeWithResolver()
        let (c, rc) = StdPromise<Int>.makeWithResolver()
        let (d, rd) = StdPromise<Int>.makeWithResolver()
        let (e, re) = StdPromise<Int>.makeWithResolver()
        let (f, rf) = StdPromise<Int>.makeWithResolver()
        let out = when(fulfilled: a, b, c, d, e, f)
        observe(out, probe)
        rQueue.async { rf.reject(with: TestError.boom) }
        let ran = await probe.wait()
        withExtendedLifetime((ra, rb, rc, rd, re, rf)) {}
        XCTAssertTrue(ran, "output never resolved")
        XCTAssertEqual(probe.firstNote, "error")
        XCTAssertEqual(probe.first, "global", "ran on '\(probe.first ?? "-")'")
    }

    /// When.swift:544-545 (1.4): every input already fulfilled: fulfilled synchronously.
    func test_tuple2_alreadyFulfilled_resolvesSynchronously() {
        let out = when(fulfilled: StdPromise<Int>(fulfilled: 1), StdPromise<String>(fulfilled: "b"))
        XCTAssertEqual(out.result?.value?.0, 1)
        XCTAssertEqual(out.result?.value?.1, "b")
    }

    /// When.swift:524-528 + 559-566 (1.4): an input already rejected: `.nowOr` runs handleResult
    /// synchronously, so the output is rejected before `when` returns.
    func test_tuple2_alreadyRejected_resolvesSynchronously() {
        let (pending, resolver) = StdPromise<Int>.makeWithResolver()
        let out = when(fulfilled: pending, StdPromise<String>(rejected: TestError.boom))
        XCTAssertNotNil(out.result?.error)
        withExtendedLifetime(resolver) {}
    }

    func test_tuple2_alreadyCancelled_cancelOnFailure_resolvesSynchronously() {
        let (pending, resolver) = StdPromise<Int>.makeWithResolver()
        let out = when(fulfilled: pending, StdPromise<String>(with: .cancelled), cancelOnFailure: true)
        XCTAssertEqual(out.result?.isCancelled, true)
        withExtendedLifetime(resolver) {}
    }
}

// MARK: - when(first:)

final class WhenFirstPlacementTests: PlacementTestCase {
    /// When.swift:607-614 (1.4): the winner's value/error is passed on synchronously, in the
    /// input's callback, on the thread that resolved the input.
    func winner(reject: Bool, file: StaticString = #filePath, line: UInt = #line) async {
        let probe = Probe()
        let (a, ra) = StdPromise<Int>.makeWithResolver()
        let (b, rb) = StdPromise<Int>.makeWithResolver()
        let out = when(first: [a, b])
        observe(out, probe)
        let resolvedAtReturn = await onQueue(rQueue) { () -> Bool in
            if reject {
                ra.reject(with: TestError.boom)
            } else {
                ra.fulfill(with: 1)
            }
            return out.result != nil
        }
        let ran = await probe.wait()
        withExtendedLifetime((ra, rb)) {}
        XCTAssertTrue(ran, "output never resolved", file: file, line: line)
        XCTAssertEqual(probe.firstNote, reject ? "error" : "value", file: file, line: line)
        XCTAssertEqual(probe.first, "R", "1.4 resolves when(first:) on the winner's resolving thread (ran on '\(probe.first ?? "-")')", file: file, line: line)
        XCTAssertTrue(resolvedAtReturn, "1.4 resolves when(first:) before the winner's fulfil/reject returns", file: file, line: line)
    }

    func test_first_pendingValue_resolvesSynchronouslyOnResolvingThread() async {
        await winner(reject: false)
    }

    func test_first_pendingError_resolvesSynchronouslyOnResolvingThread() async {
        await winner(reject: true)
    }

    /// When.swift:622-627 (1.4): all inputs cancelled after the call: the output is cancelled from
    /// `group.notify(queue: .global(qos: .utility))`, a global queue.
    func test_first_pendingAllCancelled_cancelsOnGlobalQueue() async {
        let probe = Probe()
        let (a, ra) = StdPromise<Int>.makeWithResolver()
        let (b, rb) = StdPromise<Int>.makeWithResolver()
        let out = when(first: [a, b])
        observe(out, probe)
        rQueue.async {
            ra.cancel()
            rb.cancel()
        }
        let ran = await probe.wait()
        XCTAssertTrue(ran, "output never resolved")
        XCTAssertEqual(probe.firstNote, "cancelled")
        XCTAssertEqual(probe.first, "global", "1.4 cancels when(first:) from group.notify on a global queue (ran on '\(probe.first ?? "-")')")
    }

    /// When.swift:622-623 (1.4): all inputs already cancelled: cancelled synchronously.
    func test_first_alreadyAllCancelled_resolvesSynchronously() {
        let out = when(first: [StdPromise<Int>(with: .cancelled), StdPromise<Int>(with: .cancelled)])
        XCTAssertEqual(out.result?.isCancelled, true)
    }

    /// When.swift:607-611 (1.4): an input already fulfilled: fulfilled synchronously.
    func test_first_alreadyFulfilled_resolvesSynchronously() {
        let (pending, resolver) = StdPromise<Int>.makeWithResolver()
        let out = when(first: [pending, StdPromise<Int>(fulfilled: 7)])
        XCTAssertEqual(out.result?.value, 7)
        withExtendedLifetime(resolver) {}
    }

    /// When.swift:612-614 (1.4): an input already rejected: rejected synchronously.
    func test_first_alreadyRejected_resolvesSynchronously() {
        let (pending, resolver) = StdPromise<Int>.makeWithResolver()
        let out = when(first: [pending, StdPromise<Int>(rejected: TestError.boom)], cancelRemaining: true)
        XCTAssertNotNil(out.result?.error)
        withExtendedLifetime(resolver) {}
    }
}

// MARK: - timeout

final class TimeoutPlacementTests: PlacementTestCase {
    /// Utilities.swift:226-229 (1.4): the receiver's result is delivered through
    /// `context.execute(isSynchronous:)`: on `.queue(q)` for a receiver that resolves later.
    func upstream(_ outcome: String, file: StaticString = #filePath, line: UInt = #line) async {
        let probe = Probe()
        let (input, r) = Promise<Int, TestError>.makeWithResolver()
        let out = input.timeout(on: .queue(qQueue), delay: 10)
        observe(out, probe)
        rQueue.async {
            switch outcome {
            case "value": r.fulfill(with: 1)
            case "error": r.reject(with: .boom)
            default: r.cancel()
            }
        }
        let ran = await probe.wait()
        XCTAssertTrue(ran, "output never resolved", file: file, line: line)
        XCTAssertEqual(probe.firstNote, outcome, file: file, line: line)
        XCTAssertEqual(probe.first, "Q", "1.4 resolves timeout's output on its context (ran on '\(probe.first ?? "-")')", file: file, line: line)
    }

    func test_timeout_queue_pendingValue_resolvesOnContext() async {
        await upstream("value")
    }

    func test_timeout_queue_pendingError_resolvesOnContext() async {
        await upstream("error")
    }

    func test_timeout_queue_pendingCancel_resolvesOnContext() async {
        await upstream("cancelled")
    }

    /// Utilities.swift:247-248 (1.4): the timer is `queue.asyncAfter` on the context's queue.
    func test_timeout_queue_timedOut_rejectsOnContext() async {
        let probe = Probe()
        let (input, r) = Promise<Int, TestError>.makeWithResolver()
        let out = input.timeout(on: .queue(qQueue), delay: 0.05)
        observe(out, probe)
        let ran = await probe.wait()
        withExtendedLifetime(r) {}
        XCTAssertTrue(ran, "never timed out")
        XCTAssertEqual(probe.firstNote, "error")
        XCTAssertEqual(probe.first, "Q", "ran on '\(probe.first ?? "-")'")
        if case .error(.timedOut)? = out.result {} else {
            XCTFail("expected .timedOut, got \(String(describing: out.result))")
        }
    }

    /// The `Error == Swift.Error` overload (Utilities.swift ~286-340, 1.4): same placement.
    func test_timeout_stdPromise_queue_pendingError_and_timedOut_resolveOnContext() async {
        let probe = Probe()
        let (input, r) = StdPromise<Int>.makeWithResolver()
        let out = input.timeout(on: .queue(qQueue), delay: 10)
        observe(out, probe)
        rQueue.async { r.reject(with: TestError.boom) }
        let probe2 = Probe()
        let (input2, r2) = StdPromise<Int>.makeWithResolver()
        let out2 = input2.timeout(on: .queue(qQueue), delay: 0.05)
        observe(out2, probe2)
        let ran = await probe.wait()
        let ran2 = await probe2.wait()
        withExtendedLifetime(r2) {}
        XCTAssertTrue(ran && ran2)
        XCTAssertEqual(probe.first, "Q", "upstream error ran on '\(probe.first ?? "-")'")
        XCTAssertEqual(probe2.first, "Q", "timeout ran on '\(probe2.first ?? "-")'")
        XCTAssertTrue(out2.result?.error is PromiseTimeoutError<Swift.Error>)
    }

    /// Utilities.swift:196, 226-229 (1.4): the default context `.nowOr(.auto)` resolves the output
    /// synchronously when the receiver is already resolved (value, error and cancel).
    func test_timeout_default_alreadyResolved_resolvesSynchronously() {
        let v = Promise<Int, TestError>(fulfilled: 1).timeout(delay: 10)
        let e = Promise<Int, TestError>(rejected: .boom).timeout(delay: 10)
        let c = Promise<Int, TestError>(with: .cancelled).timeout(delay: 10)
        XCTAssertEqual(v.result?.value, 1)
        XCTAssertNotNil(e.result?.error)
        XCTAssertEqual(c.result?.isCancelled, true)
    }

    /// Utilities.swift:226-229 with `.immediate` (1.4): `execute(isSynchronous: false)` runs the
    /// block inline: the output resolves synchronously on the thread that resolved the receiver.
    func test_timeout_immediate_pendingValue_resolvesSynchronouslyOnResolvingThread() async {
        let probe = Probe()
        let (input, r) = Promise<Int, TestError>.makeWithResolver()
        let out = input.timeout(on: .immediate, delay: 10)
        observe(out, probe)
        let resolvedAtReturn = await onQueue(rQueue) { () -> Bool in
            r.fulfill(with: 1)
            return out.result != nil
        }
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertEqual(probe.first, "R", "ran on '\(probe.first ?? "-")'")
        XCTAssertTrue(resolvedAtReturn)
    }

    /// Utilities.swift:215-218 + Promise.swift getDestination (1.4): a timer given `.immediate`
    /// uses `.auto`, evaluated when `timeout` is called: `.default` off the main queue.
    func test_timeout_immediate_timedOut_rejectsOnAutoQueue() async {
        let probe = Probe()
        let (input, r) = Promise<Int, TestError>.makeWithResolver()
        let out = await onQueue(cQueue) { input.timeout(on: .immediate, delay: 0.05) }
        observe(out, probe)
        let ran = await probe.wait()
        withExtendedLifetime(r) {}
        XCTAssertTrue(ran)
        XCTAssertEqual(probe.firstNote, "error")
        XCTAssertEqual(probe.first, "global", "1.4 times out on .auto (= .default off main) (ran on '\(probe.first ?? "-")')")
    }

    /// Utilities.swift:226-229 (1.4): `.nowOr(.queue(q))` with a receiver that resolves later: on q.
    func test_timeout_nowOrQueue_pendingValue_resolvesOnWrappedQueue() async {
        let probe = Probe()
        let (input, r) = Promise<Int, TestError>.makeWithResolver()
        let out = input.timeout(on: .nowOr(.queue(qQueue)), delay: 10)
        observe(out, probe)
        rQueue.async { r.fulfill(with: 1) }
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertEqual(probe.first, "Q", "ran on '\(probe.first ?? "-")'")
    }

    /// Utilities.swift:213-214, 242-245 (1.4, changelog 1.3 #49): delay <= 0 with `.nowOr`/
    /// `.immediate` and a pending receiver: timed out synchronously.
    func test_timeout_nowOr_zeroDelay_timesOutSynchronously() {
        let (input, r) = Promise<Int, TestError>.makeWithResolver()
        let out = input.timeout(on: .nowOr(.queue(qQueue)), delay: 0)
        if case .error(.timedOut)? = out.result {} else {
            XCTFail("expected synchronous .timedOut, got \(String(describing: out.result))")
        }
        withExtendedLifetime(r) {}
    }

    /// Default context called off the main queue: `.nowOr(.default)`; a later result lands on a
    /// global queue, not on the receiver's resolving queue (Utilities.swift:226-229, 1.4).
    func test_timeout_default_offMain_pendingValue_resolvesOnGlobalQueue() async {
        let probe = Probe()
        let (input, r) = Promise<Int, TestError>.makeWithResolver()
        let out = await onQueue(cQueue) { input.timeout(delay: 10) }
        observe(out, probe)
        rQueue.async { r.fulfill(with: 1) }
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertEqual(probe.first, "global", "ran on '\(probe.first ?? "-")'")
    }
}

// MARK: - delay

final class DelayPlacementTests: PlacementTestCase {
    /// Utilities.swift:123-131 (1.4): a timer on the context's queue resolves the output, for
    /// value, error and (unrequested) cancel alike.
    func delayed(_ outcome: String, file: StaticString = #filePath, line: UInt = #line) async {
        let probe = Probe()
        let (input, r) = StdPromise<Int>.makeWithResolver()
        let out = input.delay(on: .queue(qQueue), 0.02)
        observe(out, probe)
        rQueue.async {
            switch outcome {
            case "value": r.fulfill(with: 1)
            case "error": r.reject(with: TestError.boom)
            default: r.cancel()
            }
        }
        let ran = await probe.wait()
        XCTAssertTrue(ran, "output never resolved", file: file, line: line)
        XCTAssertEqual(probe.firstNote, outcome, file: file, line: line)
        XCTAssertEqual(probe.first, "Q", "1.4 resolves delay's output on its context (ran on '\(probe.first ?? "-")')", file: file, line: line)
    }

    func test_delay_queue_value_resolvesOnContext() async {
        await delayed("value")
    }

    func test_delay_queue_error_resolvesOnContext() async {
        await delayed("error")
    }

    func test_delay_queue_cancel_resolvesOnContext() async {
        await delayed("cancelled")
    }

    /// Utilities.swift:132-136 (1.4): upstream cancelled, then a cancel request: the output is
    /// cancelled at once, synchronously, without waiting for the timer.
    func test_delay_upstreamCancelled_requestCancel_cancelsSynchronously() {
        let out = StdPromise<Int>(with: .cancelled).delay(on: .queue(qQueue), 10)
        out.requestCancel()
        XCTAssertEqual(out.result?.isCancelled, true)
    }

    /// Utilities.swift:123 + Promise.swift getDestination (1.4): `.immediate` means `.auto`,
    /// evaluated at the call: `.default` off the main queue (not the resolving thread).
    func test_delay_immediate_resolvesOnAutoQueue() async {
        let probe = Probe()
        let (input, r) = StdPromise<Int>.makeWithResolver()
        let out = await onQueue(cQueue) { input.delay(on: .immediate, 0.02) }
        observe(out, probe)
        rQueue.async { r.fulfill(with: 1) }
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertEqual(probe.first, "global", "ran on '\(probe.first ?? "-")'")
    }
}

// MARK: - Promise(on:fulfilled:after:) / init(on:with:after:)

final class DelayedInitPlacementTests: PlacementTestCase {
    /// Utilities.swift:80-85 (1.4): a timer on the context's queue resolves the promise.
    func after(_ outcome: String, file: StaticString = #filePath, line: UInt = #line) async {
        let probe = Probe()
        let p: StdPromise<Int>
        switch outcome {
        case "value": p = StdPromise<Int>(on: .queue(qQueue), fulfilled: 1, after: 0.02)
        case "error": p = StdPromise<Int>(on: .queue(qQueue), rejected: TestError.boom, after: 0.02)
        default: p = StdPromise<Int>(on: .queue(qQueue), with: .cancelled, after: 0.02)
        }
        observe(p, probe)
        let ran = await probe.wait()
        XCTAssertTrue(ran, "never resolved", file: file, line: line)
        XCTAssertEqual(probe.firstNote, outcome, file: file, line: line)
        XCTAssertEqual(probe.first, "Q", "ran on '\(probe.first ?? "-")'", file: file, line: line)
    }

    func test_initAfter_fulfilled_resolvesOnContext() async {
        await after("value")
    }

    func test_initAfter_rejected_resolvesOnContext() async {
        await after("error")
    }

    func test_initAfter_withCancelled_resolvesOnContext() async {
        await after("cancelled")
    }

    /// Utilities.swift:101-104 (1.4): requestCancel() cancels synchronously (an `.immediate` handler).
    func test_initAfter_requestCancel_cancelsSynchronously() {
        let p = StdPromise<Int>(on: .queue(qQueue), fulfilled: 1, after: 10)
        p.requestCancel()
        XCTAssertEqual(p.result?.isCancelled, true)
    }

    /// Utilities.swift:80 + getDestination (1.4): `.immediate` means `.auto` (`.default` off main).
    func test_initAfter_immediate_resolvesOnAutoQueue() async {
        let probe = Probe()
        let p = await onQueue(cQueue) { StdPromise<Int>(on: .immediate, fulfilled: 1, after: 0.02) }
        observe(p, probe)
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertEqual(probe.first, "global", "ran on '\(probe.first ?? "-")'")
    }
}

// MARK: - recover / flatMapError (Promise and TokenPromise)

final class RecoverPlacementTests: PlacementTestCase {
    enum Form {
        case recover, flatMapError, tokenRecover, tokenFlatMapError
    }

    /// Promise.swift recover(on:token:_:) / flatMapError(on:token:_:) (1.4, lilyball blob
    /// 1261483025 ~chars 25.8k / 29.5k): `.value` -> `resolver.fulfill` and `.cancelled` ->
    /// `resolver.cancel()` run synchronously in the receiver's callback (no hop); only `.error`
    /// goes through `context.execute`. TokenPromise.recover/flatMapError wrap the same calls.
    func check(_ form: Form, _ outcome: String, expected: String, file: StaticString = #filePath, line: UInt = #line) async {
        let probe = Probe()
        let token = PromiseInvalidationToken()
        let (input, r) = StdPromise<Int>.makeWithResolver()
        switch form {
        case .recover:
            observe(input.recover(on: .queue(qQueue)) { _ in 0 }, probe)
        case .flatMapError:
            observe(input.flatMapError(on: .queue(qQueue)) { _ in Promise<Int, NoError>(fulfilled: 0) }, probe)
        case .tokenRecover:
            observe(input.withToken(token).recover(on: .queue(qQueue)) { _ in 0 }.inner, probe)
        case .tokenFlatMapError:
            observe(input.withToken(token).flatMapError(on: .queue(qQueue)) { _ in Promise<Int, NoError>(fulfilled: 0) }.inner, probe)
        }
        let resolvedAtReturn = await onQueue(rQueue) { () -> Bool in
            switch outcome {
            case "value": r.fulfill(with: 1)
            case "error": r.reject(with: TestError.boom)
            default: r.cancel()
            }
            return true
        }
        let ran = await probe.wait()
        withExtendedLifetime(token) {}
        XCTAssertTrue(resolvedAtReturn)
        XCTAssertTrue(ran, "output never resolved", file: file, line: line)
        XCTAssertEqual(probe.first, expected, "\(form) \(outcome): ran on '\(probe.first ?? "-")', 1.4: '\(expected)'", file: file, line: line)
    }

    func test_recover_value_passesThroughOnResolvingThread() async {
        await check(.recover, "value", expected: "R")
    }

    func test_recover_error_runsOnContext() async {
        await check(.recover, "error", expected: "Q")
    }

    func test_recover_cancel_passesThroughOnResolvingThread() async {
        await check(.recover, "cancelled", expected: "R")
    }

    func test_flatMapError_value_passesThroughOnResolvingThread() async {
        await check(.flatMapError, "value", expected: "R")
    }

    func test_flatMapError_error_runsOnContext() async {
        await check(.flatMapError, "error", expected: "Q")
    }

    func test_flatMapError_cancel_passesThroughOnResolvingThread() async {
        await check(.flatMapError, "cancelled", expected: "R")
    }

    func test_tokenRecover_value_passesThroughOnResolvingThread() async {
        await check(.tokenRecover, "value", expected: "R")
    }

    func test_tokenRecover_error_runsOnContext() async {
        await check(.tokenRecover, "error", expected: "Q")
    }

    func test_tokenRecover_cancel_passesThroughOnResolvingThread() async {
        await check(.tokenRecover, "cancelled", expected: "R")
    }

    func test_tokenFlatMapError_value_passesThroughOnResolvingThread() async {
        await check(.tokenFlatMapError, "value", expected: "R")
    }

    func test_tokenFlatMapError_error_runsOnContext() async {
        await check(.tokenFlatMapError, "error", expected: "Q")
    }

    func test_tokenFlatMapError_cancel_passesThroughOnResolvingThread() async {
        await check(.tokenFlatMapError, "cancelled", expected: "R")
    }

    /// flatMapError pipes the returned promise without a hop (Promise.swift `nextPromise.pipe(to:)`,
    /// 1.4; rule 27): a returned promise resolved later on R resolves the output on R.
    func test_flatMapError_returnedPromise_pipedWithoutHop() async {
        let probe = Probe()
        let callbackRan = Probe()
        let (input, r) = StdPromise<Int>.makeWithResolver()
        let (inner, innerResolver) = Promise<Int, NoError>.makeWithResolver()
        observe(input.flatMapError(on: .queue(qQueue)) { _ in
            callbackRan.record()
            return inner
        }, probe)
        rQueue.async { r.reject(with: TestError.boom) }
        // Wait until the callback ran on Q and returned `inner` (a later block on the serial
        // queue Q runs after it), then resolve `inner` on R.
        let callbackDone = await callbackRan.wait()
        _ = await onQueue(qQueue) { true }
        XCTAssertTrue(callbackDone)
        rQueue.async { innerResolver.fulfill(with: 5) }
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertEqual(probe.first, "R", "ran on '\(probe.first ?? "-")'")
    }
}
