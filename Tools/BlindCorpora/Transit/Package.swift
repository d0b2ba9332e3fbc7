// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// `TRANSIT_SWIFT_MODE=5 swift build` builds every target in Swift 5 language mode; the default is Swift 6.
let languageMode: [SwiftSetting] =
    ProcessInfo.processInfo.environment["TRANSIT_SWIFT_MODE"] == "5" ? [.swiftLanguageMode(.v5)] : []

let package = Package(
    name: "Transit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "TransitCore", targets: ["TransitCore"]),
        .library(name: "TransitUI", targets: ["TransitUI"]),
    ],
    dependencies: [
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(
            name: "TransitCore",
            dependencies: [.product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        .target(
            name: "TransitUI",
            dependencies: ["TransitCore", .product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "TransitCoreTests",
            dependencies: ["TransitCore", "TransitUI", .product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        // Added by the migration once the async twins exist (it needs TomorrowlandAsync):
        // .testTarget(
        //     name: "TransitCoreTwinTests",
        //     dependencies: [
        //         "TransitCore", "TransitUI",
        //         .product(name: "Tomorrowland", package: "Tomorrowland"),
        //         .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        //     ],
        //     path: "TwinTests/TransitCoreTwinTests",
        //     swiftSettings: languageMode
        // ),
    ]
)
