#!/usr/bin/env bash
# Instructions and allocations per operation, for Tomorrowland and every peer, under
# callgrind: stable numbers on a machine whose timings vary by 1.5x between runs.
#
#   Benchmarks/scripts/instructions.sh [REGEX]       e.g. instructions.sh '^(a|c)\.'
#
# Builds the release InstructionHarness, strips debug info from a copy, and runs each
# scenario twice under `valgrind --tool=callgrind` with different sizes N1 < N2; the per-op
# numbers are (run(N2) - run(N1)) / (N2 - N1), which cancels process start-up and one-time
# costs (metadata, thread-locals, first allocations). Allocations are calls into
# malloc/calloc/realloc/posix_memalign counted by callgrind. For the size scenarios (j, k)
# it also prints the linearity ratio cost(10x) / cost(1x), which should be at most 11.
# Atomic read-modify-writes per op (RMW/op) are callgrind's "Ge" event (--collect-bus=yes):
# every lock-prefixed instruction and every xchg with memory, in any code (ours, the Swift
# runtime's reference counting, the concurrency runtime, libc), as exact as the instructions.
# Set PROFILE=1 to also print each scenario's per-op profile (self cost by function),
# ATOMICS=1 to print where each scenario's RMWs are (by category and function, each RMW
# instruction of the harness with its source line, and the reference counting calls by
# calling function), and HARNESS=path to measure a harness built elsewhere (e.g. with
# experimental compiler flags).
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:-.}"
work="${BENCH_WORK:-$PWD/.build/instructions}"
mkdir -p "$work"

harness="$work/InstructionHarness"
if [ -n "${HARNESS:-}" ]; then
    unstripped="$HARNESS"        # an experiment's own build (e.g. other compiler flags)
else
    swift build -c release --product InstructionHarness >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    unstripped="$(swift build -c release --show-bin-path)/InstructionHarness"
fi
cp "$unstripped" "$harness"     # valgrind 3.19 cannot read Swift 6's debug info: measure a stripped copy
strip --strip-debug "$harness"
stats="$PWD/scripts/callgrind_stats.py"

# Callgrind one run; prints "<instructions> <allocator calls> <atomic RMWs>".
measure() { # name n
    local out="$work/cg.$1.$2"
    local extra=()
    [ "${ATOMICS:-0}" = 1 ] && extra=(--dump-instr=yes)
    valgrind --tool=callgrind --collect-bus=yes "${extra[@]}" --callgrind-out-file="$out" "$harness" run "$1" "$2" >"$work/valgrind.log" 2>&1 \
        || { echo "failed: $1 $2" >&2; tail -20 "$work/valgrind.log" >&2; return 1; }
    python3 "$stats" totals "$out"
}

# Sizes per scenario id: "N1 N2" (per-op scenarios) or "0 N1 N2" (size scenarios: linearity).
sizes() {
    case "$1" in
        k|k-nested) echo "0 10000 100000" ;;
        j) echo "0 1000 10000" ;;
        g-*) echo "2000 6000" ;;
        h|e-hop|f) echo "500 1500" ;;
        *) echo "1000 3000" ;;
    esac
}

printf '%-10s %-22s %14s %12s %10s %12s\n' "scenario" "library" "instr/op" "allocs/op" "RMW/op" "ours ÷ this"
declare -A ours_instr
"$harness" list | cut -f1 | grep -E -- "$filter" | grep -vE '^i[12]\.' | while read -r name; do
    id="${name%%.*}"; library="${name#*.}"
    read -r -a n <<<"$(sizes "$id")"
    if [ "${#n[@]}" -eq 3 ]; then
        read -r i0 m0 g0 <<<"$(measure "$name" "${n[0]}")"
        read -r i1 m1 g1 <<<"$(measure "$name" "${n[1]}")"
        read -r i2 m2 g2 <<<"$(measure "$name" "${n[2]}")"
        per=$(( (i2 - i0) / n[2] )); allocs=$(python3 -c "print(f'{($m2-$m0)/${n[2]}:.2f}')")
        rmw=$(python3 -c "print(f'{($g2-$g0)/${n[2]}:.2f}')")
        linear=$(python3 -c "print(f'{($i2-$i0)/max(1,$i1-$i0):.2f}')")
        extra="  linearity x10 size: ${linear}x cost"
        a="${n[1]}"; b="${n[2]}"
    else
        read -r i1 m1 g1 <<<"$(measure "$name" "${n[0]}")"
        read -r i2 m2 g2 <<<"$(measure "$name" "${n[1]}")"
        ops=$(( n[1] - n[0] ))
        per=$(( (i2 - i1) / ops )); allocs=$(python3 -c "print(f'{($m2-$m1)/$ops:.2f}')")
        rmw=$(python3 -c "print(f'{($g2-$g1)/$ops:.2f}')")
        extra=""; a="${n[0]}"; b="${n[1]}"
    fi
    if [ "$library" = "Tomorrowland" ]; then
        echo "$per" >"$work/ours.$id"
        ratio="1.00"
    elif [ -f "$work/ours.$id" ]; then
        ratio=$(python3 -c "print(f'{$(cat "$work/ours.$id")/$per:.2f}')")
    else
        ratio="-"
    fi
    printf '%-10s %-22s %14s %12s %10s %12s%s\n' "$id" "$library" "$per" "$allocs" "$rmw" "$ratio" "$extra"
    if [ "${PROFILE:-0}" = 1 ]; then
        python3 "$stats" profile "$work/cg.$name.$a" "$work/cg.$name.$b" $(( b - a )) 25 | sed 's/^/        /'
    fi
    if [ "${ATOMICS:-0}" = 1 ]; then
        python3 "$stats" atomics "$work/cg.$name.$a" "$work/cg.$name.$b" $(( b - a )) "$unstripped" | sed 's/^/        /'
    fi
done
