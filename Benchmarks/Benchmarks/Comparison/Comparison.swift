// Tomorrowland and every peer, side by side in one binary: timings, exact malloc counts and
// memory. `swift package benchmark --target Comparison` (see BENCHMARKS.md).

import Benchmark
import BenchmarkSupport
import PeerScenarios
import TomorrowlandScenarios

let benchmarks: @Sendable () -> Void = {
    register(
        tomorrowlandScenarios + peerScenarios,
        metrics: [.wallClock, .throughput, .mallocCountTotal, .mallocBytesCount, .peakMemoryResident]
    )
}
