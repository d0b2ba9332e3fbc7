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
graphs() { # package dir -> symbol graph dir
    (cd "$1" && swift package dump-symbol-graph > "$work/dump.log" 2>&1) || { cat "$work/dump.log"; exit 1; }
    sed -n 's/^Files written to //p' "$work/dump.log" | tail -1
}
git worktree add --detach "$work/base" "$base" >/dev/null
python3 Generator/scripts/public-api.py $docs "$(graphs "$work/base")" > "$work/base.txt"
python3 Generator/scripts/public-api.py $docs "$(graphs .)" > "$work/tree.txt"
if diff -u "$work/base.txt" "$work/tree.txt"; then
    echo "compare-public-api: identical to $base ($(grep -c . "$work/tree.txt") lines)"
else
    echo "compare-public-api: the public API differs from $base" >&2
    exit 1
fi
