# Sourced by .ci/run: `stage` runs one check and times it, `lanes` runs two lists of stages at
# once, and a summary of every stage's time ends the run (on failure too).
#
# A stage is one command (a script for anything longer), so that its failure stops its lane
# under `set -e`. It prints its wall time and the CPU time of its processes (user + system,
# from /proc where there is one): CPU seconds say what a stage costs on a quiet machine even
# when the run shares a loaded one, wall seconds do not.

ci_tmp=$(mktemp -d)
ci_timings="$ci_tmp/timings"
: > "$ci_timings"
ci_started=$SECONDS
ci_lane_pid=""
ci_ticks_per_second=$(getconf CLK_TCK 2>/dev/null || echo 100)

# CPU time used so far by the finished children of the (sub)shell PID, in clock ticks
# (cutime + cstime in /proc/PID/stat); 0 where there is no /proc.
ci_child_ticks() {
    local stat="/proc/$1/stat"
    [[ -r "$stat" ]] || { echo 0; return; }
    sed 's/.*) //' "$stat" | awk '{ print $14 + $15 }'
}

# stage TITLE COMMAND [ARGUMENTS…]: runs the command, then records its time; fails if it fails.
stage() {
    local title=$1
    shift
    echo "== $title"
    local start=$SECONDS shell=$BASHPID ticks status=0
    ticks=$(ci_child_ticks "$shell")
    "$@" || status=$?
    local wall=$((SECONDS - start)) cpu=$((($(ci_child_ticks "$shell") - ticks) / ci_ticks_per_second))
    local line
    line=$(printf '%5ss wall %5ss CPU  %s' "$wall" "$cpu" "$title")
    [[ $status == 0 ]] || line="$line  (FAILED: exit $status)"
    echo "-- $line"
    echo "$line" >> "$ci_timings"
    return "$status"
}

# lanes FOREGROUND BACKGROUND: runs the two functions' stages at the same time, BACKGROUND's
# output going to a log that is printed once FOREGROUND is done. BACKGROUND runs at the lowest
# CPU priority (nice 19): it takes the cores FOREGROUND leaves idle (its test runs wait on
# timers, sleeps and single threads) without slowing FOREGROUND's builds or its stress tests,
# whose racing threads spin and need both cores. Only in part: the compilers SwiftPM's builds
# start run at nice 0 whatever their parent's priority (seen with `ps`: swift-build at 19, its
# swift-frontend jobs at 0), and so did the migration tool started through `swift run` in a CI
# run, so most of BACKGROUND's CPU competes with FOREGROUND as an equal. With CI_LANES=1 the two
# run one after the other (a plainer log).
lanes() {
    local foreground=$1 background=$2
    if [[ "${CI_LANES:-2}" == 1 ]]; then
        "$foreground"
        "$background"
        return
    fi
    echo "== $background runs in the background meanwhile; its log follows when $foreground is done"
    set -m  # the background lane gets a process group of its own, so that a failure can stop it
    (renice -n 19 -p "$BASHPID" > /dev/null 2>&1 || true; "$background") < /dev/null > "$ci_tmp/lane.log" 2>&1 &
    ci_lane_pid=$!
    set +m
    "$foreground"
    echo "== waiting for $background"
    local status=0
    wait "$ci_lane_pid" || status=$?
    ci_lane_pid=""
    ci_print_lane_log "$background"
    return "$status"
}

ci_print_lane_log() {
    echo "==== $1 (background lane) ===="
    cat "$ci_tmp/lane.log"
    echo "==== end of $1 ===="
}

# On exit: stops a background lane still running (the run failed), prints its log so far and
# the summary of stage times.
ci_finish() {
    local status=$?
    if [[ -n "$ci_lane_pid" ]]; then
        kill -- "-$ci_lane_pid" 2>/dev/null || true
        wait "$ci_lane_pid" 2>/dev/null || true
        ci_print_lane_log "the background lane, stopped"
    fi
    echo "== Stage times (wall, CPU of the stage's processes; lanes overlap, so the walls add up to more than the total)"
    cat "$ci_timings"
    printf '%5ss wall in total, exit %s\n' "$((SECONDS - ci_started))" "$status"
    rm -rf "$ci_tmp"
    exit "$status"
}
trap ci_finish EXIT
