#!/usr/bin/env bash
# What CI runs after the tool's own tests: migrate-corpus.sh and migrate-a-copy.sh at the same
# time, each output printed whole when both are done, then each script's time; fails if either
# fails. Each script is mostly one process at a time (the tool, a build, a test run), so the two
# together keep two cores busy where one alone leaves one idle.
#
#   Tools/scripts/migrate-corpus-and-copy.sh   # from the repository root or anywhere
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
# Built once here, before both scripts ask for it.
swift build --package-path "$here/.." --product tomorrowland-migrate || exit 1
run() {
    local start=$SECONDS status=0
    bash "$here/$1" > "$logs/$1.log" 2>&1 || status=$?
    echo "$status $((SECONDS - start))" > "$logs/$1.result"
}
run migrate-corpus.sh &
corpus=$!
run migrate-a-copy.sh &
copy=$!
wait "$corpus" "$copy"
failed=0
for script in migrate-corpus.sh migrate-a-copy.sh; do
    read -r status seconds < "$logs/$script.result" || { status=1; seconds=?; }
    echo "==== $script: $([ "$status" = 0 ] && echo "OK" || echo "FAILED (exit $status)") in ${seconds}s ===="
    cat "$logs/$script.log"
    [ "$status" = 0 ] || failed=1
done
exit "$failed"
