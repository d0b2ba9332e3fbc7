// swift-tools-version: 6.1
import PackageDescription
import Foundation

// RELAY_SWIFT_MODE=5 builds every target in Swift 5 language mode (how the app was written
// against Tomorrowland 1.x); without it the tools' default (Swift 6) applies.
let languageMode: [SwiftSetting] =
    ProcessInfo.processInfo.environment["RELAY_SWIFT_MODE"] == "5" ? [.swiftLanguageMode(.v5)] : []

let package = Package(
    name: "Relay",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "RelayCore", targets: ["RelayCore"]),
    ],
    dependencies: [
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(
            name: "RelayCore",
            dependencies: [.product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "RelayCoreTests",
            dependencies: ["RelayCore", .product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        // The async twins' tests: enabled once the migration has added the twins (they call
        // `try await outbox.send(...)` and friends, and need the TomorrowlandAsync product).
        // .testTarget(
        //     name: "RelayCoreTwinTests",
        //     dependencies: [
        //         "RelayCore",
        //         .product(name: "Tomorrowland", package: "Tomorrowland"),
        //         .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        //     ],
        //     path: "TwinTests/RelayCoreTwinTests",
        //     swiftSettings: languageMode
        // ),
    ]
)
