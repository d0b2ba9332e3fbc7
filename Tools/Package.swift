// swift-tools-version: 6.1
// `tomorrowland-migrate`: makes a Tomorrowland 1.x codebase compile against this package
// (`adopt`), then moves it from promises to async/await one function at a time. A separate
// package so that the library itself keeps zero dependencies.
//
//   swift run --package-path Tools tomorrowland-migrate adopt Sources/ [--write]   # from 1.x: first
//   swift run --package-path Tools tomorrowland-migrate report Sources/
//   swift run --package-path Tools tomorrowland-migrate add-async-twins Sources/ [--write]
//   swift run --package-path Tools tomorrowland-migrate add-promise-twins Sources/ [--all] [--write]
//   swift test --package-path Tools               # what CI runs

import PackageDescription

let package = Package(
    name: "TomorrowlandTools",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tomorrowland-migrate", targets: ["tomorrowland-migrate"]),
    ],
    dependencies: [
        // Only the tests use the library: they compile what the tool writes against it.
        .package(name: "Tomorrowland", path: "../"),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "602.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        // Scanning, rewriting and reporting: everything testable, no I/O beyond reading files.
        .target(
            name: "TomorrowlandMigrateKit",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        // The command line: argument parsing and printing only.
        .executableTarget(
            name: "tomorrowland-migrate",
            dependencies: [
                "TomorrowlandMigrateKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "TomorrowlandMigrateKitTests",
            dependencies: [
                "TomorrowlandMigrateKit",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                // Built so that the tests can compile rewritten fixtures against its module.
                .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
            ],
            // 1.x-style sources the tests run the tool on; compiled by the tests, not by SwiftPM.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
