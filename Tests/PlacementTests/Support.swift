// Shared helpers of the blind placement tests. This file is compiled twice: in
// PlacementSwift6Tests (Swift 6 mode) and, through a symbolic link, in PlacementSwift5Tests
// (Swift 5 mode).
//
// "Where did it run" is decided by DispatchQueue.getSpecific(key:), never by
// Thread.isMainThread: on Linux the main queue may be drained by a worker thread.

import Dispatch
import Foundation
import Tomorrowland
import XCTest

let queueKey = DispatchSpecificKey<String>()

func makeLabeledQueue(_ label: String) -> DispatchQueue {
    let queue = DispatchQueue(label: "blind36.\(label)")
    queue.setSpecific(key: queueKey, value: label)
    return queue
}

/// "main" on the main queue (whatever thread drains it), the label of one of our serial queues
/// ("Q", "R", "C", "playback", "actorQ"), or "global" anywhere else (a global queue).
func currentLabel() -> String {
    DispatchQueue.getSpecific(key: queueKey) ?? "global"
}

/// Installs the main queue's label once.
let mainLabelInstalled: Bool = {
    DispatchQueue.main.setSpecific(key: queueKey, value: "main")
    return true
}()

/// The queue a named context (`.queue(qQueue)`, a held `PromiseContext` property) names.
let qQueue = makeLabeledQueue("Q")
/// The serial queue that resolves the input promises (the "dbQueue" of the bug report).
let rQueue = makeLabeledQueue("R")
/// The serial queue that nonisolated registration code runs on (so `.auto` means `.default`).
let cQueue = makeLabeledQueue("C")
/// The executor queue of the custom global actor.
let playbackQueue = makeLabeledQueue("playback")
/// The executor queue of the plain actor.
let actorQueue = makeLabeledQueue("actorQ")

let heldQueueContext: PromiseContext = .queue(qQueue)
let heldMainContext: PromiseContext = .main

enum TestError: Error, Equatable {
    case boom
}

/// A serial executor that runs every job on a Dispatch queue we own (and label).
final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    let queue: DispatchQueue

    init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async {
            unownedJob.runSynchronously(on: executor)
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

let playbackExecutor = QueueExecutor(playbackQueue)
let actorExecutor = QueueExecutor(actorQueue)

/// The custom global actor of the bug report; its executor is `playbackQueue`, not main.
@globalActor
actor PlaybackActor {
    static let shared = PlaybackActor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        playbackExecutor.asUnownedSerialExecutor()
    }
}

/// Records where (and with what) callbacks ran.
final class Probe: @unchecked Sendable {
    private let lock = NSLock()
    private var labels: [String] = []
    private var notes: [String] = []

    init() {}

    func record(_ note: String = "") {
        let label = currentLabel()
        lock.lock()
        labels.append(label)
        notes.append(note)
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return labels.count
    }

    var first: String? {
        lock.lock()
        defer { lock.unlock() }
        return labels.first
    }

    var firstNote: String? {
        lock.lock()
        defer { lock.unlock() }
        return notes.first
    }

    /// Waits (polling, up to `timeout` seconds) until `n` records exist.
    func wait(for n: Int = 1, timeout: Double = 10) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if count >= n {
                return true
            }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return count >= n
    }
}

/// Runs `body` on `queue` and returns its result.
func onQueue<T: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        queue.async {
            continuation.resume(returning: body())
        }
    }
}

func describe<V, E>(_ result: PromiseResult<V, E>) -> String {
    switch result {
    case .value: return "value"
    case .error: return "error"
    case .cancelled: return "cancelled"
    }
}

/// Attaches an `.immediate` observer (written in nonisolated code, so it runs synchronously on
/// whatever thread resolves `promise`) that records where the output resolved.
func observe<V: Sendable, E: Sendable>(_ promise: Promise<V, E>, _ probe: Probe) {
    _ = promise.tap(on: .immediate) { result in
        probe.record(describe(result))
    }
}

class PlacementTestCase: XCTestCase {
    override func setUp() {
        super.setUp()
        XCTAssertTrue(mainLabelInstalled)
    }
}
