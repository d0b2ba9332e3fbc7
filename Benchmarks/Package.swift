// swift-tools-version: 6.1
// Benchmarks for Tomorrowland, with the libraries users would pick instead measured in the
// same binary. A separate package so that the library itself keeps zero dependencies.
//
//   swift package benchmark                       # timings + exact malloc counts (package-benchmark)
//   scripts/instructions.sh                       # instructions/op under callgrind (stable numbers)
//   scripts/check-allocations.sh                  # what CI runs: malloc counts vs Thresholds/ (AllocationGate)
//
// With TOMORROWLAND_ALLOCATION_GATE_ONLY set (scripts/check-allocations.sh sets it, with its own
// scratch path .build-gate), the package declares only AllocationGate and what it links: SwiftPM
// then neither resolves package-benchmark, NIO and OpenCombine nor builds the benchmark
// plugin's tools, which it builds for every target that uses the plugin, whatever the product
// asked for (60 of the 85 s of CPU the gate's build took otherwise).

import PackageDescription
import class Foundation.ProcessInfo

let gateOnly = ProcessInfo.processInfo.environment["TOMORROWLAND_ALLOCATION_GATE_ONLY"] != nil

/// What AllocationGate needs.
let gateDependencies: [Package.Dependency] = [
    .package(name: "Tomorrowland", path: "../"),
    // package-benchmark's malloc counter, also used alone by AllocationGate.
    .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
]
let gateTargets: [Target] = [
    // `Scenario`, `Sizing`, the sinks and the thread helper shared by every scenario.
    .target(name: "ScenarioKit"),
    // Tomorrowland's side of every scenario, as plain functions `(n) -> checksum`.
    .target(
        name: "TomorrowlandScenarios",
        dependencies: [
            "ScenarioKit",
            .product(name: "Tomorrowland", package: "Tomorrowland"),
            .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        ]
    ),
    // CI's allocation gate (scripts/check-allocations.sh): the `Allocations` target's
    // scenarios measured as package-benchmark measures them, with its malloc interposer alone.
    .executableTarget(
        name: "AllocationGate",
        dependencies: [
            "ScenarioKit", "TomorrowlandScenarios",
            .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
        ]
    ),
]

let package = Package(
    name: "TomorrowlandBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: gateDependencies + (gateOnly ? [] : [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ]),
    targets: gateTargets + (gateOnly ? [] : [
        // The same workloads with NIO, OpenCombine, raw Swift concurrency and Dispatch.
        .target(
            name: "PeerScenarios",
            dependencies: [
                "ScenarioKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        // Registers scenarios as package-benchmark benchmarks.
        .target(
            name: "BenchmarkSupport",
            dependencies: ["ScenarioKit", .product(name: "Benchmark", package: "benchmark")]
        ),
        // `InstructionHarness run NAME N`: one scenario per process, for scripts/instructions.sh.
        .executableTarget(name: "InstructionHarness", dependencies: ["CHeapStats", "TomorrowlandScenarios", "PeerScenarios"]),
        // glibc heap statistics for the harness's memory measurement.
        .target(name: "CHeapStats"),
        // Ours and every peer side by side: `swift package benchmark --target Comparison`.
        .executableTarget(
            name: "Comparison",
            dependencies: [
                "BenchmarkSupport", "TomorrowlandScenarios", "PeerScenarios",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Comparison",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Ours only, with exact malloc-count thresholds (Thresholds/, which AllocationGate
        // checks in CI): the same measurement through package-benchmark, for humans.
        .executableTarget(
            name: "Allocations",
            dependencies: [
                "BenchmarkSupport", "ScenarioKit", "TomorrowlandScenarios",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Allocations",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]),
    swiftLanguageModes: [.v6]
)
