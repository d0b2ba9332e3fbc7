#!/usr/bin/env bash
# Wall-clock time, exact malloc counts and requested bytes per operation, for Tomorrowland
# and every peer, from the package-benchmark `Comparison` target (p50 over its iterations).
#
#   Benchmarks/scripts/timings.sh [REGEX]    REGEX matches whole names, e.g. '.*\.Tomorrowland' or 'a\..*'
#
# Timings on a shared 2-core machine vary by 1.5x between runs: use instructions.sh for
# ratios you want to rely on, and this for time, allocations and bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${BENCH_WORK:-$PWD/.build/timings}"
mkdir -p "$out"
filter=()
[ $# -ge 1 ] && filter=(--filter "$1")
swift package --allow-writing-to-directory "$out" benchmark --target Comparison "${filter[@]}" \
    --no-progress --format jmh --path "$out" >"$out/run.log" 2>&1 || { cat "$out/run.log"; exit 1; }
python3 - "$out/Current_run.jmh.json" <<'PY'
import json, sys

def size(scenario_id):
    # Mirrors Sizing.of in Sources/ScenarioKit/Sizing.swift.
    return {"k": 100_000, "k-nested": 100_000, "l": 100_000, "j": 10_000,
            "i1": 200_000, "i2": 200_000}.get(scenario_id, 1_000)

rows = []
for entry in json.load(open(sys.argv[1])):
    name = entry["benchmark"].split("Comparison.", 1)[1]
    scenario_id, library = name.split(".", 1)
    metrics = {k: v["scorePercentiles"]["50.0"] for k, v in entry["secondaryMetrics"].items()}
    n = size(scenario_id)
    rows.append((scenario_id, library,
                 metrics.get("Time (wall clock)", 0) * 1000 / n,   # μs per iteration -> ns per op
                 metrics.get("Malloc (total)", 0) / n,
                 metrics.get("Malloc (bytes total)", 0) / n))
ours = {r[0]: r[2] for r in rows if r[1] == "Tomorrowland"}
print(f"{'scenario':10} {'library':22} {'ns/op':>10} {'allocs/op':>10} {'bytes/op':>10} {'ours ÷ this':>12}")
for scenario_id, library, ns, allocs, size_bytes in sorted(rows, key=lambda r: (r[0], r[1] != "Tomorrowland", r[1])):
    ratio = f"{ours[scenario_id] / ns:.2f}" if scenario_id in ours and ns else "-"
    print(f"{scenario_id:10} {library:22} {ns:10.1f} {allocs:10.2f} {size_bytes:10.1f} {ratio:>12}")
PY
