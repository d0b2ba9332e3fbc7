#!/usr/bin/env bash
# The interleaving explorer's hooks stay in this package's own tests: in a debug build, the
# objects of the `Tomorrowland` target (the one a dependent's build compiles) define no
# schedule-point symbol, and those of `TomorrowlandExplored` (the copy InterleavingTests runs
# on) do, the control that the search would see them.
#
#   .ci/check-schedule-points.sh .build/debug            # this package, after `swift test`
#   .ci/check-schedule-points.sh DEPENDENT/.build/debug  # a dependent (Tools/Corpus): no
#                                                        # TomorrowlandExplored is built there
# `llvm-nm` ships with the Swift toolchain, beside `swift`.
set -euo pipefail
build="${1:?usage: check-schedule-points.sh BUILD_DIR}"
nm=$(command -v llvm-nm || true)
[[ -n "$nm" ]] || nm="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-nm"
[[ -x "$nm" ]] || { echo "check-schedule-points: FAILED: no llvm-nm (looked for $nm)" >&2; exit 1; }

# Defined symbols of a target's objects that belong to the schedule points.
hooks() {
    local objects=("$build/$1.build"/*.o)
    [[ -e "${objects[0]}" ]] || { echo "check-schedule-points: no objects in $build/$1.build" >&2; exit 1; }
    local symbols
    # nm's own failure fails the check; only grep's "no match" means zero.
    symbols=$("$nm" --defined-only "${objects[@]}") || { echo "check-schedule-points: FAILED: llvm-nm on $1" >&2; exit 1; }
    grep -v ':$' <<<"$symbols" | grep -ci 'schedulepoint' || true
}

library=$(hooks Tomorrowland)
echo "Tomorrowland (what a dependent builds): $library schedule-point symbols"
[[ "$library" == 0 ]] || { echo "check-schedule-points: FAILED: the library compiles the explorer's hooks" >&2; exit 1; }
if [[ -d "$build/TomorrowlandExplored.build" ]]; then
    explored=$(hooks TomorrowlandExplored)
    echo "TomorrowlandExplored (InterleavingTests): $explored schedule-point symbols"
    [[ "$explored" -gt 0 ]] || { echo "check-schedule-points: FAILED: the explorer's copy has no hooks" >&2; exit 1; }
fi
echo "check-schedule-points: OK"
