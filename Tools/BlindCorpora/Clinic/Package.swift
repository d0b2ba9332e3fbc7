// swift-tools-version: 6.1
import PackageDescription
import Foundation

let languageMode: [SwiftSetting] =
    ProcessInfo.processInfo.environment["CLINIC_SWIFT_MODE"] == "5" ? [.swiftLanguageMode(.v5)] : []

let package = Package(
    name: "Clinic",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "ClinicCore", targets: ["ClinicCore"]),
    ],
    dependencies: [
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(
            name: "ClinicCore",
            dependencies: [.product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "ClinicCoreTests",
            dependencies: ["ClinicCore", .product(name: "Tomorrowland", package: "Tomorrowland")],
            swiftSettings: languageMode
        ),
        // Added by the migration once the async twins exist:
        // .testTarget(
        //     name: "ClinicCoreTwinTests",
        //     dependencies: [
        //         "ClinicCore",
        //         .product(name: "Tomorrowland", package: "Tomorrowland"),
        //         .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        //     ],
        //     path: "TwinTests/ClinicCoreTwinTests",
        //     swiftSettings: languageMode
        // ),
    ]
)
