#!/usr/bin/env bash
# The "Current numbers" table at the top of BENCHMARKS.md: every Tomorrowland scenario against
# its peer, in one markdown table, with the commit, date and load it was measured at.
#
#   Benchmarks/scripts/current-table.sh                 # ~3 min on 2 busy cores, 5 rounds per time ratio
#   ROUNDS=41 Benchmarks/scripts/current-table.sh       # tighter time ratios (~+0.2 s per pair per round)
#   SKIP_TIME=1 Benchmarks/scripts/current-table.sh     # callgrind columns only
#   REUSE=1 Benchmarks/scripts/current-table.sh         # re-print from the last run's raw files
#
# Columns: instructions and allocations per op come from instructions.sh (callgrind; exact, the
# load does not move them), run once over a regex of every scenario below and its peer. "instr
# ratio" is ours ÷ peer instructions. "time ratio" is the interleaved wall-time ratio ours ÷ peer from
# `InstructionHarness ratio OURS PEER 0 ROUNDS` (as ratios.sh): the median of ROUNDS rounds (env
# ROUNDS, default 5), with its 95 % CI when ROUNDS is large enough to give one. Above 1: ours
# costs more. Time ratios move with the load; the header gives the load average before and after.
#
# The peer of each scenario is the `PEERS` list below (the same pairs as ratios.sh, rows.sh and
# the targets in BENCHMARKS.md; PeerCatalog.swift lists the peers' scenarios but not the pairing).
# A scenario without a like-for-like peer shows "—". (i1)/(i2) are threads-throughput scenarios
# that instructions.sh skips; they are not in the table.
#
# Robustness: if a scenario fails under callgrind, instructions.sh stops there; the rows it did
# not reach print "not measured", the time ratios still run, a failed time ratio prints
# "failed", the table is printed and the script exits 1. Raw outputs stay in $BENCH_WORK
# (default Benchmarks/.build/current-table): instructions.txt, ratios.txt, list.txt, meta.txt;
# the table goes to stdout, progress to stderr. The build is instructions.sh's (`swift build -c
# release` in Benchmarks/); offline, seed Benchmarks/.build/checkouts and Package.resolved from a
# checkout that has resolved them (e.g. /work/main/Benchmarks) before the first run.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${ROUNDS:-5}"
work="${BENCH_WORK:-$PWD/.build/current-table}"
mkdir -p "$work"

# Tomorrowland scenario id, then its peer's full scenario name ("-": none). In issue order, as
# `InstructionHarness list`.
PEERS=(
    "p p.NIO-Embedded"                  "a a.NIO-Embedded"                "a-capture a-capture.NIO-Embedded"
    "b b.NIO-Embedded"                  "c c.NIO-Embedded"                "a-resolved -"
    "a-named -"                         "b-named -"                       "k k.NIO-Embedded"
    "k-nested k-nested.NIO-Embedded"    "l l.NIO-Embedded"                "a-main -"
    "a-value-main -"                    "a-actor -"                       "j j.NIO-Embedded"
    "d d.async-func"                    "e-hop e-hop.cancellable-unsafe"  "f f.Task"
    "f-on f-on.Task.immediate"          "f-on-actor f-on-actor.Task.immediate"
    "f-nowOr f.Task"                    "g-task g-task.NIO-executor"      "g-actor g-actor.NIO-executor"
    "g-many g-many.NIO-executor"        "g-many-kept -"                   "h h.Dispatch"
    "e-exec e-exec.cancellable-unsafe"  "e-exec-base -"
)

status=0
start=$(date +%s)
load_before="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
if [ "${REUSE:-0}" != 1 ]; then
    names=()
    for entry in "${PEERS[@]}"; do
        read -r id peer <<<"$entry"
        names+=("$id\\.Tomorrowland")
        [ "$peer" != "-" ] && names+=("${peer//./\\.}")
    done
    regex="^($(IFS='|'; echo "${names[*]}"))\$"
    echo "current-table: callgrind over ${#names[@]} scenarios (log: $work/instructions.txt)" >&2
    # A failing scenario stops instructions.sh's loop: keep what it printed so far.
    BENCH_WORK="$work/instructions" scripts/instructions.sh "$regex" >"$work/instructions.txt" \
        || { status=1; echo "current-table: instructions.sh failed; rows after the failure are not measured" >&2; }

    harness="$(swift build -c release --show-bin-path)/InstructionHarness"
    "$harness" list >"$work/list.txt"
    : >"$work/ratios.txt"
    if [ "${SKIP_TIME:-0}" != 1 ]; then
        echo "current-table: time ratios, $rounds rounds each (log: $work/ratios.txt)" >&2
        for entry in "${PEERS[@]}"; do
            read -r id peer <<<"$entry"
            [ "$peer" = "-" ] && continue
            "$harness" ratio "$id.Tomorrowland" "$peer" 0 "$rounds" >>"$work/ratios.txt" 2>&1 \
                || { status=1; echo "$id.Tomorrowland ÷ $peer	failed" >>"$work/ratios.txt"; }
        done
    fi
    dirty=""; git diff --quiet HEAD -- ../Sources 2>/dev/null || dirty=" (with uncommitted changes in Sources/)"
    {   # what the header says, saved with the raw files so that REUSE=1 prints the same header
        echo "$(git rev-parse --short HEAD)$dirty"
        date -u '+%Y-%m-%d %H:%M UTC'
        echo "$load_before"
        cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'
        echo "$(( $(date +%s) - start ))"
        echo "$rounds"
        echo "${SKIP_TIME:-0}"
    } >"$work/meta.txt"
fi

printf '%s\n' "${PEERS[@]}" >"$work/peers.txt"
python3 - "$work" <<'PY'
import os, re, sys
work = sys.argv[1]
commit, date, before, after, seconds, rounds, skip_time = open(f"{work}/meta.txt").read().splitlines()[:7]
peers = [l.split() for l in open(f"{work}/peers.txt") if l.strip()]
counts = {}  # "id.library" -> (instr, allocs)
for line in open(f"{work}/instructions.txt"):
    f = line.split()
    if len(f) >= 4 and re.fullmatch(r"-?\d+", f[2]):
        counts[f"{f[0]}.{f[1]}"] = (int(f[2]), float(f[3]))
what = {}
for line in open(f"{work}/list.txt"):
    name, _, summary = line.rstrip("\n").partition("\t")
    what[name] = summary.replace("|", "\\|")
times = {}  # id -> text
for line in open(f"{work}/ratios.txt"):
    m = re.match(r"(\S+) ÷ (\S+)\twall median ([\d.]+)×(?:\t95% CI ([\d.]+)–([\d.]+))?", line)
    if m:
        ci = f" [{float(m.group(4)):.2f}–{float(m.group(5)):.2f}]" if m.group(4) else ""
        times[m.group(1).split(".")[0]] = f"{float(m.group(3)):.2f}×{ci}"
    elif "\tfailed" in line:
        times[line.split(".")[0]] = "failed"

def fmt(c):  # allocations print as e.g. -0.00 when the two runs differ by one in 3,000
    return (f"{c[0]:,}", f"{abs(c[1]) if abs(c[1]) < 0.005 else c[1]:.2f}") if c else ("not measured", "not measured")
print(f"Measured at `{commit}` on {date}; load average {before} before, {after} after "
      f"({os.cpu_count()} cores); time ratio: interleaved wall-time median of {rounds} rounds [95 % CI]; the script ran {seconds} s.\n")
print("| scenario | what | ours instr/op | peer | peer instr/op | instr ratio | ours allocs/op | peer allocs/op | time ratio |")
print("|---|---|---:|---|---:|---:|---:|---:|---:|")
for sid, peer in peers:
    ours = counts.get(f"{sid}.Tomorrowland")
    oi, oa = fmt(ours)
    if peer == "-":
        row = [f"({sid})", what.get(f"{sid}.Tomorrowland", ""), oi, "—", "—", "—", oa, "—", "—"]
    else:
        theirs = counts.get(peer)
        pi, pa = fmt(theirs)
        ratio = f"{ours[0] / theirs[0]:.2f}×" if ours and theirs and theirs[0] > 0 else "—"
        t = "not run" if skip_time == "1" else times.get(sid, "not measured")
        row = [f"({sid})", what.get(f"{sid}.Tomorrowland", ""), oi, f"`{peer}`", pi, ratio, oa, pa, t]
    print("| " + " | ".join(row) + " |")
PY
exit "$status"
