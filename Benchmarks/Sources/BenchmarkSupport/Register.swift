// Registers scenarios as package-benchmark benchmarks, with the size each kind needs
// (`Sizing`, in ScenarioKit: AllocationGate measures with the same sizes and limits).

import Benchmark
import ScenarioKit

/// Registers one benchmark per scenario, named `scenario.name`.
public func register(_ scenarios: [Scenario], metrics: [BenchmarkMetric], thresholds: [BenchmarkMetric: BenchmarkThresholds] = [:], allocationGate: Bool = false) {
    precondition(BenchmarkScalingFactor.kilo.rawValue == Sizing.operationsPerRun, "Sizing.operationsPerRun is package-benchmark's .kilo")
    for scenario in scenarios {
        let sizing = Sizing.of(scenario.id, allocationGate: allocationGate)
        let scalingFactor: BenchmarkScalingFactor
        switch sizing {
        case .perOperation: scalingFactor = .kilo
        case .fixed: scalingFactor = .one
        }
        let configuration = Benchmark.Configuration(
            metrics: metrics, warmupIterations: Sizing.warmupRuns, scalingFactor: scalingFactor,
            maxDuration: sizing.maxDuration, maxIterations: sizing.maxRuns, thresholds: thresholds
        )
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
