// swift-tools-version: 6.0
import Foundation
import PackageDescription

// The team builds in Swift 6 language mode. `GALLERY_SWIFT_MODE=5 swift build` builds the same
// sources in Swift 5 mode (the CI job that still runs the old toolchain settings).
let swift5Mode = ProcessInfo.processInfo.environment["GALLERY_SWIFT_MODE"] == "5"

let package = Package(
    name: "Gallery",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "GalleryCore", targets: ["GalleryCore"]),
        .library(name: "GalleryUpload", targets: ["GalleryUpload"]),
        .library(name: "GalleryUI", targets: ["GalleryUI"]),
    ],
    dependencies: [
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(
            name: "GalleryCore",
            dependencies: [.product(name: "Tomorrowland", package: "Tomorrowland")]
        ),
        .target(
            name: "GalleryUpload",
            dependencies: ["GalleryCore", .product(name: "Tomorrowland", package: "Tomorrowland")]
        ),
        .target(
            name: "GalleryUI",
            dependencies: ["GalleryCore", "GalleryUpload", .product(name: "Tomorrowland", package: "Tomorrowland")]
        ),
        .testTarget(
            name: "GalleryCoreTests",
            dependencies: ["GalleryCore", .product(name: "Tomorrowland", package: "Tomorrowland")]
        ),
        .testTarget(
            name: "GalleryUploadTests",
            dependencies: ["GalleryUpload", "GalleryCore", "GalleryUI", .product(name: "Tomorrowland", package: "Tomorrowland")]
        ),
        // Tests of the async twins, enabled once the twins exist (they call `async` overloads
        // of the promise functions that are not written yet).
        // .testTarget(
        //     name: "TwinTests",
        //     dependencies: [
        //         "GalleryCore", "GalleryUpload", "GalleryUI",
        //         .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        //     ]
        // ),
    ],
    swiftLanguageModes: swift5Mode ? [.v5] : [.v6]
)
