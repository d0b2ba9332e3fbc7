// Sinks: where callbacks put their results, without capturing anything (a capturing
// closure would add a context allocation to every library alike and hide the differences).

/// Single-threaded scenarios add what their callbacks receive here; the scenario then
/// checks the sum. Multi-threaded scenarios must not touch it (they use `blackHole`).
public nonisolated(unsafe) var tally = 0

/// Resets `tally` and returns its previous value.
@inline(never)
public func takeTally() -> Int {
    defer { tally = 0 }
    return tally
}

/// Consumes a value so the optimizer cannot delete the work that produced it.
@_optimize(none) @inline(never)
public func blackHole<T>(_ value: T) {}

/// Called by the memory scenarios (l) while all their promises are pending; the harness
/// sets it to sample heap usage. `nil` in the package-benchmark suite.
public nonisolated(unsafe) var atPeakProbe: (@Sendable () -> Void)? = nil

/// State captured by the "capturing" scenarios' callbacks, as real callbacks capture a model
/// object or a view model. Single-threaded use only.
public final class CapturedState: @unchecked Sendable {  // touched by one thread at a time
    public var offset = 1
    public var sum = 0
    public init() {}
}

/// Calls `atPeakProbe` if one is set.
@inline(never)
public func atPeak() { atPeakProbe?() }

/// The sum `0 + 1 + … + (n - 1)` plus `n * extra`: what most scenarios' callbacks add up to.
public func expectedTally(_ n: Int, plus extra: Int = 0) -> Int {
    n * (n - 1) / 2 + n * extra
}

/// Takes `tally` and checks that the scenario's callbacks added up to `expected`.
@inline(never)
public func checkTally(_ expected: Int, _ scenario: StaticString = #function) -> Int {
    let sum = takeTally()
    precondition(sum == expected, "\(scenario): callbacks added up to \(sum), expected \(expected)")
    return sum
}
