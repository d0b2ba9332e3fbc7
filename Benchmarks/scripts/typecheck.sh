#!/usr/bin/env bash
# Compile-time benchmark: how long client code takes to type-check against this library.
#
# 1. A generated client (gen-typecheck-client.py: CHAINS chains of 10 to 14 calls in a
#    @MainActor class, an actor and a plain class) type-checked in Swift 6 and Swift 5 mode;
#    prints the total time and every expression that took over 100 ms
#    (-warn-long-expression-type-checking=100) or failed to type-check.
# 2. The hard shapes of Benchmarks/typecheck/shapes.txt, one file each (a @MainActor class),
#    in Swift 6 mode: time, and ok / slow / FAILED.
# Builds the library (debug) first. Usage: Benchmarks/scripts/typecheck.sh [CHAINS]
set -uo pipefail
cd "$(dirname "$0")/../.."
chains=${1:-60}
swift build --target TomorrowlandAsync >/dev/null || { echo "typecheck: library build failed"; exit 1; }
modules=.build/debug/Modules
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/scripts/gen-typecheck-client.py "$work/client.swift" "$chains"
ms() { date +%s%N | cut -b1-13; }
check() { # file mode -> prints "seconds reported failed"
    local start end
    start=$(ms)
    swiftc -typecheck -swift-version "$2" -I "$modules" "$1" -Xfrontend -warn-long-expression-type-checking=100 >"$work/log" 2>&1
    end=$(ms)
    local slow failed
    slow=$(grep -c "^[^ ].*warning: expression took" "$work/log")
    failed=$(grep -c "^[^ ].*error:" "$work/log")
    printf '%d.%03d %d %d\n' $(((end - start) / 1000)) $(((end - start) % 1000)) "$slow" "$failed"
}
for mode in 6 5; do
    read -r t s f < <(check "$work/client.swift" $mode)
    echo "client ($chains chains), Swift $mode mode: ${t} s, $s expressions over 100 ms, $f errors"
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
    read -r t s f < <(check "$f" 6)
    verdict=ok; [ "$s" -gt 0 ] && verdict=slow; [ "$f" -gt 0 ] && verdict=FAILED
    printf '%-44s %8s s  %s\n' "$name" "$t" "$verdict"
done < Benchmarks/typecheck/shapes.txt
