#!/usr/bin/env bash
# CI gate: Tomorrowland's exact malloc counts against Benchmarks/Thresholds/<swift version>/.
#
# Builds and runs AllocationGate (Sources/AllocationGate), which measures every scenario of
# `deterministicAllocations` (Sources/ScenarioKit/Scenario.swift) as the `Allocations`
# package-benchmark target does (same runs, warm-up, malloc interposer and p90; see the header
# of AllocationGate.swift) without building package-benchmark, its plugin's tools or the peers,
# and compares mallocCountTotal with the checked-in p90 thresholds at zero tolerance. Timings
# are never checked.
#   exit 0  counts equal the thresholds, or lower (then it asks for a threshold update)
#   exit 1  an allocation regression (seen in two runs), a gated scenario without a thresholds
#           file, or the gate failed to build or run
# After an intended change in allocations, update the thresholds with:
#   Benchmarks/scripts/check-allocations.sh update
# (package-benchmark writes the same files: cd Benchmarks && swift package
#  --allow-writing-to-package-directory benchmark thresholds update --target Allocations
#  --path Thresholds/<swift version>)
set -uo pipefail
cd "$(dirname "$0")/.."

mode=check
case "${1:-}" in
    "") ;;
    update) mode=update ;;
    *) echo "usage: $0 [update]"; exit 64 ;;
esac

version=$(swift --version 2>&1 | sed -nE 's/.*Swift version ([0-9]+\.[0-9]+).*/\1/p' | head -1)
thresholds="Thresholds/$version"
if [ "$mode" = update ]; then
    mkdir -p "$thresholds"
elif [ ! -d "$thresholds" ]; then
    echo "check-allocations: no thresholds for Swift $version in Benchmarks/$thresholds; record them with:"
    echo "  Benchmarks/scripts/check-allocations.sh update"
    echo "check-allocations: skipped"
    exit 0
fi

# Only what the gate links (see the header of Package.swift), in a scratch path of its own so
# that the full package's .build keeps its resolution.
TOMORROWLAND_ALLOCATION_GATE_ONLY=1 swift build -c release --product AllocationGate --scratch-path .build-gate \
    || { echo "check-allocations: FAILED: AllocationGate did not build"; exit 1; }
gate() {
    .build-gate/release/AllocationGate "$mode" "$thresholds"
}
gate
status=$?
# The malloc interposer counts every thread's allocations during a measured run, so a
# background thread (a libdispatch worker winding down, a lazily made runtime table) can add
# one stray allocation to one run, and on a loaded machine to many. A real regression adds at
# least one allocation per operation to every run: so a scenario is above its threshold only
# when every run of it is (AllocationGate compares the minimum), and that must reproduce in a
# second, independent measurement before the gate fails.
if [ "$status" -eq 2 ]; then
    echo "check-allocations: above a threshold; measuring again to rule out a stray allocation from another thread"
    gate
    status=$?
fi
case "$status" in
    0) echo "check-allocations: malloc counts equal the thresholds in Benchmarks/$thresholds (or were written there)" ;;
    4) echo "check-allocations: fewer allocations than the thresholds: please update Benchmarks/$thresholds (see the header of this script)" ;;
    2) echo "check-allocations: FAILED: more allocations than Benchmarks/$thresholds allows (in two runs)"; exit 1 ;;
    *) echo "check-allocations: FAILED: AllocationGate could not check (exit $status, its reason above)"; exit 1 ;;
esac
