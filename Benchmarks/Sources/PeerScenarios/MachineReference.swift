// What one uncontended atomic read-modify-write costs on this machine, to turn RMW counts
// into time: n atomic adds on one word (`InstructionHarness time x-rmw.atomic 10000000`).

import ScenarioKit
import Synchronization

/// One word, touched by one thread: every RMW on it is uncontended, its cache line stays here.
let referenceCounter = Atomic<Int>(0)

let machineReferenceScenarios: [Scenario] = [
    Scenario("x-rmw", "atomic", "n uncontended atomic adds (lock xadd, acquiring and releasing) on one word", sync: { n in
        for _ in 0..<n { referenceCounter.wrappingAdd(1, ordering: .acquiringAndReleasing) }
        blackHole(referenceCounter.load(ordering: .relaxed))
        return n
    }),
]
