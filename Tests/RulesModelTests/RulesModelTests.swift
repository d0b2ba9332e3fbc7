// Random programs of API calls, run on the rules model and on the library: every step's
// observations must agree. A failure prints its seed, the rules the program exercises and the
// shrunk program; `RULES_MODEL_SEED=<seed>` runs that one program again (and shrinks it again).
//
//   swift test --filter RulesModelTests                                 # the default programs
//   RULES_MODEL_PROGRAMS=100000 swift test --filter RulesModelTests     # more of them
//   RULES_MODEL_SEED=1234 swift test --filter RulesModelTests           # one program
//   RULES_MODEL_FIRST_SEED=5000 ...                                     # other seeds than the default ones
//   RULES_MODEL_LENGTH=60 ...                                           # longer programs

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
import XCTest
@testable import TomorrowlandExplored

final class RulesModelTests: XCTestCase {
    /// Programs run by default: about 3 s of a debug build on 2 loaded cores (2 s of CPU).
    static let defaultPrograms = 500
    static let defaultLength = 40

    private static let environment = ProcessInfo.processInfo.environment

    override func setUp() {
        super.setUp()
        SchedulePoints.install(ModelHooks.shared)
        VirtualClock.install(ModelClock.shared)
    }

    override func tearDown() {
        SchedulePoints.install(nil)
        VirtualClock.install(nil)
        super.tearDown()
    }

    func testRandomProgramsFollowTheRules() {
        let length = Self.environment["RULES_MODEL_LENGTH"].flatMap(Int.init) ?? Self.defaultLength
        let seeds: [UInt64]
        if let seed = Self.environment["RULES_MODEL_SEED"].flatMap(UInt64.init) {
            seeds = [seed]
        } else {
            let first = Self.environment["RULES_MODEL_FIRST_SEED"].flatMap(UInt64.init) ?? 1
            let count = Self.environment["RULES_MODEL_PROGRAMS"].flatMap(UInt64.init) ?? UInt64(Self.defaultPrograms)
            seeds = Array(first..<first + count)
        }
        let start = Date()
        var steps = 0
        var slowest: [(seconds: Double, seed: UInt64)] = []
        for seed in seeds {
            var generator = ProgramGenerator(seed: seed)
            let program = generator.program(length: length)
            let programStart = Date()
            let outcome = Self.run(program)
            slowest.append((Date().timeIntervalSince(programStart), seed))
            slowest = Array(slowest.sorted { $0.seconds > $1.seconds }.prefix(3))
            steps += outcome.steps
            guard let failure = outcome.failure else { continue }
            var shrinker = Shrinker(fails: { Self.run($0).failure != nil })
            let shrunk = shrinker.shrink(program)
            let shrunkFailure = Self.run(shrunk).failure ?? failure
            let report = """
                Rules model: seed \(seed): the library broke the rules at step \(shrunkFailure.step) \
                (`\(shrunkFailure.op)`): \(shrunkFailure.message)
                Rules this program exercises: \(shrunk.rules.map(String.init).joined(separator: ", ")) (Rules.md)
                Replay: RULES_MODEL_SEED=\(seed) swift test --filter RulesModelTests
                Shrunk program (\(program.ops.count) operations to \(shrunk.ops.count), then the teardown):
                \(shrunk.swift)
                """
            print(report)
            XCTFail(report)
            return
        }
        let seconds = Date().timeIntervalSince(start)
        print("Rules model: \(seeds.count) programs, \(steps) steps, all as the rules say, in \(String(format: "%.2f", seconds)) s"
            + " (slowest: \(slowest.map { "seed \($0.seed) \(String(format: "%.3f", $0.seconds)) s" }.joined(separator: ", ")))")
    }

    /// A failing step: its number, the operation, what differed.
    struct Failure {
        let step: Int
        let op: String
        let message: String
    }

    /// Runs `program` (then its teardown) on the model and on the library, step by step.
    static func run(_ program: Program) -> (steps: Int, failure: Failure?) {
        let model = Model()
        let library = LibraryRunner()
        defer { library.finish() }
        let ops = program.ops + program.teardown
        let trace = environment["RULES_MODEL_TRACE"] != nil
        for (index, op) in ops.enumerated() {
            model.run(op)
            library.run(op)
            if trace {
                print("\(index): \(op.swift)")
                for event in library.observation.events { print("      \(event)") }
                if !library.observation.released.isEmpty { print("      released \(library.observation.released.sorted())") }
                print("      " + library.observation.states.sorted { $0.key < $1.key }
                    .map { "\(StateKey.name($0.key))=\($0.value)" }.joined(separator: " "))
            }
            if let message = difference(model: model.observation, library: library.observation, ignoring: model.ignored) {
                let where_ = index < program.ops.count ? "\(index)" : "teardown \(index - program.ops.count)"
                return (index + 1, Failure(step: index, op: "\(where_): \(op.swift)", message: message))
            }
        }
        return (ops.count, nil)
    }
}

extension Program {
    /// Drops everything the program made (except tokens), then drains: rule 1 says what must
    /// then be cancelled, and every closure must be released that nothing keeps.
    var teardown: [Op] {
        var wrappers: [Int] = [], promises: [Int] = [], resolvers: [Int] = [], delayed: [Int] = [], operations: [Int] = []
        for op in ops {
            switch op {
            case .make(let p): promises.append(p); resolvers.append(p)
            case .resolved(let p, _), .pass(let p, _, _), .propagating(let p, _, _, _, _), .whenAll(let p, _, _),
                 .whenFirst(let p, _, _), .timeout(let p, _, _, _), .delay(let p, _, _, _), .after(let p, _, _, _, _):
                promises.append(p)
            case .chain(let c, let parent, _, _, _, _, _): if c != parent { promises.append(c) }
            case .initOn(let p, _, _, _): promises.append(p); resolvers.append(p)
            case .delayed(let d, _, _, _): delayed.append(d); promises.append(d); resolvers.append(d)
            case .operation(let o, _, _, _): operations.append(o); promises.append(o); resolvers.append(o)
            case .withToken(let t, _, _), .tokenChain(let t, _, _, _, _, _, _), .tokenPass(let t, _, _, _): wrappers.append(t)
            case .retry(let p, _, _, _, _, let specs, _):
                promises.append(p)
                for case .pending(let id, _, _, _) in specs {
                    promises.append(id)
                    resolvers.append(id)
                }
            default: break
            }
        }
        return wrappers.map { .dropTokenPromise(t: $0) } + promises.map { .dropHandle(p: $0) }
            + resolvers.map { .dropResolver(r: $0) } + delayed.map { .dropDelayed(d: $0) }
            + operations.map { .dropOperation(o: $0) } + [.drain]
    }
}
#endif
