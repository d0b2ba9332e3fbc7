#!/usr/bin/env bash
# Mutation testing of the core's concurrency: applies each patch of Mutations/ (or those
# given as arguments) to a clean copy of this package (the tracked files of HEAD), builds it,
# runs the interleaving explorer (the InterleavingTests target: every scenario, each in its
# own child process, and the schedule-point coverage test), the ordinary suites
# (TomorrowlandTests, TomorrowlandAsyncTests) and the rules model (RulesModelTests, its
# default programs), each with a timeout (a hang counts as caught, by hang), reverts the
# patch, and prints a table (Markdown) of what caught each mutation.
#
#   bash Mutations/run.sh                       # every mutation, after a baseline run
#   bash Mutations/run.sh Mutations/04-*.patch  # some
#
# Environment: MUTATIONS_WORK (the copy, its build and the logs; default .build/mutations),
# MUTATIONS_EXPLORER_TIMEOUT / MUTATIONS_SUITES_TIMEOUT (seconds, default 600 / 300),
# MUTATIONS_SKIP_BASELINE=1 (skip the run without a mutation, which must pass),
# MUTATIONS_MODEL_TIMEOUT (seconds, default 300),
# MUTATIONS_FROM_LOGS=1 (print the table of the last run again from its logs).
# Slow: a build and both test runs per mutation (about 4 minutes each on 2 shared cores).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
work=${MUTATIONS_WORK:-$here/.build/mutations}
explorer_timeout=${MUTATIONS_EXPLORER_TIMEOUT:-600}
suites_timeout=${MUTATIONS_SUITES_TIMEOUT:-300}
model_timeout=${MUTATIONS_MODEL_TIMEOUT:-300}
if [ $# -gt 0 ]; then patches=("$@"); else patches=("$here"/Mutations/*.patch); fi

copy="$work/copy"
mkdir -p "$copy" "$work/logs"
# The copy may lie inside this repository's work tree (the default does, under .build): git
# would then find the enclosing repository and `git apply` would silently skip every path of
# the patch (outside the current directory), running the suites on unmutated code. The
# ceiling keeps git from looking above the copy.
export GIT_CEILING_DIRECTORIES="$(cd "$copy/.." && pwd)"
# The clean copy, extracted once: its .build stays, so each mutation rebuilds only what it changed.
[ "${MUTATIONS_FROM_LOGS:-0}" = 1 ] || git -C "$here" archive HEAD | tar -x -C "$copy"

# What a test run says: "passed", or what caught the mutation (first failing test and its message).
verdict() {  # log status
    local log=$1 status=$2
    if [ "$status" -eq 0 ]; then echo "passed"; return; fi
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then echo "**caught (hang: killed after the timeout)**"; return; fi
    local failed message
    # The first failing test, a scenario's or the coverage test's first (a put-back bug's test
    # may fail too, finding another failure than the one it expects).
    failed=$(grep -oE "Test Case '[^']+' failed|✘ Test [^ ]+ (recorded an issue|failed)" "$log" \
        | sed -E "s/Test Case '([^']+)' failed/\1/; s/✘ Test ([^ ]+).*/\1/" | awk '/testScenario|Coverage/ { print; found = 1; exit } NR == 1 { first = $0 } END { if (!found && first != "") print first }')
    # (Not the put-back bugs' tests: they print the failures they expect.)
    message=$( (grep -v "put back" "$log" | grep -E "CRASHED in schedule|FAILED at schedule"; grep -E "Fatal error|error: " "$log") | head -1 \
        | sed -E 's/.*(CRASHED in schedule [0-9]+).*/\1/; s/.*(FAILED at schedule [0-9]+: .*)/\1/; s/.*error: [^:]*: //' | cut -c1-150 | tr '|' '/')
    if [ -z "$failed" ] && grep -qE "Fatal error|Illegal instruction|Segmentation fault|signal" "$log"; then failed="(crash)"; fi
    echo "**caught** (status $status): ${failed:-?}${message:+: $message}"
}

run() {  # name
    local name=$1
    if ! (cd "$copy" && timeout 1800 swift build --build-tests > "$work/logs/$name.build.log" 2>&1); then
        printf '| %s | does not compile | | | |\n' "$name"
        return
    fi
    local status explorer suites model
    (cd "$copy" && timeout -k 10 "$explorer_timeout" swift test --skip-build --filter '^InterleavingTests\.' > "$work/logs/$name.explorer.log" 2>&1)
    status=$?
    explorer=$(verdict "$work/logs/$name.explorer.log" "$status")
    (cd "$copy" && timeout -k 10 "$suites_timeout" swift test --skip-build --filter '^(TomorrowlandTests|TomorrowlandAsyncTests)\.' > "$work/logs/$name.suites.log" 2>&1)
    status=$?
    suites=$(verdict "$work/logs/$name.suites.log" "$status")
    (cd "$copy" && timeout -k 10 "$model_timeout" swift test --skip-build --filter '^RulesModelTests\.' > "$work/logs/$name.model.log" 2>&1)
    status=$?
    model=$(verdict "$work/logs/$name.model.log" "$status")
    printf '| %s | %s | %s | %s | %s |\n' "$name" "$kind" "$explorer" "$suites" "$model"
}

# The exit status a finished run's log implies (for MUTATIONS_FROM_LOGS): 124 without the
# final summary (killed by the timeout), 1 with a failure, 0 otherwise.
status_from_log() {  # log
    if ! grep -qE "Executed [0-9]+ tests?, with [0-9]+ failures? .* seconds$" "$1"; then echo 124
    elif grep -qE "with [1-9][0-9]* failures?|✘ |Fatal error" "$1"; then echo 1
    else echo 0; fi
}

# MUTATIONS_FROM_LOGS=1: print the table again from the logs of the last run, without
# building or running anything.
if [ "${MUTATIONS_FROM_LOGS:-0}" = 1 ]; then
    run() {
        local explorer suites model
        explorer=$(verdict "$work/logs/$1.explorer.log" "$(status_from_log "$work/logs/$1.explorer.log")")
        suites=$(verdict "$work/logs/$1.suites.log" "$(status_from_log "$work/logs/$1.suites.log")")
        model=$(verdict "$work/logs/$1.model.log" "$(status_from_log "$work/logs/$1.model.log")")
        printf '| %s | %s | %s | %s | %s |\n' "$1" "$kind" "$explorer" "$suites" "$model"
    }
fi

echo "| Mutation | Kind | Explorer (InterleavingTests) | Ordinary suites | Rules model |"
echo "| --- | --- | --- | --- | --- |"
if [ "${MUTATIONS_SKIP_BASELINE:-0}" != 1 ]; then
    kind="none (baseline: must pass)"
    run baseline
fi
for patch in "${patches[@]}"; do
    name=$(basename "$patch" .patch)
    kind=$(sed -n 's/^Kind: //p' "$patch")
    if [ "${MUTATIONS_FROM_LOGS:-0}" = 1 ]; then run "$name"; continue; fi
    if ! (cd "$copy" && git apply "$patch") || ! (cd "$copy" && git apply -R --check "$patch" 2>/dev/null); then
        printf '| %s | %s | does not apply | | |\n' "$name" "$kind"
        continue
    fi
    run "$name"
    (cd "$copy" && git apply -R "$patch")
done
