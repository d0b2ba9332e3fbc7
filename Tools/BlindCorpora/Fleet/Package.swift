// swift-tools-version: 6.1
import Foundation
import PackageDescription

let languageMode: [SwiftSetting] =
    ProcessInfo.processInfo.environment["FLEET_SWIFT_MODE"] == "5" ? [.swiftLanguageMode(.v5)] : []

let package = Package(
    name: "Fleet",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "FleetCore", targets: ["FleetCore"]),
    ],
    dependencies: [
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(
            name: "FleetCore",
            dependencies: [.product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "FleetCoreTests",
            dependencies: ["FleetCore", .product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        // The async twins' tests: enabled once `tomorrowland-migrate add-async-twins` has written the twins.
        // .testTarget(
        //     name: "TwinTests",
        //     dependencies: [
        //         "FleetCore",
        //         .product(name: "Tomorrowland", package: "Tomorrowland"),
        //         .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        //     ],
        //     path: "Tests/TwinTests",
        //     swiftSettings: languageMode
        // ),
    ]
)
