// swift-tools-version:6.1
// The callback API generator: every public API that takes a context and a closure is declared
// three times (one overload per kind of context, see Sources/Tomorrowland/Context/ContextKinds.swift);
// this package writes those overloads, their `with:` and `TokenPromise` variants, Tools' list of
// operators and the placement tests' list of cases from the one table in
// Sources/CallbackAPI/Table.swift. Run from the repository root:
//
//     swift run --package-path Generator generate-callback-api          # writes the files
//     swift run --package-path Generator generate-callback-api --check  # lists stale files
//
// A separate package so that the library gains no dependency. `swift test` fails when a generated
// file is stale (Tests/DocumentationTests/GeneratedCallbackAPITests.swift compiles this package's
// CallbackAPI sources through symbolic links).
import PackageDescription

let package = Package(
    name: "Generator",
    targets: [
        .target(name: "CallbackAPI"),
        .executableTarget(name: "generate-callback-api", dependencies: ["CallbackAPI"]),
    ],
    swiftLanguageModes: [.v6]
)
