// swift-tools-version: 6.1
// `tomorrowland-migrate`: makes a Tomorrowland 1.x codebase compile against this package
// (`adopt`), then moves it from promises to async/await one function at a time. A separate
// package so that the library itself keeps zero dependencies.
//
// From this repository's root (from a user's package, the checkout's Tools folder instead:
// `swift run --package-path ../Tomorrowland/Tools tomorrowland-migrate report Sources/`, README.md):
//
//   swift run --package-path Tools tomorrowland-migrate adopt Sources/ [--write]   # from 1.x: first
//   swift run --package-path Tools tomorrowland-migrate report Sources/
//   swift run --package-path Tools tomorrowland-migrate add-async-twins Sources/ [--write]
//   swift run --package-path Tools tomorrowland-migrate add-promise-twins Sources/ [--all] [--write]
//   swift test --package-path Tools               # what CI runs

import Foundation
import PackageDescription

// swift-syntax: the toolchain's own copy when the first `swift` on PATH ships one
// (`lib/swift/host`, built optimized, with module interfaces and libraries), so that this
// package builds in under a minute instead of about four and parses at release speed;
// otherwise the pinned package. Set TOMORROWLAND_TOOLS_SWIFT_SYNTAX=package to use the
// package anyway, for example when building with a toolchain that is not the one on PATH
// (README.md).
let toolchainSyntax: String? = {
    let environment = ProcessInfo.processInfo.environment
    guard environment["TOMORROWLAND_TOOLS_SWIFT_SYNTAX"] != "package" else { return nil }
    for folder in (environment["PATH"] ?? "").split(separator: ":") {
        let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
        guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
        let host = swift.resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("lib/swift/host").path
        let found = { (path: String) in FileManager.default.fileExists(atPath: path) }
        let complete = ["SwiftSyntax", "SwiftParser"].allSatisfy { module in
            found("\(host)/\(module).swiftmodule") && (found("\(host)/lib\(module).so") || found("\(host)/lib\(module).dylib"))
        }
        return complete ? host : nil
    }
    return nil
}()

let swiftSyntaxProduct: [Target.Dependency] = toolchainSyntax == nil ? [.product(name: "SwiftSyntax", package: "swift-syntax")] : []
let syntaxDependencies: [Target.Dependency] = swiftSyntaxProduct
    + (toolchainSyntax == nil ? [.product(name: "SwiftParser", package: "swift-syntax")] : [])
let syntaxSwiftSettings: [SwiftSetting] = toolchainSyntax.map { [.unsafeFlags(["-I", $0])] } ?? []
let syntaxLinkerSettings: [LinkerSetting] = toolchainSyntax.map {
    [.unsafeFlags(["-L", $0, "-lSwiftSyntax", "-lSwiftParser", "-Xlinker", "-rpath", "-Xlinker", $0])]
} ?? []

let package = Package(
    name: "TomorrowlandTools",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tomorrowland-migrate", targets: ["tomorrowland-migrate"]),
    ],
    dependencies: [
        // Only the tests use the library: they compile what the tool writes against it.
        .package(name: "Tomorrowland", path: "../"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ] + (toolchainSyntax == nil ? [.package(url: "https://github.com/swiftlang/swift-syntax", exact: "602.0.0")] : []),
    targets: [
        // Scanning, rewriting and reporting: everything testable, no I/O beyond reading files.
        .target(
            name: "TomorrowlandMigrateKit",
            dependencies: syntaxDependencies,
            swiftSettings: syntaxSwiftSettings,
            linkerSettings: syntaxLinkerSettings
        ),
        // The command line: argument parsing and printing only.
        .executableTarget(
            name: "tomorrowland-migrate",
            dependencies: [
                "TomorrowlandMigrateKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: syntaxSwiftSettings
        ),
        .testTarget(
            name: "TomorrowlandMigrateKitTests",
            dependencies: [
                "TomorrowlandMigrateKit",
                // Built so that the tests can compile rewritten fixtures against its module.
                .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
            ] + swiftSyntaxProduct,
            // 1.x-style sources the tests run the tool on; compiled by the tests, not by SwiftPM.
            exclude: ["Fixtures"],
            swiftSettings: syntaxSwiftSettings
        ),
        // What convert-body writes in a Swift 5 mode module when a wrapper captures a non-Sendable
        // value the chain's closures captured, run in that mode (its sources are the tool's output).
        .testTarget(
            name: "ConvertedSwiftFiveTests",
            dependencies: [
                .product(name: "Tomorrowland", package: "Tomorrowland"),
                .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
