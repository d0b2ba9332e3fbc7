#!/usr/bin/env bash
# The public API of Tomorrowland and TomorrowlandAsync is the same in the working tree as at a
# base commit: symbol graphs (`swift package dump-symbol-graph`) of both, printed by
# public-api.py without source locations and diffed. Exit status 1 when they differ.
#   usage: Generator/scripts/compare-public-api.sh [BASE (default: main)] [--docs]
# With --docs the doc comments are compared too (a re-wrapped comment shows as a difference).
# Builds BASE in a temporary git worktree: a full debug build of the package, minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:-main}
docs=""
[[ "${2:-}" == "--docs" || "${1:-}" == "--docs" ]] && docs="--docs"
[[ "$base" == "--docs" ]] && base=main
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
graphs() { # package dir, name -> writes $work/name.txt
    # The command fails for test modules that were never built; the libraries' graphs are written.
    (cd "$1" && swift package dump-symbol-graph > "$work/$2.log" 2>&1) || true
    local dir
    dir=$(sed -n 's/^Files written to //p' "$work/$2.log" | tail -1)
    if [[ -z "$dir" || ! -f "$dir/Tomorrowland.symbols.json" ]]; then
        cat "$work/$2.log"
        echo "compare-public-api: no symbol graph of Tomorrowland for $2" >&2
        exit 1
    fi
    python3 Generator/scripts/public-api.py $docs "$dir" > "$work/$2.txt"
}
git worktree add --detach "$work/base" "$base" >/dev/null 2>&1
graphs "$work/base" base
graphs . tree
if diff -u "$work/base.txt" "$work/tree.txt"; then
    echo "compare-public-api: identical to $base ($(grep -c . "$work/tree.txt") lines)"
else
    echo "compare-public-api: the public API differs from $base" >&2
    exit 1
fi
