// swift-tools-version: 6.1
import PackageDescription

// Ledger: the core of the personal-finance app (accounts, bank import, FX, transfers, budgets,
// statements, the offline outbox), on Tomorrowland promises.
//
// The dependency is a checkout of Tomorrowland for SwiftPM three levels up (this package lives
// at <repo>/Tools/BlindCorpora/Ledger); a path dependency's identity is its folder's name.

let package = Package(
    name: "Ledger",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "LedgerCore", targets: ["LedgerCore"]),
        .library(name: "LedgerFeatures", targets: ["LedgerFeatures"]),
        .library(name: "LedgerFeaturesLite", targets: ["LedgerFeaturesLite"]),
    ],
    dependencies: [
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(
            name: "LedgerCore",
            dependencies: [.product(name: "Tomorrowland", package: "Tomorrowland")]
        ),
        .target(
            name: "LedgerFeatures",
            dependencies: ["LedgerCore", .product(name: "Tomorrowland", package: "Tomorrowland")]
        ),
        // The widget extension's slice of the features. Shared.swift is a symbolic link to
        // ../LedgerFeatures/Shared.swift: one file compiled into both modules.
        .target(
            name: "LedgerFeaturesLite",
            dependencies: ["LedgerCore", .product(name: "Tomorrowland", package: "Tomorrowland")]
        ),
        .testTarget(
            name: "LedgerCoreTests",
            dependencies: ["LedgerCore", "LedgerFeatures", "LedgerFeaturesLite", .product(name: "Tomorrowland", package: "Tomorrowland")]
        ),
        // TwinTests/LedgerCoreTwinTests exercises the async twins of the promise functions.
        // It is not a target yet: the migration step that adds the twins (tomorrowland-migrate
        // add-async-twins) also adds this target, as
        //   .testTarget(name: "LedgerCoreTwinTests",
        //               dependencies: ["LedgerCore", "LedgerFeatures",
        //                              .product(name: "TomorrowlandAsync", package: "Tomorrowland")],
        //               path: "TwinTests/LedgerCoreTwinTests"),
        // once the twins exist.
    ],
    // Written in the Swift 5 era. (NOTES.md: what it takes to build in Swift 5 and 6 mode.)
    swiftLanguageModes: [.v5]
)
