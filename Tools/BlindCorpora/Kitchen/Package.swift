// swift-tools-version: 6.0
import PackageDescription

/// The kitchen builds in Swift 5 language mode. `KITCHEN_SWIFT_MODE=6 swift build` drops the
/// setting, so every target builds in the tools version's default mode (Swift 6), to see what
/// moving the module to Swift 6 would cost.
let swift6Mode = Context.environment["KITCHEN_SWIFT_MODE"] == "6"

let package = Package(
    name: "Kitchen",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "KitchenCore", targets: ["KitchenCore"]),
        .library(name: "KitchenReports", targets: ["KitchenReports"]),
    ],
    dependencies: [
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(name: "KitchenCore", dependencies: [.product(name: "Tomorrowland", package: "Tomorrowland")]),
        .target(name: "KitchenReports", dependencies: ["KitchenCore"]),
        .testTarget(name: "KitchenCoreTests", dependencies: ["KitchenCore", "KitchenReports"]),
        // The async twins' tests. Enable once the promise functions have their async twins.
        // .testTarget(
        //     name: "TwinTests",
        //     dependencies: ["KitchenCore", "KitchenReports", .product(name: "TomorrowlandAsync", package: "Tomorrowland")]
        // ),
    ],
    swiftLanguageModes: swift6Mode ? nil : [.v5]
)
