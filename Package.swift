// swift-tools-version: 6.1
import PackageDescription

/// Compiles in the schedule points of the interleaving explorer and its put-back bugs
/// (State/SchedulePoints.swift), in debug builds. Given only to `TomorrowlandExplored` and
/// `InterleavingTests`: the `Tomorrowland` target, the one a dependent's build compiles, never
/// has it, in any configuration (`.ci/check-schedule-points.sh` checks both builds' objects).
let schedulePoints = SwiftSetting.define("TOMORROWLAND_SCHEDULE_POINTS", .when(configuration: .debug))

/// With `TOMORROWLAND_CONCURRENT_TARGETS=1` in the environment, the manifest keeps only the
/// library and the test targets that run it on racing threads (`TomorrowlandTests`,
/// `TomorrowlandAsyncTests`, the client and original suites): what the thread sanitizer can
/// judge. The explorer's targets run one thread at a time (the sanitizer sees only its
/// hand-offs), the placement and documentation tests check where and what, not races, and
/// their build was 40% of the sanitizer stage's. `.ci/run` sets it for
/// `swift test --sanitize=thread` alone; the README's `swift test` builds and runs everything.
let concurrentTargetsOnly = Context.environment["TOMORROWLAND_CONCURRENT_TARGETS"] == "1"
let notRacingThreads: Set<String> = [
    "TomorrowlandExplored", "InterleavingTests", "RulesModelTests", "PlacementTests", "PlacementSwift5Tests", "DocumentationTests",
    "IndexDirectory", "AwaitWithCancellation", "AsyncToPromise", "ActorOnQueue", "InvalidationViewModel",
]

let package = Package(
    name: "Tomorrowland",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Tomorrowland", targets: ["Tomorrowland"]),
        .library(name: "TomorrowlandAsync", targets: ["TomorrowlandAsync"]),
    ],
    targets: [
        .target(name: "Tomorrowland"),
        // The library's sources again (Tests/TomorrowlandExplored is a symbolic link to
        // Sources/Tomorrowland), compiled with the explorer's schedule points for
        // InterleavingTests alone. No product contains it: a dependent never builds it, while
        // this package's `swift test` builds and runs it.
        .target(
            name: "TomorrowlandExplored",
            path: "Tests/TomorrowlandExplored",
            exclude: ["Tomorrowland.docc"],
            swiftSettings: [schedulePoints]
        ),
        .target(name: "TomorrowlandAsync", dependencies: ["Tomorrowland"]),
        // The helpers the test targets share (TestError, Counter, eventually, SwiftCompiler, …): a
        // plain target in Swift 6 mode, imported by the Swift 5 mode targets too.
        .target(name: "TestSupport", dependencies: ["Tomorrowland"], path: "Tests/TestSupport"),
        .testTarget(name: "TomorrowlandTests", dependencies: ["Tomorrowland", "TestSupport"]),
        .testTarget(name: "TomorrowlandAsyncTests", dependencies: ["TomorrowlandAsync", "TestSupport"]),
        // Every interleaving of small scenarios, by a deterministic scheduler, on TomorrowlandExplored
        // (debug builds only).
        .testTarget(name: "InterleavingTests", dependencies: ["TomorrowlandExplored"], swiftSettings: [schedulePoints]),
        // A reference model of the rules (Rules.md), checked against TomorrowlandExplored on
        // seeded random programs, with timers on a virtual clock (debug builds only).
        .testTarget(name: "RulesModelTests", dependencies: ["TomorrowlandExplored"], swiftSettings: [schedulePoints]),
        // Written the way Tomorrowland 1.x users write code, in Swift 5 mode: must keep compiling.
        .testTarget(
            name: "Swift5ClientTests",
            dependencies: ["Tomorrowland", "TomorrowlandAsync"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The original Tomorrowland 1.x test suite's expectations, rebuilt on the public API
        // and written as upstream wrote them (Swift 5 mode).
        .testTarget(
            name: "OriginalSuiteTests",
            dependencies: ["Tomorrowland", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Swift 6 mode: Sendable checking is sound for clients.
        .testTarget(name: "Swift6ClientTests", dependencies: ["Tomorrowland", "TomorrowlandAsync", "TestSupport"]),
        // Written blind (from the public docs and 1.4's sources, Tests/BlindInputs/Issue36): where
        // callbacks run by context and isolation, and where every combinator and timer resolves
        // its output, as 1.4 did; Swift 6 mode and, through symbolic links, Swift 5 mode.
        .testTarget(name: "PlacementTests", dependencies: ["Tomorrowland", "TomorrowlandAsync"]),
        .testTarget(
            name: "PlacementSwift5Tests",
            dependencies: ["Tomorrowland", "TomorrowlandAsync"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Written blind (from the public docs only, Tests/BlindInputs/AsyncBridge): what the docs
        // promise for promises made from async code, contexts as executors and awaiting promises.
        .testTarget(name: "AsyncBridgeClientTests", dependencies: ["Tomorrowland", "TomorrowlandAsync"]),
        // Every ```swift block of README.md, MIGRATION.md and the DocC catalogs is compiled here
        // (or in an example), and a test checks that the docs and this code still agree.
        .testTarget(name: "DocumentationTests", dependencies: ["TomorrowlandAsync", "TestSupport"]),
        // Examples/: runnable programs, `swift run NAME` (see the README).
        .executableTarget(name: "IndexDirectory", dependencies: ["TomorrowlandAsync"], path: "Examples/IndexDirectory"),
        .executableTarget(name: "AwaitWithCancellation", dependencies: ["TomorrowlandAsync"], path: "Examples/AwaitWithCancellation"),
        .executableTarget(name: "AsyncToPromise", dependencies: ["TomorrowlandAsync"], path: "Examples/AsyncToPromise"),
        .executableTarget(name: "ActorOnQueue", dependencies: ["TomorrowlandAsync"], path: "Examples/ActorOnQueue"),
        .executableTarget(name: "InvalidationViewModel", dependencies: ["TomorrowlandAsync"], path: "Examples/InvalidationViewModel"),
    ].filter { !concurrentTargetsOnly || !notRacingThreads.contains($0.name) },
    swiftLanguageModes: [.v6]
)
