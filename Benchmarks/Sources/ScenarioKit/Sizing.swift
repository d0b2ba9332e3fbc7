// How big one measured run of a scenario is and how many runs are measured: one place for
// package-benchmark's registration (BenchmarkSupport) and for AllocationGate, so a malloc count
// per run means the same in both.

/// How big one run of a scenario is, and package-benchmark's limits on the number of runs.
public enum Sizing: Sendable {
    /// Per-operation scenarios: `operationsPerRun` operations per run (package-benchmark's
    /// `.kilo` scaling, so its per-operation columns are per operation).
    case perOperation
    /// Size scenarios (chain depth, promise count, thread throughput): one run of size `n`.
    case fixed(Int)

    /// Operations in one run of a per-operation scenario: package-benchmark's `.kilo`.
    public static let operationsPerRun = 1_000

    /// Unmeasured runs before the measured ones (package-benchmark's default, set explicitly).
    public static let warmupRuns = 1

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

    /// The `n` passed to the scenario's `run` for one run.
    public var size: Int {
        switch self {
        case .perOperation: return Self.operationsPerRun
        case .fixed(let n): return n
        }
    }

    /// Measured runs stop at this many runs, or once `maxDuration` has passed since the first
    /// measured run started, whichever comes first (package-benchmark's rule).
    public var maxRuns: Int {
        switch self {
        case .perOperation: return 200
        case .fixed: return 10
        }
    }

    /// See `maxRuns`.
    public var maxDuration: Duration {
        switch self {
        case .perOperation: return .seconds(2)
        case .fixed: return .seconds(5)
        }
    }
}
