#!/usr/bin/env bash
# What CI runs after the tool's own tests: the migration on three codebases, two at a time,
# each output printed whole when all are done, then each one's wall and CPU seconds; fails if
# any fails.
#
# - migrate-corpus.sh: Tools/Corpus, with its strict checks (second runs change nothing, no
#   warning, no line over 120 columns, callbacks on the queues their contexts name);
# - migrate-blind-corpus.sh HomeHub --lean and Ledger --lean: the blind corpora as regression
#   corpora, the tool run the way README.md tells a user to (`swift run --package-path
#   ../Tomorrowland/Tools tomorrowland-migrate …` from the package's root, the checkout next to
#   it): the whole pipeline once, then one build and test run (with the twin tests) per
#   language mode, failing on any error, failed test or failed command.
#
# All three share the tool's one build (Tools/.build), built here first. A copy of this package
# (migrate-a-copy.sh: Examples/ and Tests/Swift5ClientTests) is no longer part of CI; see
# Tools/README.md, "Tests, corpora and CI", for what the corpora cover instead and what only it covered.
#
#   Tools/scripts/migrate-corpora.sh   # from the repository root or anywhere
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
swift build --package-path "$here/.." --product tomorrowland-migrate || exit 1
ticks_per_second=$(getconf CLK_TCK 2>/dev/null || echo 100)

# job <name> <script> <arguments…>: the script, its output kept; its status, wall seconds and
# CPU seconds (its processes' user + system time, from /proc) in <name>.result.
job() {
    # ($BASHPID read here: inside $(…) it would be that subshell's.)
    local name="$1" start=$SECONDS status=0 ticks=0 shell=$BASHPID
    shift
    bash "$here/$1" "${@:2}" > "$logs/$name.log" 2>&1 || status=$?
    [ -r "/proc/$shell/stat" ] && ticks=$(sed 's/.*) //' "/proc/$shell/stat" | awk '{ print $14 + $15 }')
    echo "$status $((SECONDS - start)) $((ticks / ticks_per_second))" > "$logs/$name.result"
}

# The longest first; at most two at a time (each is mostly one process at a time: the tool, a
# build, a test run), so that two cores stay busy and no more wait on them.
names=(HomeHub Ledger Corpus)
declare -A commands=(
    [HomeHub]="migrate-blind-corpus.sh HomeHub --lean"
    [Ledger]="migrate-blind-corpus.sh Ledger --lean"
    [Corpus]="migrate-corpus.sh"
)
running=0
for name in "${names[@]}"; do
    if [ "$running" -ge 2 ]; then
        wait -n
        running=$((running - 1))
    fi
    # shellcheck disable=SC2086 # a command line of words without spaces
    job "$name" ${commands[$name]} &
    running=$((running + 1))
done
wait

failed=0
summary=""
for name in "${names[@]}"; do
    read -r status seconds cpu < "$logs/$name.result" || { status=1; seconds=?; cpu=?; }
    echo "==== ${commands[$name]}: $([ "$status" = 0 ] && echo "OK" || echo "FAILED (exit $status)") ===="
    cat "$logs/$name.log"
    summary+=$(printf '%5ss wall %5ss CPU  %s' "$seconds" "$cpu" "${commands[$name]}")$'\n'
    [ "$status" = 0 ] || failed=1
done
echo "== each migration's time (two at a time)"
printf '%s' "$summary"
exit "$failed"
