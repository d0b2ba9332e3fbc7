#!/usr/bin/env bash
# The tool on real 1.x-style code, in Swift 5 and Swift 6 mode: copies the whole package to a
# temporary folder, runs `add-async-twins --write` on Examples/ (Swift 6 mode) and
# Tests/Swift5ClientTests (Swift 5 mode), and `add-promise-twins --all --write` on
# Examples/IndexDirectory, then `convert-calls --write`, `convert-body --write` and
# `delete-twins --write` on both (each proven by the compiler); then builds the copy (the
# targets the tool rewrote and those that compile them) and runs the client tests and the
# documentation tests' run of every example. Not in CI (the blind corpora took its place there:
# Tools/README.md, "Tests, corpora and CI"). (Swift 6 mode code at scale is
# Tools/Corpus's and the blind corpora's part: migrate-corpus.sh.)
#
# Second runs (that each command is idempotent) and the report are checked on Tools/Corpus
# (migrate-corpus.sh) and by the unit tests, not again here.
#
# The tool builds only what the scanned modules import (its first run writes SwiftPM's
# manifest without a build) and keeps the dumps its proofs made (Tools/README.md, "How
# the tool decides"): the client-test modules are compiled once, by the build below.
#
#   Tools/scripts/migrate-a-copy.sh            # from the repository root or anywhere
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
copy="$work/Tomorrowland"
mkdir -p "$copy"
tar -C "$root" --exclude='./.git' --exclude='.build' --exclude='.build-*' --exclude='.build_*' -cf - . | tar -C "$copy" -xf -

# The copy builds only what the tool rewrites, what compiles its output (Swift6ClientTests
# links Swift5ClientTests' shared files) and what those depend on. The other test targets are
# this package's own, unchanged: `swift test` already built and ran them, so they leave the
# copy's manifest (their folders stay, for the documentation tests that read them).
for target in TomorrowlandTests TomorrowlandAsyncTests InterleavingTests RulesModelTests TomorrowlandExplored OriginalSuiteTests PlacementTests PlacementSwift5Tests; do
    TARGET="$target" perl -0pi -e 's/^[ \t]*\.(?:testTarget|target)\(\s*name:\s*"\Q$ENV{TARGET}\E"(?<args>(?:[^()]++|\((?&args)\))*+)\),[ \t]*\n//m' "$copy/Package.swift"
    if grep -qE "name: *\"$target\"" "$copy/Package.swift"; then
        echo "migrate-a-copy: could not take $target out of the copy's Package.swift" >&2
        exit 1
    fi
done

swift build --package-path "$root/Tools" --product tomorrowland-migrate
tool="$(swift build --package-path "$root/Tools" --show-bin-path)/tomorrowland-migrate"
cd "$copy"
targets=(Examples Tests/Swift5ClientTests)

echo "== tomorrowland-migrate add-async-twins --write"
"$tool" add-async-twins "${targets[@]}" --write 2> "$work/notes.txt"
grep -v "gets \`as" "$work/notes.txt" || true
twins=$(grep -rc "Async twin of" "${targets[@]}" | awk -F: '{ sum += $2 } END { print sum }')
pinned=$(grep -c "gets \`as" "$work/notes.txt" || true)
echo "$twins async twins written, $pinned call sites pinned"
if [ "$twins" -lt 20 ]; then echo "expected at least 20 async twins, got $twins" >&2; exit 1; fi

echo "== tomorrowland-migrate add-promise-twins --all --write (the other direction, on the main example)"
"$tool" add-promise-twins --all Examples/IndexDirectory --write
promise_twins=$(grep -rc "Promise twin of" Examples/IndexDirectory | awk -F: '{ sum += $2 } END { print sum }')
echo "$promise_twins promise twins written"
if [ "$promise_twins" -lt 2 ]; then echo "expected at least 2 promise twins, got $promise_twins" >&2; exit 1; fi

# The twins await `.value`, which lives in TomorrowlandAsync: the Swift 5 client tests now
# depend on it (the step MIGRATION.md asks for when the tool reports `added import TomorrowlandAsync`).
perl -0pi -e 's/(name: "Swift5ClientTests",\s*dependencies: \[)"Tomorrowland"\]/$1"Tomorrowland", "TomorrowlandAsync"]/' Package.swift
grep -q '"Tomorrowland", "TomorrowlandAsync"\]' Package.swift || { echo "could not add TomorrowlandAsync to Swift5ClientTests in Package.swift" >&2; exit 1; }

echo "== tomorrowland-migrate convert-calls --write; convert-body --write; delete-twins --write"
"$tool" convert-calls "${targets[@]}" --write 2> "$work/convert-notes.txt"
sed -n 's/^note: //p' "$work/convert-notes.txt" | grep -E "convert-calls: |: left " || true
grep -q "checked by the compiler" "$work/convert-notes.txt" || { echo "convert-calls did not prove its changes" >&2; cat "$work/convert-notes.txt" >&2; exit 1; }
"$tool" convert-body "${targets[@]}" --write 2> "$work/body-notes.txt"
sed -n 's/^note: //p' "$work/body-notes.txt" | grep -E "convert-body: |left as a chain" || true
grep -q "convert-body: [0-9]* of [0-9]* chain bodies converted" "$work/body-notes.txt" || { echo "convert-body printed no tally" >&2; exit 1; }
if grep -q "nothing written" "$work/body-notes.txt"; then echo "convert-body's proof failed" >&2; exit 1; fi
# 8 of 8 after issue 39 (3 before): a final `timeout`, `then(with: self)` and `assumeIsolated` among them.
body_converted=$(sed -n 's/.*convert-body: \([0-9]*\) of .*/\1/p' "$work/body-notes.txt")
if [ "${body_converted:-0}" -lt 8 ]; then echo "expected convert-body to convert at least 8 chain bodies, got ${body_converted:-0}" >&2; exit 1; fi
"$tool" delete-twins "${targets[@]}" --write 2> "$work/delete-notes.txt"
sed -n 's/^note: //p' "$work/delete-notes.txt" | grep -E "delete-twins: " || true
grep -q "checked by the compiler" "$work/delete-notes.txt" || { echo "delete-twins did not prove its changes" >&2; cat "$work/delete-notes.txt" >&2; exit 1; }

echo "== the copy builds, and its Swift 5 client tests and every example's run pass"
swift build --build-tests 2>&1 | grep -E "error:|Build complete"
swift test --skip-build --filter 'Swift5ClientTests|ExamplesRunTests'
echo "migrate-a-copy: OK"
