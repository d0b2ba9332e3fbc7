// swift-tools-version: 6.1
// A ~1,000-line app core written the way teams used Tomorrowland 1.x, that
// Tools/scripts/migrate-corpus.sh migrates with `tomorrowland-migrate` (no hand edits), then
// builds and tests in Swift 6 and Swift 5 mode. Not part of the Tools package.
import PackageDescription

let package = Package(
    name: "AppCore",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tomorrowland", path: "../.."),
    ],
    targets: [
        // The team already links TomorrowlandAsync (for its first async code).
        .target(name: "AppCore", dependencies: [
            .product(name: "Tomorrowland", package: "Tomorrowland"),
            .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        ]),
        .testTarget(name: "AppCoreTests", dependencies: [
            "AppCore",
            .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
