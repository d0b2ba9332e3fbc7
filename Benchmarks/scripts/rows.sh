#!/usr/bin/env bash
# The bridge-at-the-floor rows (Benchmarks/notes/issue-13-bridge-at-the-floor.md), measured
# and checked against their targets in one go: instructions, allocations and atomic RMWs per
# op from instructions.sh (callgrind), time ratios from the interleaved `InstructionHarness
# ratio` (as ratios.sh). Prints a markdown table. ~6 minutes.
#
#   Benchmarks/scripts/rows.sh [ROUNDS]      (default 41 rounds per time ratio)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-41}"
work="${BENCH_WORK:-$PWD/.build/rows}"
mkdir -p "$work"
BENCH_WORK="$work" scripts/instructions.sh \
    '^(a|b|e-exec|e-exec-base|f|g-many)\.(Tomorrowland|NIO-Embedded|Task|cancellable-unsafe|NIO-executor)$' >"$work/instructions.txt"
harness="$(swift build -c release --show-bin-path)/InstructionHarness"
: >"$work/ratios.txt"
for pair in "f.Tomorrowland f.Task" "e-exec.Tomorrowland e-exec.cancellable-unsafe" "a.Tomorrowland a.NIO-Embedded" \
            "b.Tomorrowland b.NIO-Embedded" "g-many.Tomorrowland g-many.NIO-executor"; do
    # shellcheck disable=SC2086
    "$harness" ratio $pair 0 "$rounds" >>"$work/ratios.txt"
done
kept="no crash"
"$harness" run g-many-kept.Tomorrowland 100000 || kept="FAILED (exit $?)"
python3 - "$work/instructions.txt" "$work/ratios.txt" "$kept" "$(git rev-parse --short HEAD)" <<'PY'
import re, sys
counts = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 5 and re.match(r"^-?\d+$", f[2]):
        counts[f"{f[0]}.{f[1]}"] = (int(f[2]), float(f[3]), float(f[4]))
times = {}
for line in open(sys.argv[2]):
    m = re.match(r"(\S+) ÷ (\S+)\twall median ([\d.]+)×\t95% CI ([\d.]+)–([\d.]+).*cpu median ([\d.]+)×.*load ([\d.]+)", line)
    if m:
        times[m.group(1).split(".")[0]] = tuple(float(m.group(i)) for i in range(3, 8))
kept, commit = sys.argv[3], sys.argv[4]

def c(name): return counts.get(name, (0, 0.0, 0.0))
def t(key):
    w, lo, hi, cpu, load = times.get(key, (0, 0, 0, 0, 0))
    return f"time {w:.2f}× [{lo:.2f}–{hi:.2f}], CPU {cpu:.2f}×", w, lo, hi
def status(met, on_par=False): return "**met**" if met else ("met (on par)" if on_par else "missed")

rows = []
(fi, fm, fg), (ti, tm, tg) = c("f.Tomorrowland"), c("f.Task")
text, w, lo, hi = t("f")
rows.append(("(f) `StdPromise { i }.value` vs `Task { i }.value`", f"{fi:,} vs {ti:,} instr ({fi/ti:.2f}×), {fm:.2f} vs {tm:.2f} allocs, {fg:.0f} vs {tg:.0f} RMW; {text}",
             "≤ 1.2× time, ≤ Task's allocs + 1", status(hi <= 1.2 and fm <= tm + 1)))
(ei, em, eg), (bi, bm, bg), (ri, rm, rg) = c("e-exec.Tomorrowland"), c("e-exec-base.Tomorrowland"), c("e-exec.cancellable-unsafe")
text, w, lo, hi = t("e-exec")
rows.append(("(e) await pending, creation excluded, vs cancellable raw continuation", f"{ei - bi:,} vs {ri:,} instr ({(ei - bi)/ri:.2f}×), {em - bm:.2f} allocs, {eg - bg:.0f} vs {rg:.0f} RMW; with creation {text}",
             "≤ 1.25× instr, ≤ 1 alloc", status((ei - bi) / ri <= 1.25 and em - bm <= 1.0)))
(ai, am, ag), (ni, nm, ng) = c("a.Tomorrowland"), c("a.NIO-Embedded")
text, w, lo, hi = t("a")
rows.append(("(a) create + `map` + `then` + fulfil vs NIO-Embedded", f"{text}; {ai:,} vs {ni:,} instr ({ai/ni:.2f}×), {am:.0f} vs {nm:.0f} allocs, {ag:.0f} vs {ng:.0f} RMW",
             "≤ 1.15× time", status(hi <= 1.15)))
(ai, am, ag), (ni, nm, ng) = c("b.Tomorrowland"), c("b.NIO-Embedded")
text, w, lo, hi = t("b")
rows.append(("(b) ten `map`s vs NIO-Embedded", f"{ai:,} vs {ni:,} instr (**{ai/ni:.2f}×**), {am:.0f} vs {nm:.0f} allocs, {ag:.0f} vs {ng:.0f} RMW; {text}",
             "≤ 0.6× instr", status(ai / ni <= 0.6)))
(ai, am, ag), (ni, nm, ng) = c("g-many.Tomorrowland"), c("g-many.NIO-executor")
text, w, lo, hi = t("g-many")
rows.append(("(g-many) 16 Tasks, `.queue(q)` actor → actor vs NIO executor", f"{text}; {ai:,} vs {ni:,} instr, {am:.0f} vs {nm:.0f} allocs; only the executors kept: {kept}",
             "time ≤ 1.0×, no crash", status(hi <= 1.0 and kept == "no crash", lo <= 1.0 <= hi and kept == "no crash")))
print(f"Measured at `{commit}`, load {max(v[4] for v in times.values()) if times else 0:.1f}; time: interleaved median [95 % CI]\n")
print("| row | measured | target | status |\n|---|---|---|---|")
for r in rows: print("| " + " | ".join(r) + " |")
PY
