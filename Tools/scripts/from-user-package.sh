#!/usr/bin/env bash
# The migration tool run as the README tells a user to run it: from the root of a package of
# their own that depends on this checkout by path, with the checkout next to it as
# `../Tomorrowland`:
#
#   swift run --package-path ../Tomorrowland/Tools tomorrowland-migrate report Sources/
#
# Makes a temporary folder with `Tomorrowland`, a symbolic link to this checkout (the identity
# SwiftPM gives a path dependency is the folder's name; it resolves the link, so the tool's
# build is this checkout's Tools/.build), and `App`, a package whose one file has two
# promise-returning functions. Runs the command above from App/ and fails if it fails or if
# the report does not list both functions. The first run builds the tool; every run builds
# the library in App/.build, as a user's first run does.
#
#   Tools/scripts/from-user-package.sh
set -euo pipefail
checkout=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ln -s "$checkout" "$work/Tomorrowland"
mkdir -p "$work/App/Sources/App"
cat > "$work/App/Package.swift" <<'EOF'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../Tomorrowland"),
    ],
    targets: [
        .executableTarget(name: "App", dependencies: [
            .product(name: "TomorrowlandAsync", package: "Tomorrowland"),
        ]),
    ]
)
EOF
cat > "$work/App/Sources/App/App.swift" <<'EOF'
import TomorrowlandAsync

func fetchNumber() -> StdPromise<Int> {
    Promise(on: .utility) { resolver in resolver.fulfill(with: 21) }
}

func doubled() -> StdPromise<Int> {
    fetchNumber().map(on: .utility) { $0 * 2 }
}

@main
struct App {
    static func main() async throws {
        print(try await doubled().value)
    }
}
EOF

cd "$work/App"
echo "== from $PWD: swift run --package-path ../Tomorrowland/Tools tomorrowland-migrate report Sources/"
swift run --package-path ../Tomorrowland/Tools tomorrowland-migrate report Sources/ > "$work/report.txt"
cat "$work/report.txt"
# The report's first table, up to the blank line after it.
awk '/^== Declarations returning promises/ { table = 1 } table && /^$/ { exit } table' "$work/report.txt" > "$work/promises.txt"
for function in 'fetchNumber()' 'doubled()'; do
    if ! grep -q "Sources/App/App.swift:[0-9]* *function *$function" "$work/promises.txt"; then
        echo "error: the report does not list $function among the declarations returning promises" >&2
        exit 1
    fi
done
echo "== the report, run from a user's package, lists both promise-returning functions"
