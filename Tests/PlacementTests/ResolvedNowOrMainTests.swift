// Item 1, `.nowOr(.main)` on a promise that is ALREADY resolved when the callback is registered.
// 1.4 (Promise.swift PromiseContext.execute(isSynchronous:), `.nowOr`): runs synchronously.
// Required here: in @MainActor code, synchronously on the main queue; in nonisolated code,
// synchronously on the caller (docs table); in a custom-global-actor class or an actor, it may run
// synchronously or on the main queue, but never as a later job on that other actor.
// This file is compiled in Swift 6 mode and (symbolic link) in Swift 5 mode.

import Dispatch
import Foundation
import Tomorrowland
import XCTest

@MainActor
final class MainNowOrFixture {
    var count = 0

    nonisolated init() {}

    func registerResolved(_ probe: Probe) -> Bool {
        _ = StdPromise<Int>(fulfilled: 1).then(on: .nowOr(.main)) { _ in
            self.count += 1
            probe.record()
        }
        return probe.count > 0
    }
}

@PlaybackActor
final class PlaybackNowOrFixture {
    var count = 0

    nonisolated init() {}

    func registerResolved(_ probe: Probe) -> Bool {
        _ = StdPromise<Int>(fulfilled: 1).then(on: .nowOr(.main)) { _ in
            probe.record()
        }
        return probe.count > 0
    }
}

actor ActorNowOrFixture {
    var state = 0
    let tag = "actor"

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        actorExecutor.asUnownedSerialExecutor()
    }

    func registerResolved(_ probe: Probe) -> Bool {
        _ = StdPromise<Int>(fulfilled: 1).then(on: .nowOr(.main)) { _ in
            _ = self.tag
            probe.record()
        }
        return probe.count > 0
    }
}

func nonisolatedRegisterResolved(_ probe: Probe) -> Bool {
    _ = StdPromise<Int>(fulfilled: 1).then(on: .nowOr(.main)) { _ in
        probe.record()
    }
    return probe.count > 0
}

final class ResolvedNowOrMainTests: PlacementTestCase {
    func test_MainActorClass_nowOrMain_resolved_runsSynchronouslyOnMain() async {
        let probe = Probe()
        let synchronous = await MainNowOrFixture().registerResolved(probe)
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertTrue(synchronous, "1.4 and the docs: synchronously when already resolved (and on the main queue)")
        XCTAssertEqual(probe.first, "main")
    }

    // Written blind from 1.4's behaviour, which ran the callback synchronously on the calling
    // queue C. This package decided otherwise (MIGRATION.md, "What changed": a `.nowOr(.main)`
    // callback is a main-actor closure, so off the main queue it hops to main): kept as the
    // regression test of that decision, with the blind expectation in the comment.
    func test_Nonisolated_nowOrMain_resolved_runsOnMainOffTheMainQueue() async {
        let probe = Probe()
        // (Whether it ran before the call returned is not asserted: an idle main queue may run it
        // at once, in parallel with the registering thread.)
        _ = await onQueue(cQueue) { nonisolatedRegisterResolved(probe) }
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertEqual(probe.first, "main", "1.4 ran it synchronously on C; a main-actor closure cannot run there")  // blind: "C"
    }

    func test_PlaybackActorClass_nowOrMain_resolved_runsOnMainOrSynchronously() async {
        let probe = Probe()
        let synchronous = await PlaybackNowOrFixture().registerResolved(probe)
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertTrue(synchronous || probe.first == "main",
                      "a .nowOr(.main) callback must run synchronously or on main, not later on the global actor (ran on '\(probe.first ?? "-")', synchronously: \(synchronous))")
    }

    func test_ActorUsingSelf_nowOrMain_resolved_runsOnMainOrSynchronously() async {
        let probe = Probe()
        let synchronous = await ActorNowOrFixture().registerResolved(probe)
        let ran = await probe.wait()
        XCTAssertTrue(ran)
        XCTAssertTrue(synchronous || probe.first == "main",
                      "a .nowOr(.main) callback must run synchronously or on main, not later on the actor (ran on '\(probe.first ?? "-")', synchronously: \(synchronous))")
    }
}
