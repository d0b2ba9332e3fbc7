#!/usr/bin/env bash
# The tool on real 1.x-style code: copies the library, Examples/IndexDirectory and
# Tests/Swift5ClientTests to a temporary package, runs `add-async-twins --write` on the
# example and the tests and `add-promise-twins --all --write` on the example, checks that
# second runs change nothing, then builds the copy and runs the example (Swift 6 mode) and
# the Swift 5 client tests. What CI runs.
#
#   Tools/scripts/migrate-a-copy.sh            # from the repository root or anywhere
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
copy="$work/Tomorrowland"
mkdir -p "$copy/Examples" "$copy/Tests"
cp -R "$root/Sources" "$copy/"
cp -R "$root/Examples/IndexDirectory" "$copy/Examples/"
cp -R "$root/Tests/Swift5ClientTests" "$copy/Tests/"
# The package's own manifest, reduced to the targets copied. The migrated tests await
# `.value`, which lives in TomorrowlandAsync: their target depends on it (the step
# MIGRATION.md asks for when the tool reports `added import TomorrowlandAsync`).
cat > "$copy/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tomorrowland",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "Tomorrowland"),
        .target(name: "TomorrowlandAsync", dependencies: ["Tomorrowland"]),
        .testTarget(
            name: "Swift5ClientTests",
            dependencies: ["Tomorrowland", "TomorrowlandAsync"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(name: "IndexDirectory", dependencies: ["TomorrowlandAsync"], path: "Examples/IndexDirectory"),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST

swift build --package-path "$root/Tools" --product tomorrowland-migrate
tool="$(swift build --package-path "$root/Tools" --show-bin-path)/tomorrowland-migrate"
cd "$copy"
echo "== tomorrowland-migrate report"
"$tool" report Examples/IndexDirectory Tests/Swift5ClientTests | tail -20
echo "== tomorrowland-migrate add-async-twins --write"
"$tool" add-async-twins Examples/IndexDirectory Tests/Swift5ClientTests --write
twins=$(grep -c "added by tomorrowland-migrate" -r Examples Tests | awk -F: '{ sum += $2 } END { print sum }')
echo "$twins async twins written"
if [ "$twins" -lt 5 ]; then echo "expected at least 5 async twins, got $twins" >&2; exit 1; fi
echo "== a second run changes nothing"
second="$("$tool" add-async-twins Examples/IndexDirectory Tests/Swift5ClientTests 2>/dev/null)"
if [ -n "$second" ]; then echo "second run wanted to change:" >&2; echo "$second" >&2; exit 1; fi
echo "== tomorrowland-migrate add-promise-twins --all --write (the other direction, on the example)"
"$tool" add-promise-twins --all Examples/IndexDirectory --write
promise_twins=$(grep -c "Promise twin of" -r Examples | awk -F: '{ sum += $2 } END { print sum }')
echo "$promise_twins promise twins written"
if [ "$promise_twins" -lt 2 ]; then echo "expected at least 2 promise twins, got $promise_twins" >&2; exit 1; fi
second="$("$tool" add-promise-twins --all Examples/IndexDirectory 2>/dev/null)"
if [ -n "$second" ]; then echo "second run wanted to change:" >&2; echo "$second" >&2; exit 1; fi
echo "== the copy builds and passes"
swift build
"$(swift build --show-bin-path)/IndexDirectory" Sources/Tomorrowland/State | tail -3
swift test
echo "migrate-a-copy: OK"
