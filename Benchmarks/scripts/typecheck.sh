#!/usr/bin/env bash
# Compile-time benchmark: how long client code takes to type-check against this library.
#
# 1. A generated client (gen-typecheck-client.py: CHAINS chains of 10 to 14 calls in a
#    @MainActor class, an actor and a plain class) type-checked in Swift 6 and Swift 5 mode;
#    prints the total time and every expression that took over 100 ms
#    (-warn-long-expression-type-checking=100) or failed to type-check.
# 2. The hard shapes of Benchmarks/typecheck/shapes.txt, one file each (a @MainActor class),
#    in Swift 6 mode: time, and ok / slow / FAILED.
# Solver scopes (Sema.NumConstraintScopes, from -stats-output-dir) count the type checker's
# work exactly, whatever the machine's load; 1,048,576 is the solver's limit ("unable to
# type-check this expression in reasonable time"). Times vary with the load.
# Builds the library (debug) first. Usage: Benchmarks/scripts/typecheck.sh [CHAINS]
# With LIBRARY=DIR, type-checks against DIR's build of the library instead (a checkout of
# another commit, built with `swift build --target TomorrowlandAsync`).
set -uo pipefail
cd "$(dirname "$0")/../.."
chains=${1:-60}
if [ -n "${LIBRARY:-}" ]; then
    modules=$LIBRARY/.build/debug/Modules
else
    swift build --target TomorrowlandAsync >/dev/null || { echo "typecheck: library build failed"; exit 1; }
    modules=.build/debug/Modules
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/scripts/gen-typecheck-client.py "$work/client.swift" "$chains"
ms() { date +%s%N | cut -b1-13; }
check() { # file mode -> prints "seconds reported failed scopes"
    local start end
    rm -rf "$work/stats"; mkdir "$work/stats"
    start=$(ms)
    swiftc -typecheck -swift-version "$2" -I "$modules" "$1" -Xfrontend -warn-long-expression-type-checking=100 \
        -stats-output-dir "$work/stats" >"$work/log" 2>&1
    end=$(ms)
    local slow failed
    slow=$(grep -c "^[^ ].*warning: expression took" "$work/log")
    failed=$(grep -c "^[^ ].*error:" "$work/log")
    local scopes
    scopes=$(python3 -c "import json,glob,sys; print(sum(json.load(open(f)).get('Sema.NumConstraintScopes', 0) for f in glob.glob(sys.argv[1] + '/*.json')))" "$work/stats")
    printf '%d.%03d %d %d %d\n' $(((end - start) / 1000)) $(((end - start) % 1000)) "$slow" "$failed" "$scopes"
}
for mode in 6 5; do
    read -r t s f n < <(check "$work/client.swift" $mode)
    echo "client ($chains chains), Swift $mode mode: ${t} s, $n solver scopes, $s expressions over 100 ms, $f errors"
    grep -E "^[^ ].*(warning: expression took|error:)" "$work/log" | sed "s|$work/||" | head -20
done
while IFS='|' read -r name chain; do
    case "$name" in \#*|"") continue;; esac
    name=$(echo "$name" | xargs)
    f="$work/$name.swift"
    { cat Benchmarks/typecheck/prelude.swift.txt
      echo "        _ = fetchInt()"
      echo "$chain" | tr ';' '\n' | sed 's/^ */            /'
      echo "    }"; echo "}"; } >"$f"
    read -r t s f n < <(check "$f" 6)
    verdict=ok; [ "$s" -gt 0 ] && verdict=slow; [ "$f" -gt 0 ] && verdict=FAILED
    printf '%-44s %8s s %9d scopes  %s\n' "$name" "$t" "$n" "$verdict"
done < Benchmarks/typecheck/shapes.txt
