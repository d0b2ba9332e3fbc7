#!/usr/bin/env bash
# Wall-time ratios ours ÷ peer, each pair interleaved in one process over many rounds, so a
# time target can be checked on a noisy shared machine (timings.sh gives absolute p50s,
# which move by 1.5x between runs; these ratios move by a few percent).
#
#   Benchmarks/scripts/ratios.sh [ROUNDS] [FILTER]   e.g. ratios.sh 101 '^(a|f)\.'
#
# Builds the release InstructionHarness (HARNESS=path measures one built elsewhere) and runs
# `InstructionHarness ratio OURS PEER 0 ROUNDS` (default 41 rounds) for the pairs below:
# each round times four batches, ABBA or BAAB, and records (A1 + A2) / (B1 + B2); the batch
# size is calibrated to RATIO_BATCH_MS (default 20) ms of OURS. Printed: the median wall-time
# ratio, its 95 % confidence interval, the IQR and p10-p90 of the rounds, each side's median
# ns/item, the median and IQR of the process-CPU-time ratio, and the load. Above 1: ours
# takes longer. Last, it checks that actors whose executor is the only owner of
# a queue (g-many-kept) run and exit cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-41}"
filter="${2:-.}"
if [ -n "${HARNESS:-}" ]; then
    harness="$HARNESS"
else
    work="${BENCH_WORK:-$PWD/.build/ratios}"
    mkdir -p "$work"
    swift build -c release --product InstructionHarness >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    harness="$(swift build -c release --show-bin-path)/InstructionHarness"
fi

pairs=(
    "p.Tomorrowland p.NIO-Embedded"
    "a.Tomorrowland a.NIO-Embedded"
    "b.Tomorrowland b.NIO-Embedded"
    "c.Tomorrowland c.NIO-Embedded"
    "e-exec.Tomorrowland e-exec.cancellable-unsafe"
    "f.Tomorrowland f.Task"
    "f-on.Tomorrowland f-on.Task.immediate"
    "f-on.Tomorrowland f.Task"
    "f-on.Task.immediate f.Task"
    "f-on-actor.Tomorrowland f-on-actor.Task.immediate"
    "f.Task+cell f.Task"
    "f.Task+handler f.Task"
    "g-many.Tomorrowland g-many.NIO-executor"
)
for pair in "${pairs[@]}"; do
    grep -qE -- "$filter" <<<"$pair" || continue
    # shellcheck disable=SC2086
    "$harness" ratio $pair 0 "$rounds"
done

if grep -qE -- "$filter" <<<"g-many-kept.Tomorrowland"; then
    if "$harness" run g-many-kept.Tomorrowland 100000; then
        echo "g-many-kept.Tomorrowland: ok (actors keeping only their queue executor, 100,000 calls from 16 Tasks)"
    else
        echo "g-many-kept.Tomorrowland: FAILED (exit $?)"
        exit 1
    fi
fi
