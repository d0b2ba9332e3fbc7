// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// `PHARMACY_SWIFT_MODE=5` builds every target in Swift 5 language mode (the mode the 1.x code
/// was written for); without it the targets use the tools' default, Swift 6.
let languageMode: [SwiftSetting] =
    ProcessInfo.processInfo.environment["PHARMACY_SWIFT_MODE"] == "5" ? [.swiftLanguageMode(.v5)] : []

let package = Package(
    name: "Pharmacy",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "PharmacyCore", targets: ["PharmacyCore"]),
    ],
    dependencies: [
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(
            name: "PharmacyCore",
            dependencies: [
                .product(name: "Tomorrowland", package: "Tomorrowland"),
            ],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "PharmacyCoreTests",
            dependencies: [
                "PharmacyCore",
                .product(name: "Tomorrowland", package: "Tomorrowland"),
            ],
            swiftSettings: languageMode
        ),
        // The async twins' tests. tomorrowland-migrate's add-async-twins step writes the twins
        // into PharmacyCore; uncomment this target (and add TomorrowlandAsync to PharmacyCore's
        // dependencies) once they exist.
        // .testTarget(
        //     name: "PharmacyCoreTwinTests",
        //     dependencies: [
        //         "PharmacyCore",
        //         .product(name: "Tomorrowland", package: "Tomorrowland"),
        //         .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        //     ],
        //     path: "TwinTests/PharmacyCoreTwinTests",
        //     swiftSettings: languageMode
        // ),
    ]
)
