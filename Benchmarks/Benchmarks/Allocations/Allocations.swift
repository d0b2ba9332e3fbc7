// Tomorrowland's deterministic scenarios with exact malloc counts, against Thresholds/:
// `swift package benchmark thresholds check --target Allocations --path Thresholds/6.3`.
// CI makes the same measurement with AllocationGate (scripts/check-allocations.sh), which
// does not build package-benchmark. Only malloc counts are checked: an allocation regression
// fails CI, a slow machine never does.

import Benchmark
import BenchmarkSupport
import ScenarioKit
import TomorrowlandScenarios

/// Scenarios whose allocation count does not depend on thread timing.
let gated = tomorrowlandScenarios.filter { deterministicAllocations.contains($0.id) }

let benchmarks: @Sendable () -> Void = {
    register(
        gated,
        metrics: [.mallocCountTotal],
        thresholds: [.mallocCountTotal: .init(relative: BenchmarkThresholds.Relative.none, absolute: BenchmarkThresholds.Absolute.strict)],
        allocationGate: true
    )
}
