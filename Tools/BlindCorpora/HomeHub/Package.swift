// swift-tools-version: 6.1
import PackageDescription
import Foundation

// The app shipped in Swift 5 language mode. `HOMEHUB_SWIFT_MODE=5 swift build` builds every
// target that way; without it the targets use the tools version's default (Swift 6).
let languageMode: [SwiftSetting] =
    ProcessInfo.processInfo.environment["HOMEHUB_SWIFT_MODE"] == "5" ? [.swiftLanguageMode(.v5)] : []

let package = Package(
    name: "HomeHub",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "HomeHubCore", targets: ["HomeHubCore"]),
        .library(name: "HomeHubUI", targets: ["HomeHubUI"]),
    ],
    dependencies: [
        // The Tomorrowland checkout this corpus lives in (<repo>/Tools/BlindCorpora/HomeHub).
        // A path dependency's identity is the folder's name: "Tomorrowland" assumes the
        // repository is cloned into a folder of that name, as its README recommends.
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(
            name: "HomeHubCore",
            dependencies: [.product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        .target(
            name: "HomeHubUI",
            dependencies: ["HomeHubCore", .product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "HomeHubCoreTests",
            dependencies: ["HomeHubCore", "HomeHubUI", .product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        // TwinTests/HomeHubCoreTwinTests is deliberately not a target yet: its tests call the
        // async twins (`func device(id:) async throws -> Device`, …) that the migration's
        // `add-async-twins` step writes. Once the twins exist, that step adds:
        //
        // .testTarget(
        //     name: "HomeHubCoreTwinTests",
        //     dependencies: ["HomeHubCore", "HomeHubUI", .product(name: "TomorrowlandAsync", package: "Tomorrowland")],
        //     path: "TwinTests/HomeHubCoreTwinTests",
        //     swiftSettings: languageMode
        // ),
    ]
)
