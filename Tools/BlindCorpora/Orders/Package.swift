// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Orders",
    products: [
        .library(name: "OrdersCore", targets: ["OrdersCore"]),
    ],
    dependencies: [
        .package(name: "Tomorrowland", path: "../../.."),
    ],
    targets: [
        .target(
            name: "OrdersCore",
            dependencies: [
                .product(name: "Tomorrowland", package: "Tomorrowland"),
            ],
            path: "Sources/OrdersCore"
        ),
        .testTarget(
            name: "OrdersCoreTests",
            dependencies: [
                "OrdersCore",
                .product(name: "Tomorrowland", package: "Tomorrowland"),
            ],
            path: "Tests/OrdersCoreTests"
        ),
    ],
    swiftLanguageModes: [.v5]
)
