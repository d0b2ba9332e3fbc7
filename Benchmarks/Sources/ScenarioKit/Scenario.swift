// Scenario: one measured workload of one library, runnable by both the package-benchmark
// suite and the callgrind harness, so the two measure exactly the same code.

/// One workload (`id`, e.g. `"a"`) as written with one library (`library`).
///
/// `run(n)` performs the workload `n` times (or, for size scenarios such as a chain depth,
/// once with size `n`) and returns a checksum. Every scenario checks its own result with
/// `precondition`, so a benchmark can never measure a workload that silently did nothing.
public struct Scenario: Sendable {
    /// How a scenario runs.
    public enum Body: Sendable {
        /// A synchronous workload.
        case sync(@Sendable (_ n: Int) -> Int)
        /// A workload that needs a Task (awaits, actors, executors).
        case async(@Sendable (_ n: Int) async -> Int)
    }

    /// The benchmark letter of the issue (`"a"` … `"l"`), plus a suffix for variants.
    public let id: String
    /// Who implements the workload: `Tomorrowland` or a peer.
    public let library: String
    /// One line saying what is measured.
    public let summary: String
    /// The workload.
    public let body: Body

    /// `id.library`: the benchmark name, also the thresholds file name.
    public var name: String { "\(id).\(library)" }

    public init(_ id: String, _ library: String, _ summary: String, sync body: @escaping @Sendable (Int) -> Int) {
        self.id = id
        self.library = library
        self.summary = summary
        self.body = .sync(body)
    }

    public init(_ id: String, _ library: String, _ summary: String, async body: @escaping @Sendable (Int) async -> Int) {
        self.id = id
        self.library = library
        self.summary = summary
        self.body = .async(body)
    }

    /// Runs the workload with size `n`.
    public func run(_ n: Int) async -> Int {
        switch body {
        case .sync(let body): return body(n)
        case .async(let body): return await body(n)
        }
    }
}

/// Scenario ids whose malloc count is exact on every run: the ones CI gates on. Single
/// threaded, except e-exec (one FIFO executor thread, every step in a fixed order) and f
/// (a Task per operation: the same count in every run measured, also with the machine loaded);
/// f-on's Task runs to its end in the call (`Task.immediate`, an operation that never suspends).
public let deterministicAllocations: Set<String> = [
    "p", "a", "a-capture", "a-resolved", "a-named", "b", "b-named", "c", "d", "e-exec", "e-exec-base", "f", "f-on", "k", "k-nested", "l",
]
