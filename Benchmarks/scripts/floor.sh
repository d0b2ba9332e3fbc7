#!/usr/bin/env bash
# What two documented behaviours cost in the bridge-at-the-floor rows (b) and (f): the library
# at HEAD measured as is and with each experiment patch of Benchmarks/experiments/ applied
# alone and both together, and the tests each patched library fails (what changing the
# behaviour would break). The patches are never applied to this checkout.
#
#   Benchmarks/scripts/floor.sh [ROUNDS]       (default 41 rounds per time ratio)
#
#   no-seal          every promise created sealed: no `PromiseSeal` object per handle group, so
#                    a child's cancel request reaches its parent while a handle to the parent is
#                    still held (rule 5's handle condition dropped)
#   plain-callbacks  `map` and `then` (and TokenPromise's) take plain `@escaping @Sendable`
#                    closures, without `@_inheritActorContext @isolated(any)`: a callback literal
#                    keeps no isolation, hence needs no heap context, and no longer runs on its
#                    caller's actor. The isolated benchmark scenarios (a-main, a-actor) cannot
#                    be written then; the patch leaves them out.
#   both             the two patches together
# When a patch no longer applies, scripts/floor-patches.py re-creates its edits on HEAD.
#
# Makes a temporary `git worktree` of HEAD (FLOOR_WORK=dir reuses and keeps one, with its build
# directories, one per variant: switching one build directory between variants left stale
# objects of the previous variant behind) and, for each
# variant (main, no-seal, plain-callbacks, both; FLOOR_VARIANTS narrows them, main's results
# are then read from an earlier run in the output directory):
#   1. resets the worktree to HEAD and applies the variant's patches: fails loudly if one no
#      longer applies (all variants are checked before anything is built);
#   2. builds the release InstructionHarness (`--scratch-path` inside the worktree) and
#      measures `HARNESS=<it> scripts/instructions.sh '^(p|a|b|c|f)\.Tomorrowland$'` (for main
#      also the peers b.NIO-Embedded and f.Task), and the exact malloc counts of the same
#      scenarios with the `Allocations` package-benchmark target (p90; callgrind's count for
#      (f) depends on how its two threads interleave under valgrind);
# then, once every variant is built, the interleaved time ratios
# `InstructionHarness ratio f.Tomorrowland f.Task 0 ROUNDS` and `ratio b.Tomorrowland
# b.NIO-Embedded`, FLOOR_PASSES (2) passes over the variants so that they see similar load;
# last, for each patched variant, the library's tests (`swift test`; FLOOR_TEST_FILTER=regex
# narrows them, FLOOR_TESTS=0 skips them, FLOOR_TEST_MAIN=1 also runs them on main): test files
# that no longer compile are listed with their first error and left out, the rest is run and
# the failing tests are listed. Prints a markdown table at the end; every log is kept in the
# output directory (FLOOR_OUT, default Benchmarks/.build/floor). ~40 minutes from cold build
# directories, ~15 with FLOOR_WORK warm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$(dirname "$here")"
repo="$(git -C "$bench" rev-parse --show-toplevel)"
rounds="${1:-41}"
head="$(git -C "$repo" rev-parse HEAD)"
short="$(git -C "$repo" rev-parse --short HEAD)"
out="${FLOOR_OUT:-$bench/.build/floor}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
experiments="$bench/experiments"
read -r -a variants <<<"${FLOOR_VARIANTS:-main no-seal plain-callbacks both}"

patches_of() { # variant
    case "$1" in
        main) ;;
        no-seal) echo "$experiments/no-seal.patch" ;;
        plain-callbacks) echo "$experiments/plain-callbacks.patch" ;;
        both) echo "$experiments/no-seal.patch"; echo "$experiments/plain-callbacks.patch" ;;
        *) echo "floor.sh: unknown variant $1" >&2; exit 2 ;;
    esac
}

# The temporary worktree.
if [ -n "${FLOOR_WORK:-}" ]; then
    work="$FLOOR_WORK"; keep=1
else
    work="$(mktemp -d "${TMPDIR:-/tmp}/tomorrowland-floor.XXXXXX")"; rmdir "$work"; keep=0
fi
cleanup() {
    if [ "$keep" = 0 ] && [ -d "$work" ]; then
        git -C "$repo" worktree remove --force "$work" || echo "floor.sh: could not remove the worktree $work" >&2
    fi
}
trap cleanup EXIT
if [ -d "$work" ]; then
    git -C "$work" rev-parse --is-inside-work-tree >/dev/null 2>&1 \
        || { echo "floor.sh: $work exists and is not a git worktree" >&2; exit 2; }
else
    git -C "$repo" worktree add -q --detach "$work" "$head"
fi

# Puts the worktree at HEAD exactly (tracked files), keeping the untracked build directories.
reset_work() {
    git -C "$work" checkout -q -f --detach "$head"
    git -C "$work" reset -q --hard "$head"
}

# Applies a variant's patches to the worktree; fails loudly when one no longer applies.
apply_variant() { # variant
    local p
    reset_work
    for p in $(patches_of "$1"); do
        [ -f "$p" ] || { echo "floor.sh: FAILED: missing patch $p" >&2; exit 1; }
        if ! git -C "$work" apply --check "$p" 2>"$out/apply.log"; then
            echo "floor.sh: FAILED: ${p#"$repo"/} no longer applies to HEAD ($short) for variant $1:" >&2
            cat "$out/apply.log" >&2
            echo "floor.sh: regenerate it against HEAD (Benchmarks/notes/documented-behaviours-cost.md)" >&2
            exit 1
        fi
        git -C "$work" apply "$p"
    done
}

for v in "${variants[@]}"; do apply_variant "$v"; done
reset_work
echo "floor.sh: HEAD $short; every patch applies; worktree $work; output $out"

# 1-2. Build, instructions, exact allocations.
for v in "${variants[@]}"; do
    echo "== $v"
    apply_variant "$v"
    (cd "$work/Benchmarks" && swift build -c release --product InstructionHarness --scratch-path "$work/.build-bench-$v") \
        >"$out/build.$v.log" 2>&1 || { echo "floor.sh: FAILED: the release harness of $v does not build:" >&2; tail -40 "$out/build.$v.log" >&2; exit 1; }
    bin="$(cd "$work/Benchmarks" && swift build -c release --scratch-path "$work/.build-bench-$v" --show-bin-path)"
    cp "$bin/InstructionHarness" "$out/InstructionHarness.$v"

    regex='^(p|a|b|c|f)\.Tomorrowland$'
    [ "$v" = main ] && regex='^((p|a|b|c|f)\.Tomorrowland|b\.NIO-Embedded|f\.Task)$'
    HARNESS="$out/InstructionHarness.$v" BENCH_WORK="$out/cg.$v" "$here/instructions.sh" "$regex" | tee "$out/instructions.$v.txt"
    (cd "$work/Benchmarks" && swift package --scratch-path "$work/.build-bench-$v" benchmark --target Allocations \
        --filter '(p|a|b|c|f)\.Tomorrowland' --no-progress) >"$out/allocations.$v.log" 2>&1 \
        || { echo "floor.sh: FAILED: the Allocations benchmarks of $v:" >&2; tail -40 "$out/allocations.$v.log" >&2; exit 1; }
    python3 - "$out/allocations.$v.log" >"$out/allocations.$v.txt" <<'PY'
import re, sys
name = None
for line in open(sys.argv[1]):
    line = line.strip()
    if re.match(r"^[\w-]+\.Tomorrowland$", line): name = line
    elif name and line.startswith("│ Malloc (total)"):
        cells = [c.strip() for c in line.strip("│").split("│")]
        print(name, cells[5])   # p0 p25 p50 p75 p90: the gate's p90
        name = None
PY
    echo "exact malloc counts per operation (package-benchmark p90):"; sed 's/^/    /' "$out/allocations.$v.txt"
done
reset_work

# 3. Time ratios, all variants in turn, FLOOR_PASSES passes.
for v in "${variants[@]}"; do : >"$out/ratios.$v.txt"; done
for pass in $(seq 1 "${FLOOR_PASSES:-2}"); do
    for v in "${variants[@]}"; do
        pairs=("f.Tomorrowland f.Task" "b.Tomorrowland b.NIO-Embedded")
        # The floor of (f) in the same sitting: a Task awaited under a cancellation handler.
        [ "$v" = main ] && pairs+=("f.Task+handler f.Task")
        for pair in "${pairs[@]}"; do
            # shellcheck disable=SC2086
            "$out/InstructionHarness.$v" ratio $pair 0 "$rounds" | sed "s/^/$v pass $pass: /" | tee -a "$out/ratios.$v.txt"
        done
    done
done

# 4. Tests of the patched variants.
for v in "${variants[@]}"; do
    : >"$out/tests.$v.txt"
    [ "${FLOOR_TESTS:-1}" = 1 ] || continue
    [ "$v" != main ] || [ "${FLOOR_TEST_MAIN:-0}" = 1 ] || continue
    echo "== tests of $v"
    apply_variant "$v"
    # Test files that no longer compile are listed and left out (a module's errors only show
    # once the modules built before it compile, hence the rounds; a file of a later round may
    # fail only because it used a declaration of a file left out before); the rest is run.
    built=0
    for round in $(seq 1 15); do
        if (cd "$work" && swift build --build-tests --scratch-path "$work/.build-test-$v") >"$out/test-build.$v.$round.log" 2>&1; then
            built=1; break
        fi
        grep -E '^/.*: error: ' "$out/test-build.$v.$round.log" | sed -E "s|^$work/||" | sort -u >"$out/errors.$v.$round.txt" || true
        files="$(cut -d: -f1 "$out/errors.$v.$round.txt" | sort -u)"
        if [ -z "$files" ] || grep -qv '^Tests/' <<<"$files"; then
            echo "floor.sh: FAILED: $v does not build (not only its tests):" >&2; tail -40 "$out/test-build.$v.$round.log" >&2; exit 1
        fi
        for f in $files; do
            echo "does not compile (round $round): $f ($(grep -c "^$f:" "$out/errors.$v.$round.txt") errors, e.g. $(grep "^$f:" "$out/errors.$v.$round.txt" | head -1 | sed -E 's/^[^ ]+ error: //'))" >>"$out/tests.$v.txt"
            rm "$work/$f"
        done
    done
    if [ "$built" = 0 ]; then
        echo "the tests still do not build after leaving out fifteen rounds of files" >>"$out/tests.$v.txt"
    else
        filter=()
        [ -n "${FLOOR_TEST_FILTER:-}" ] && filter=(--filter "$FLOOR_TEST_FILTER")
        set +e
        (cd "$work" && timeout "${FLOOR_TEST_TIMEOUT:-1800}" swift test --skip-build --scratch-path "$work/.build-test-$v" "${filter[@]}") >"$out/test.$v.log" 2>&1
        status=$?
        set -e
        # XCTest: "Test Case 'Class.test' failed"; Swift Testing: "✘ Test name() failed" and
        # its "recorded an issue … Expectation failed" details.
        grep -E "^Test Case '.*' failed|✘ Test .* failed" "$out/test.$v.log" \
            | grep -vE 'Test run with' | sed -E 's/ \([0-9.]+ seconds\)\.?$//; s/ after [0-9.]+ seconds.*$//' \
            | sort -u >>"$out/tests.$v.txt" || true
        case "$status" in
            0) echo "every test that compiles passes" >>"$out/tests.$v.txt" ;;
            124) echo "TIMED OUT after ${FLOOR_TEST_TIMEOUT:-1800} s (a test hangs)" >>"$out/tests.$v.txt" ;;
            *) echo "swift test exited $status (see test.$v.log)" >>"$out/tests.$v.txt" ;;
        esac
    fi
    sed 's/^/    /' "$out/tests.$v.txt"
done
reset_work

python3 - "$out" "$short" "${FLOOR_VARIANTS:-main no-seal plain-callbacks both}" <<'PY'
import re, statistics, sys
out, commit, variants = sys.argv[1], sys.argv[2], sys.argv[3].split()
if "main" not in variants: variants = ["main"] + variants   # peers from an earlier run
def counts(v):
    c = {}
    for line in open(f"{out}/instructions.{v}.txt"):
        f = line.split()
        if len(f) >= 5 and re.match(r"^-?\d+$", f[2]):
            c[f"{f[0]}.{f[1]}"] = (int(f[2]), float(f[3]), float(f[4]))
    return c
def exact(v):
    return {l.split()[0]: int(l.split()[1]) for l in open(f"{out}/allocations.{v}.txt") if l.strip()}
def ratios(v):
    r = {}
    for line in open(f"{out}/ratios.{v}.txt"):
        m = re.search(r"(\S+) ÷ (\S+)\twall median ([\d.]+)×\t95% CI ([\d.]+)–([\d.]+).*cpu median ([\d.]+)×.*load ([\d.]+)", line)
        if m: r.setdefault(m.group(1), []).append(tuple(float(m.group(i)) for i in range(3, 8)))
    return r
def times(rs):
    if not rs: return "-"
    return "; ".join(f"{w:.2f}× [{lo:.2f}–{hi:.2f}] CPU {cpu:.2f}× (load {load:.1f})" for w, lo, hi, cpu, load in rs)
base = counts("main")
nio, task = base["b.NIO-Embedded"], base["f.Task"]
TASK_ALLOCS = 4   # exact (gdb on malloc, Benchmarks/notes/issue-13-bridge-at-the-floor.md): closure context, Task init context, task, first slab
print(f"\nfloor.sh at `{commit}`. Cells: instructions / allocations / atomic RMWs per operation (callgrind); "
      f"(f)'s allocations are the exact package-benchmark count (callgrind's in brackets). Peers from the main run: "
      f"b.NIO-Embedded {nio[0]:,} / {nio[1]:.0f} / {nio[2]:.0f}, f.Task {task[0]:,} / {TASK_ALLOCS} (callgrind {task[1]:.2f}) / {task[2]:.0f}.\n")
print("| variant | (p) | (a) | (b) | (c) | (f) | (b) ÷ NIO, instr | (b) ≤ 0.6× | (f) ≤ Task's allocs + 1 | (f) time ÷ `Task {}.value`, per pass | (b) time ÷ NIO, per pass |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for v in variants:
    c, e, r = counts(v), exact(v), ratios(v)
    cell = lambda k: "{:,} / {:.0f} / {:.0f}".format(*c[k])
    f = c["f.Tomorrowland"]
    fcell = f"{f[0]:,} / {e['f.Tomorrowland']} ({f[1]:.2f}) / {f[2]:.0f}"
    b = c["b.Tomorrowland"][0] / nio[0]
    print(f"| {v} | " + " | ".join(cell(f"{s}.Tomorrowland") for s in "pabc") + f" | {fcell}"
          + f" | {b:.2f}× | {'**yes**' if b <= 0.6 else 'no'}"
          + f" | {'**yes**' if e['f.Tomorrowland'] <= TASK_ALLOCS + 1 else 'no'} ({e['f.Tomorrowland']} vs {TASK_ALLOCS})"
          + f" | {times(r.get('f.Tomorrowland'))} | {times(r.get('b.Tomorrowland'))} |")
print(f"\nThe floor of (f) in the same sitting, `f.Task+handler` ÷ `f.Task` (a Task awaited under a cancellation handler): {times(ratios('main').get('f.Task+handler'))}\n")
for v in variants:
    try: lines = [l.rstrip() for l in open(f"{out}/tests.{v}.txt") if l.strip()]
    except FileNotFoundError: lines = []
    if not lines: continue
    print(f"tests with {v}:")
    for l in lines: print(f"    {l}")
PY
