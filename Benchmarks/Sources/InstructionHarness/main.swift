// InstructionHarness: runs one scenario, for scripts/instructions.sh (under callgrind) and
// for the heap/peak-memory measurement of (l).
//
//   InstructionHarness list
//   InstructionHarness run NAME N         run scenario NAME (e.g. a.Tomorrowland) with size N
//   InstructionHarness memory NAME N      same, printing heap bytes per item at the peak and max RSS
//   InstructionHarness time NAME N [R]    best wall-clock time of R runs (default 5), in ns per item

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
default:
    FileHandle.standardError.write(Data("usage: InstructionHarness list | run NAME N | memory NAME N | time NAME N [ROUNDS]\n".utf8))
    exit(64)
}
