// Registers scenarios as package-benchmark benchmarks, with the size each kind needs.

import Benchmark
import ScenarioKit

/// How big one benchmark iteration of a scenario is.
public enum Sizing {
    /// Per-operation scenarios: 1,000 operations per iteration (package-benchmark's `.kilo`
    /// scaling, so its per-operation columns are per operation).
    case perOperation
    /// Size scenarios (chain depth, promise count, thread throughput): one run of size `n`.
    case fixed(Int)

    /// The sizing of scenario `id`. `allocationGate` shrinks the big sizes so CI stays fast;
    /// the per-item counts are the same at any size (the workloads are linear).
    public static func of(_ id: String, allocationGate: Bool = false) -> Sizing {
        switch id {
        case "k", "k-nested": return .fixed(allocationGate ? 10_000 : 100_000)
        case "l": return .fixed(allocationGate ? 10_000 : 100_000)
        case "j": return .fixed(10_000)
        case "i1", "i2": return .fixed(200_000)
        default: return .perOperation
        }
    }
}

/// Registers one benchmark per scenario, named `scenario.name`.
public func register(_ scenarios: [Scenario], metrics: [BenchmarkMetric], thresholds: [BenchmarkMetric: BenchmarkThresholds] = [:], allocationGate: Bool = false) {
    for scenario in scenarios {
        let sizing = Sizing.of(scenario.id, allocationGate: allocationGate)
        let configuration: Benchmark.Configuration
        switch sizing {
        case .perOperation:
            configuration = .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 200, thresholds: thresholds)
        case .fixed:
            configuration = .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 10, thresholds: thresholds)
        }
        switch scenario.body {
        case .sync(let body):
            let closure: Benchmark.BenchmarkClosure = { benchmark in
                ScenarioKit.blackHole(body(size(sizing, benchmark)))
            }
            Benchmark(scenario.name, configuration: configuration, closure: closure)
        case .async(let body):
            let closure: Benchmark.BenchmarkAsyncClosure = { benchmark in
                ScenarioKit.blackHole(await body(size(sizing, benchmark)))
            }
            Benchmark(scenario.name, configuration: configuration, closure: closure)
        }
    }
}

private func size(_ sizing: Sizing, _ benchmark: Benchmark) -> Int {
    switch sizing {
    case .perOperation: return benchmark.scaledIterations.count
    case .fixed(let n): return n
    }
}
