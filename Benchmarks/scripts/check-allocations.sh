#!/usr/bin/env bash
# CI gate: Tomorrowland's exact malloc counts against Benchmarks/Thresholds/<swift version>/.
#
# Runs the `Allocations` package-benchmark target (ours only: it links neither NIO nor
# OpenCombine, so CI does not build them) and checks mallocCountTotal against the checked-in
# p90 thresholds with zero tolerance. Timings are never checked.
#   exit 0  counts equal the thresholds, or lower (then it asks for a threshold update)
#   exit 1  an allocation regression (seen in two runs), or the benchmarks failed to build or run
# After an intended change in allocations, update the thresholds with:
#   cd Benchmarks && swift package --allow-writing-to-package-directory benchmark \
#       thresholds update --target Allocations --path Thresholds/<swift version>
set -uo pipefail
cd "$(dirname "$0")/.."

version=$(swift --version 2>&1 | sed -nE 's/.*Swift version ([0-9]+\.[0-9]+).*/\1/p' | head -1)
thresholds="Thresholds/$version"
if [ ! -d "$thresholds" ]; then
    echo "check-allocations: no thresholds for Swift $version in Benchmarks/$thresholds; record them with:"
    echo "  swift package --allow-writing-to-package-directory benchmark thresholds update --target Allocations --path $thresholds"
    echo "check-allocations: skipped"
    exit 0
fi

# The plugin skips a gated scenario that has no thresholds file, so a scenario added to
# `deterministicAllocations` (Sources/ScenarioKit/Scenario.swift) without one would go unchecked.
gated=$(sed -nE 's/.*let deterministicAllocations: Set<String> = \[(.*)\].*/\1/p' Sources/ScenarioKit/Scenario.swift | tr -d '" ' | tr ',' ' ')
[ -n "$gated" ] || { echo "check-allocations: FAILED: could not read deterministicAllocations"; exit 1; }
for id in $gated; do
    [ -f "$thresholds/Allocations.$id.Tomorrowland.p90.json" ] \
        || { echo "check-allocations: FAILED: no thresholds file for gated scenario '$id' in Benchmarks/$thresholds"; exit 1; }
done

# `swift package` exits 1 for both "worse" and "better" (the plugin maps the tool's 2 and 4
# to a thrown error), so the verdict is read from the tool's own closing line.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
check() {
    swift package benchmark thresholds check --target Allocations --path "$thresholds" --no-progress 2>&1 | tee "$log"
}
check
# The malloc interposer counts every thread's allocations during a measured run, so a
# background thread (a libdispatch worker winding down, a lazily made runtime table) can add
# one stray allocation to one run. A real regression adds at least one allocation per
# operation, i.e. thousands per run, and shows again: so a count above a threshold must
# reproduce in a second, independent run before the gate fails.
if grep -q "is WORSE than the defined thresholds" "$log"; then
    echo "check-allocations: above a threshold; measuring again to rule out a stray allocation from another thread"
    check
fi
if grep -q "is WORSE than the defined thresholds" "$log"; then
    echo "check-allocations: FAILED: more allocations than Benchmarks/$thresholds allows (in two runs)"
    exit 1
elif grep -q "is BETTER than the defined thresholds" "$log"; then
    echo "check-allocations: fewer allocations than the thresholds: please update Benchmarks/$thresholds (see the header of this script)"
elif grep -q "is EQUAL to the defined thresholds" "$log"; then
    echo "check-allocations: malloc counts equal the thresholds in Benchmarks/$thresholds"
else
    echo "check-allocations: FAILED: the Allocations benchmarks did not build or run"
    exit 1
fi
