// InstructionHarness: runs one scenario, for scripts/instructions.sh (under callgrind) and
// for the heap/peak-memory measurement of (l).
//
//   InstructionHarness list
//   InstructionHarness run NAME N         run scenario NAME (e.g. a.Tomorrowland) with size N
//   InstructionHarness memory NAME N      same, printing heap bytes per item at the peak and max RSS
//   InstructionHarness time NAME N [R]    best wall-clock time of R runs (default 5), in ns per item
//   InstructionHarness ratio OURS PEER [N] [R]
//                                         wall-time ratio OURS ÷ PEER, interleaved in this process:
//                                         R rounds (default 41) of batches of N items (default:
//                                         calibrated to RATIO_BATCH_MS, 20, ms of OURS), ABBA/BAAB
//                                         order; prints the median ratio with its spread

#if canImport(Glibc)
import Glibc
#endif
import CHeapStats
import Foundation
import PeerScenarios
import ScenarioKit
import TomorrowlandScenarios

let scenarios = tomorrowlandScenarios + peerScenarios
let arguments = CommandLine.arguments

func scenario(named name: String) -> Scenario {
    guard let found = scenarios.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("unknown scenario \(name)\n".utf8))
        exit(64)
    }
    return found
}

func heapInUse() -> Int {
    Int(cheapstats_heap_in_use())
}

func maxResidentBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}

/// Runs a scenario without an async `main`: valgrind 3.19 crashes on the `sigsuspend` that
/// `dispatchMain()` parks the main thread in, so async scenarios run in a Task while the
/// main thread waits on a semaphore.
func run(_ scenario: Scenario, _ n: Int) -> Int {
    switch scenario.body {
    case .sync(let body):
        return body(n)
    case .async(let body):
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Task {
            result.value = await body(n)
            done.signal()
        }
        done.wait()
        return result.value
    }
}

final class ResultBox: @unchecked Sendable {  // written by the Task before it signals
    var value = 0
}

/// Wall-clock and process CPU nanoseconds of one `run(scenario, n)`. An async scenario is
/// timed inside its Task, so starting the Task and waking this thread are not counted.
func timedRun(_ scenario: Scenario, _ n: Int) -> (wall: UInt64, cpu: UInt64) {
    switch scenario.body {
    case .sync(let body):
        let start = clocks()
        blackHole(body(n))
        let end = clocks()
        return (end.wall - start.wall, end.cpu - start.cpu)
    case .async(let body):
        let done = DispatchSemaphore(value: 0)
        let elapsed = TimesBox()
        Task {
            let start = clocks()
            blackHole(await body(n))
            let end = clocks()
            elapsed.value = (end.wall - start.wall, end.cpu - start.cpu)
            done.signal()
        }
        done.wait()
        return elapsed.value
    }
}

/// The monotonic clock and the CPU time of all the process's threads, in ns.
func clocks() -> (wall: UInt64, cpu: UInt64) {
    var cpu = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu)
    return (DispatchTime.now().uptimeNanoseconds, UInt64(cpu.tv_sec) * 1_000_000_000 + UInt64(cpu.tv_nsec))
}

final class TimesBox: @unchecked Sendable {  // written by the Task before it signals
    var value: (wall: UInt64, cpu: UInt64) = (0, 0)
}

/// The `q`-quantile of sorted `values`, linearly interpolated.
func quantile(_ values: [Double], _ q: Double) -> Double {
    let position = q * Double(values.count - 1)
    let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
    return values[low] + (values[high] - values[low]) * (position - Double(low))
}

func formatted(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

/// `ratio OURS PEER [N] [R]`: both scenarios run in this process, interleaved, so that a
/// machine slowing down or speeding up (other jobs, frequency, cache) weighs on both alike.
/// Each round runs four batches of N items, ABBA in even rounds and BAAB in odd ones (a
/// linear drift within a round cancels out), and records (A₁ + A₂) ÷ (B₁ + B₂). Two warm-up
/// rounds are not recorded. Prints the median wall-time ratio, a 95 % confidence interval of
/// that median (order statistics, no assumption on the distribution), the interquartile range
/// and the p10–p90 spread of the rounds, each side's median ns per item, and the same median
/// and IQR for the process's CPU time (which other jobs preempting this one do not inflate).
/// With N = 0 the batch is calibrated to RATIO_BATCH_MS (default 20) ms of OURS: batches much
/// longer than a scheduler time slice make preemption hit both sides alike.
func interleavedRatio(_ ours: Scenario, _ peer: Scenario, n requested: Int, rounds: Int) {
    var n = requested
    if n <= 0 {  // calibrate: the smallest power-of-two size whose batch of OURS takes the target time
        let target = UInt64(ProcessInfo.processInfo.environment["RATIO_BATCH_MS"].flatMap { Int($0) } ?? 20) * 1_000_000
        n = 64
        _ = timedRun(ours, n); _ = timedRun(peer, n)
        while timedRun(ours, n).wall < target && n < 1 << 24 { n *= 2 }
    }
    var wall: [Double] = [], cpu: [Double] = [], oursPerItem: [Double] = [], peerPerItem: [Double] = []
    for round in -2..<rounds {
        let a1, b1, b2, a2: (wall: UInt64, cpu: UInt64)
        if round & 1 == 0 {
            a1 = timedRun(ours, n); b1 = timedRun(peer, n); b2 = timedRun(peer, n); a2 = timedRun(ours, n)
        } else {
            b1 = timedRun(peer, n); a1 = timedRun(ours, n); a2 = timedRun(ours, n); b2 = timedRun(peer, n)
        }
        guard round >= 0 else { continue }
        let a = Double(a1.wall + a2.wall), b = Double(b1.wall + b2.wall)
        wall.append(a / b)
        cpu.append(Double(a1.cpu + a2.cpu) / Double(max(1, b1.cpu + b2.cpu)))
        oursPerItem.append(a / Double(2 * n))
        peerPerItem.append(b / Double(2 * n))
    }
    wall.sort(); cpu.sort(); oursPerItem.sort(); peerPerItem.sort()
    // 95 % interval of the median: ranks n/2 ∓ 0.98·√n of the sorted rounds (binomial, normal approximation).
    let halfWidth = 0.98 * Double(rounds).squareRoot()
    let low = max(0, Int((Double(rounds) / 2 - halfWidth).rounded(.down)))
    let high = min(rounds - 1, Int((Double(rounds) / 2 + halfWidth).rounded(.up)) - 1)
    let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
    print("\(ours.name) ÷ \(peer.name)\twall median \(formatted(quantile(wall, 0.5)))×"
        + "\t95% CI \(formatted(wall[low]))–\(formatted(wall[high]))"
        + "\tIQR \(formatted(quantile(wall, 0.25)))–\(formatted(quantile(wall, 0.75)))"
        + "\tp10–p90 \(formatted(quantile(wall, 0.1)))–\(formatted(quantile(wall, 0.9)))"
        + "\tns/item \(formatted(quantile(oursPerItem, 0.5), 1)) vs \(formatted(quantile(peerPerItem, 0.5), 1))"
        + "\tcpu median \(formatted(quantile(cpu, 0.5)))× IQR \(formatted(quantile(cpu, 0.25)))–\(formatted(quantile(cpu, 0.75)))"
        + "\t\(rounds) rounds × 2×\(n) items each\tload \(load)")
}

final class PeakSample: @unchecked Sendable {  // written once by the scenario's own thread
    var bytes = 0
}

switch arguments.count >= 2 ? arguments[1] : "" {
case "list":
    for scenario in scenarios { print("\(scenario.name)\t\(scenario.summary)") }
case "run" where arguments.count == 4:
    let result = run(scenario(named: arguments[2]), Int(arguments[3])!)
    blackHole(result)
case "memory" where arguments.count == 4:
    let chosen = scenario(named: arguments[2])
    let n = Int(arguments[3])!
    let sample = PeakSample()
    let before = heapInUse()
    let rssBefore = maxResidentBytes()
    atPeakProbe = { sample.bytes = heapInUse() }
    blackHole(run(chosen, n))
    let perItem = Double(sample.bytes - before) / Double(n)
    print("\(chosen.name)\theap bytes/item \(String(format: "%.1f", perItem))\tmax RSS growth \((maxResidentBytes() - rssBefore) / 1_048_576) MiB")
case "time" where arguments.count >= 4:
    let chosen = scenario(named: arguments[2])
    let n = Int(arguments[3])!
    let rounds = arguments.count >= 5 ? Int(arguments[4])! : 5
    var best = UInt64.max
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        blackHole(run(chosen, n))
        best = min(best, DispatchTime.now().uptimeNanoseconds - start)
    }
    print("\(chosen.name)\t\(String(format: "%.1f", Double(best) / Double(n))) ns/item (best of \(rounds))")
case "ratio" where (4...6).contains(arguments.count):
    let ours = scenario(named: arguments[2]), peer = scenario(named: arguments[3])
    let n = arguments.count >= 5 ? Int(arguments[4])! : 0
    let rounds = arguments.count >= 6 ? Int(arguments[5])! : 41
    precondition(rounds >= 3, "ratio: at least 3 rounds")
    interleavedRatio(ours, peer, n: n, rounds: rounds)
default:
    FileHandle.standardError.write(Data("usage: InstructionHarness list | run NAME N | memory NAME N | time NAME N [ROUNDS] | ratio OURS PEER [N] [ROUNDS]\n".utf8))
    exit(64)
}
