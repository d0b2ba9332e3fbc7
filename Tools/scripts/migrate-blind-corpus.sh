#!/usr/bin/env bash
# The whole pipeline on a blind corpus (Tools/BlindCorpora/<name>: a 1.x codebase the tool's
# tests never saw), the way its first run went (BlindCorpora/<name>-first-run.md), with no hand
# edit but the two that MIGRATION.md leaves to the user and the corpus's Package.swift asks for:
#
#   0. as written
#   1. adopt Sources/ Tests/ --write (then the user's fix of a race the compiler names, where
#      BlindCorpora/<name>-user-fixes.patch gives it; with --sendable-fixes, then the user's fix
#      that convert-body's advice names, BlindCorpora/<name>-sendable-fixes.patch: the types its
#      chains wait on made Sendable or isolated, what the corpus as written does not have)
#   2. report Sources/ Tests/
#   3. add-async-twins Sources/ Tests/ --write; then, when it says so, the TomorrowlandAsync
#      product added to the targets it names, and (when it asks) add-async-twins again
#   4. add-promise-twins Sources/ Tests/ --write
#   5. the TwinTests target of Package.swift's comment uncommented (tests of the async twins)
#   6. convert-calls Sources/ Tests/ TwinTests/ --write
#   7. convert-body Sources/ Tests/ TwinTests/ --include-public --write (the corpus is an app, as
#      for delete-twins: a public promise version nothing calls may go where no wrapper can stay)
#   8. delete-twins Sources/ Tests/ TwinTests/ --include-public --write
#   9. the end state: built and tested in Swift 6 and in Swift 5 mode
#
# (From step 6 on TwinTests/ is scanned too: it calls the twins, so delete-twins must see those
# calls. A corpus without a TwinTests folder, like Orders, skips step 5 and scans Sources/ Tests/.) After each step the copy is built (`swift build --build-tests`) in Swift 6 and in
# Swift 5 mode, each in a scratch folder of its own, and the errors are printed per mode:
# the count of unique `file:line:col: error:` lines and the first ones. SwiftPM stops at the
# first module that fails, so a count covers the modules compiled so far. Where it builds, the
# tests run (`swift test --skip-build`) and their totals are printed.
# --sendable-fixes (opt-in: the shares as written are the ones without it) measures the path
# convert-body's advice names for its largest reason, a non-Sendable `self` or parameter (a
# corpus without such a patch stops with an error).
# --async-product-first adds the TomorrowlandAsync product to every target before step 3
# instead of when the tool asks, to see the steps after it when the tool never gets to ask. The language mode is
# switched the way the corpus's manifest allows: `swiftLanguageModes: [.vN]` (rewritten for
# the build, then put back with its timestamp) or a `<NAME>_SWIFT_MODE=5` environment variable.
# The tool itself runs on the copy as it is (the package's own mode).
#
# The copy sits at the depth of the corpus (Tools/BlindCorpora/.run-<name>, gitignored), so
# that its `path: "../../.."` dependency is this checkout. It is removed at the end unless
# --keep is given (then it holds logs/ with every command's output and every build log).
# Exits non-zero when the end state's tests fail in either mode, or it does not build in a mode
# in which the corpus built once adopted (step 1).
#
# --lean (what CI runs): no build between the steps, one build and test run per mode at the
# end, both in the copy's .build (the package's own mode first, where the tool's builds left
# off), and the tool run the way README.md tells a user to, from the copy's root:
# `swift run --package-path ../Tomorrowland/Tools tomorrowland-migrate …`. The copy then sits
# in a temporary folder next to `Tomorrowland`, a symbolic link to this checkout (its
# dependency rewritten from `../../..` to `../Tomorrowland`), so the tool's build is this
# checkout's Tools/.build. Also exits non-zero when a command of the tool fails.
#
# Clinic, Relay and Pharmacy are Swift 5 mode apps whose manifests default to Swift 6 (`<NAME>_SWIFT_MODE=5`
# chooses Swift 5): for them the variable is set to 5 unless the environment sets it, so the tool
# runs in the app's own mode, as for Ledger and Orders (`swiftLanguageModes: [.v5]`).
#
#   Tools/scripts/migrate-blind-corpus.sh HomeHub [--keep] [--async-product-first] [--lean] [--sendable-fixes]
#   Tools/scripts/migrate-blind-corpus.sh Ledger [--keep] [--async-product-first] [--lean] [--sendable-fixes]
#   Tools/scripts/migrate-blind-corpus.sh Orders [--keep] [--async-product-first] [--lean] [--sendable-fixes]
#   Tools/scripts/migrate-blind-corpus.sh Clinic [--keep] [--async-product-first] [--lean] [--sendable-fixes]
#   Tools/scripts/migrate-blind-corpus.sh Relay [--keep] [--async-product-first] [--lean] [--sendable-fixes]
#   Tools/scripts/migrate-blind-corpus.sh Pharmacy [--keep] [--async-product-first] [--lean] [--sendable-fixes]
#   Tools/scripts/migrate-blind-corpus.sh Fleet [--keep] [--async-product-first] [--lean] [--sendable-fixes]
#   Tools/scripts/migrate-blind-corpus.sh Kitchen [--keep] [--async-product-first] [--lean] [--sendable-fixes]
#   Tools/scripts/migrate-blind-corpus.sh Gallery [--keep] [--async-product-first] [--lean] [--sendable-fixes]
# (Kitchen is a Swift 5 mode package whose `KITCHEN_SWIFT_MODE=6` tries Swift 6 mode: a variable
# compared with "6" selects Swift 6 mode when set, Swift 5 mode when unset.)
set -uo pipefail
name="${1:-}"
keep=0
product_first=0
lean=0
sendable_fixes=0
for option in "${@:2}"; do
    case "$option" in
    --keep) keep=1 ;;
    --async-product-first) product_first=1 ;;
    --lean) lean=1 ;;
    --sendable-fixes) sendable_fixes=1 ;;
    *) echo "unknown option $option" >&2; exit 2 ;;
    esac
done
tools="$(cd "$(dirname "$0")/.." && pwd)"
corpus="$tools/BlindCorpora/$name"
if [ -z "$name" ] || [ ! -f "$corpus/Package.swift" ]; then
    echo "usage: $0 <HomeHub|Ledger|Orders|Transit|Clinic|Relay|Pharmacy|Fleet|Kitchen|Gallery> [--keep] [--async-product-first] [--lean] [--sendable-fixes]  (a folder of Tools/BlindCorpora)" >&2
    exit 2
fi
if [ "$sendable_fixes" = 1 ] && [ ! -f "$tools/BlindCorpora/$name-sendable-fixes.patch" ]; then
    echo "--sendable-fixes: no BlindCorpora/$name-sendable-fixes.patch" >&2
    exit 2
fi
if [ "$lean" = 1 ]; then
    # A user's layout: <folder>/Tomorrowland, a symbolic link to this checkout, and
    # <folder>/<name>, the copy, whose dependency is `path: "../Tomorrowland"`.
    folder="$(mktemp -d)"
    work="$folder/$name"
    logs="$folder/logs"
    [ "$keep" = 1 ] || trap 'rm -rf "$folder"' EXIT
    ln -s "$(cd "$tools/.." && pwd)" "$folder/Tomorrowland"
else
    work="$tools/BlindCorpora/.run-$name"
    logs="$work/logs"
    rm -rf "$work"
    [ "$keep" = 1 ] || trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
# tar keeps the symbolic links (files two targets share) as links.
(cd "$corpus" && tar --exclude='.build' --exclude='.build-*' --exclude='.swiftpm' -cf - .) | (cd "$work" && tar -xf -)
mkdir -p "$logs"

if [ "$lean" = 1 ]; then
    perl -pi -e 's|path: "\.\./\.\./\.\."|path: "../Tomorrowland"|' "$work/Package.swift"
    grep -q 'path: "\.\./Tomorrowland"' "$work/Package.swift" || { echo "no path: \"../../..\" dependency in $name's Package.swift" >&2; exit 1; }
    # The documented command, from the package's root (README.md, "The migration tool, from your
    # package"); the tool's build is the checkout's Tools/.build.
    tool_command=(swift run --package-path ../Tomorrowland/Tools tomorrowland-migrate)
else
    swift build --package-path "$tools" --product tomorrowland-migrate > "$logs/tool-build.log" 2>&1 || { cat "$logs/tool-build.log"; exit 1; }
    tool_command=("$(swift build --package-path "$tools" --show-bin-path)/tomorrowland-migrate")
fi
cd "$work"
# The symbolic links of the sources (files two targets share), with what they point to.
links() { find Sources Tests TwinTests -type l -printf '%p -> %l\n' 2>/dev/null | sort; }
links_before=$(links)

# How the manifest chooses the language mode.
if grep -qE 'swiftLanguageModes: \[\.v[0-9]+\]' Package.swift; then
    mode_style=manifest
elif mode_variable=$(grep -oE '[A-Z][A-Z0-9_]*_SWIFT_MODE' Package.swift | head -1) && [ -n "$mode_variable" ]; then
    mode_style=environment
    # The mode the variable selects when set (`…_SWIFT_MODE"] == "5"`, or "6" for a Swift 5 mode
    # package whose variable tries Swift 6, as Kitchen's); unset, the other one.
    variable_selects=$(grep -oE '_SWIFT_MODE"\] == "[0-9]+"' Package.swift | grep -oE '[0-9]+' | head -1)
    [ -n "$variable_selects" ] || variable_selects=5
else
    mode_style=none
fi

# A Swift 5 mode app chosen by an environment variable: the variable set, unless the caller set it.
if [ "$mode_style" = environment ] && [ -z "${!mode_variable:-}" ]; then
    case "$name" in
    Clinic | Relay | Pharmacy) export "$mode_variable=5"; echo "($mode_variable=5: $name is a Swift 5 mode app)" ;;
    esac
fi

# The package's own mode, in which the tool builds it (in .build).
case "$mode_style" in
manifest) own_mode=$(grep -oE 'swiftLanguageModes: \[\.v[0-9]+\]' Package.swift | grep -oE '[0-9]+') ;;
environment)
    if [ "${!mode_variable:-}" = "$variable_selects" ]; then own_mode=$variable_selects
    else own_mode=$([ "$variable_selects" = 5 ] && echo 6 || echo 5); fi
    ;;
*) own_mode=6 ;;
esac
modes="6 5"
[ "$lean" = 0 ] || modes="$own_mode $([ "$own_mode" = 6 ] && echo 5 || echo 6)"

# scratch <mode>: .build-swift<mode>, each mode its own build folder; with --lean, .build for
# both (the tool's, whose dependencies are built by then; a mode change rebuilds only the
# corpus's modules), the package's own mode first.
scratch() {
    if [ "$lean" = 1 ]; then echo .build; else echo ".build-swift$1"; fi
}

# in_mode <mode> <swift command…>: the command in Swift <mode> mode, in scratch <mode>.
in_mode() {
    local mode="$1" status
    shift
    case "$mode_style" in
    manifest)
        cp -p Package.swift "$logs/Package.swift.saved"
        sed -i -E "s/swiftLanguageModes: \[\.v[0-9]+\]/swiftLanguageModes: [.v$mode]/" Package.swift
        "$@" --scratch-path "$(scratch "$mode")"
        status=$?
        cp -p "$logs/Package.swift.saved" Package.swift
        ;;
    environment)
        if [ "$mode" = "$variable_selects" ]; then
            env "$mode_variable=$mode" "$@" --scratch-path "$(scratch "$mode")"
        else
            env -u "$mode_variable" "$@" --scratch-path "$(scratch "$mode")"
        fi
        status=$?
        ;;
    *)
        [ "$mode" = 6 ] || { echo "(no way to choose Swift $mode mode in this manifest)"; return 1; }
        "$@" --scratch-path "$(scratch "$mode")"
        status=$?
        ;;
    esac
    return $status
}

# errors <log>: the unique `file:line:col: error:` lines, paths relative to the copy.
errors() {
    grep -E '^/[^ ]+:[0-9]+:[0-9]+: error: ' "$1" | sed "s|^$work/||" | sort -u
}

# rerun_timing_tests <mode> <test log>: when the run completed and every test that failed is
# listed for this corpus in BlindCorpora/timing-tests.txt (a timing budget that fails under load
# in the 1.x form too), reruns each of them once, by itself; succeeds if every rerun passes.
rerun_timing_tests() {
    local mode="$1" log="$2" failed test rerun
    grep -qE 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$log" || return 1
    grep -qE '✘ Test .* failed' "$log" && return 1
    failed=$(grep -oE "Test Case '[^']+' failed" "$log" | sed -E "s/^Test Case '(.*)' failed$/\1/" | sort -u)
    [ -n "$failed" ] || return 1
    for test in $failed; do
        grep -qE "^$name ${test//./\\.}( |$)" "$tools/BlindCorpora/timing-tests.txt" || return 1
    done
    for test in $failed; do
        rerun="${log%.log}-rerun-${test##*.}.log"
        in_mode "$mode" swift test --skip-build --filter "\\.${test%%.*}/${test##*.}\$" > "$rerun" 2>&1 || return 1
        grep -qE 'Executed 1 test, with 0 failures' "$rerun" || return 1
        echo "   Swift $mode mode: $test (a timing test, BlindCorpora/timing-tests.txt) failed, then passed on its rerun"
        timing_reruns[$mode]="${timing_reruns[$mode]:-}$test "
    done
    return 0
}

declare -A final_status timing_reruns
# after <step>: build in both modes and print the errors of each; where it builds, run the tests.
after() {
    local step="$1" mode log count
    # --lean: the end state only.
    [ "$lean" = 0 ] || [ "$step" = 8-delete-twins ] || return 0
    for mode in $modes; do
        log="$logs/$step-swift$mode-build.log"
        if in_mode "$mode" swift build --build-tests > "$log" 2>&1; then
            final_status[$mode]=0
            in_mode "$mode" swift test --skip-build > "$logs/$step-swift$mode-test.log" 2>&1
            [ $? = 0 ] || rerun_timing_tests "$mode" "$logs/$step-swift$mode-test.log" || final_status[$mode]=2
            echo "   Swift $mode mode: builds; tests: $(tests "$logs/$step-swift$mode-test.log")"
        else
            final_status[$mode]=1
            count=$(errors "$log" | wc -l | tr -d ' ')
            if [ "$count" = 0 ]; then
                echo "   Swift $mode mode: does not build, no located error; the end of the log:"
                tail -5 "$log" | sed 's/^/      /'
            else
                echo "   Swift $mode mode: $count error(s)"
                errors "$log" | head -8 | sed 's/^/      /'
                [ "$count" -le 8 ] || echo "      …"
            fi
        fi
    done
}

# tests <log>: XCTest's totals, or the failure.
tests() {
    local summary
    summary=$(grep -E 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$1" | tail -1 | sed -E 's/^ *//; s/ \(.*//')
    [ -n "$summary" ] && echo "$summary" || echo "did not run: $(grep -m1 -E 'error' "$1" | cut -c1-160)"
}

# run <step> <command…>: the tool, its stdout and stderr kept; prints the exit status, the
# summary line and the time.
run() {
    local step="$1"
    shift
    local start end status
    start=$(date +%s.%N)
    "${tool_command[@]}" "$@" > "$logs/$step.out" 2> "$logs/$step.err"
    status=$?
    [ "$status" = 0 ] || tool_failed=1
    end=$(date +%s.%N)
    printf '   tomorrowland-migrate %s: exit %s, %.1f s; %s\n' "$*" "$status" "$(awk "BEGIN { print $end - $start }")" \
        "$(grep -E 'file\(s\) changed' "$logs/$step.out" | tail -1)"
    return 0
}

# convert-body's advice: a note per type that chains left wait on being Sendable (printed in full).
advice=': [0-9]+ chains? left waits? on '
# notes <step>: the notes that are not call sites pinned (`gets \`as …\``), shortened.
notes() {
    local count
    count=$(grep -c '^note: ' "$logs/$1.err" || true)
    echo "   $count note(s); the first that are not pins (duplicates once):"
    grep '^note: ' "$logs/$1.err" | grep -v 'gets `as' | grep -vE ': (convert-calls|convert-body|delete-twins): [0-9]' | grep -vE "$advice" \
        | sed "s|$work/||g" | cut -c1-220 | awk '!seen[$0]++' | head -25 | sed 's/^/      /'
    grep '^error: ' "$logs/$1.err" | sed 's/^/      /'
}

echo "== $name: 0. as written"
after 0-as-written

echo "== 1. adopt Sources/ Tests/ --write"
run 1-adopt adopt Sources/ Tests/ --write
notes 1-adopt
# A race the compiler names once adopted (a callback on another queue that touched actor state:
# MIGRATION.md leaves its fix to the user) is fixed the way the user would, from
# BlindCorpora/<name>-user-fixes.patch, written from the corpus's NOTES.md (Pharmacy).
if [ -f "$tools/BlindCorpora/$name-user-fixes.patch" ]; then
    patch -s -p1 < "$tools/BlindCorpora/$name-user-fixes.patch" || { echo "$name-user-fixes.patch does not apply" >&2; exit 1; }
    echo "   (the user's fix of the race the compiler names, from $name-user-fixes.patch)"
fi
# --sendable-fixes: the user's fix that convert-body's advice names (its largest reason to leave a
# chain), from BlindCorpora/<name>-sendable-fixes.patch: each type its chains wait on made Sendable
# where that is true of it (a lock it needed added, `@unchecked Sendable` with a comment where its
# own lock guards every use) or isolated.
if [ "$sendable_fixes" = 1 ]; then
    patch -s -p1 < "$tools/BlindCorpora/$name-sendable-fixes.patch" || { echo "$name-sendable-fixes.patch does not apply" >&2; exit 1; }
    echo "   (--sendable-fixes: the user's fix convert-body's advice names, from $name-sendable-fixes.patch)"
fi
after 1-adopt
# Whether the code builds once adopted, per mode: what an end state that does not build is held
# to. `adopt` makes the edits MIGRATION.md says 1.x code needs, so most corpora build from here
# on (HomeHub and Ledger do not build as written, so "as written" would excuse any failure); a
# corpus whose own 1.x code does not compile in a mode even then (Orders' and Clinic's captures of
# non-Sendable values in Swift 6 mode) is not held to that mode. Without --lean the build above
# tells; with --lean a copy of this state is kept and built only if the end state does not build
# in a mode (adopted_builds).
declare -A adopted
for mode in $modes; do
    case "${final_status[$mode]:-}" in
    0 | 2) adopted[$mode]=0 ;;
    1) adopted[$mode]=1 ;;
    esac
done
adopted_copy="$(dirname "$work")/.run-$name-adopted"
if [ "$lean" = 1 ]; then
    rm -rf "$adopted_copy"
    mkdir -p "$adopted_copy"
    tar --exclude='.build' --exclude='.build-*' --exclude='.swiftpm' -cf - . | (cd "$adopted_copy" && tar -xf -)
fi

echo "== 2. report Sources/ Tests/"
run 2-report report Sources/ Tests/
sed -n '/^folder /,/^total /p' "$logs/2-report.out" | sed 's/^/   /'
notes 2-report

# add_async_product <target>: `.product(name: "TomorrowlandAsync", …)` next to its Tomorrowland product.
add_async_product() {
    # Listed already: nothing to add.
    TARGET="$1" perl -0ne 'exit(!/name:\s*"\Q$ENV{TARGET}\E",\s*dependencies:\s*\[[^\]]*TomorrowlandAsync/)' Package.swift && return 0
    TARGET="$1" perl -0pi -e 's/(\.(?:test)?[tT]arget\(\s*name:\s*"\Q$ENV{TARGET}\E",\s*dependencies:\s*\[[^\]]*?)\.product\(name: "Tomorrowland", package: "Tomorrowland"\)/$1.product(name: "Tomorrowland", package: "Tomorrowland"), .product(name: "TomorrowlandAsync", package: "Tomorrowland")/s' Package.swift
    TARGET="$1" perl -0ne 'exit(!/name:\s*"\Q$ENV{TARGET}\E",\s*dependencies:\s*\[[^\]]*TomorrowlandAsync/)' Package.swift
}

if [ "$product_first" = 1 ]; then
    # --async-product-first: before the twins, not when the tool asks (MIGRATION.md's order).
    for folder in $(ls -d Sources/*/ Tests/*/ 2>/dev/null); do
        target=$(basename "$folder")
        add_async_product "$target" && echo "   (--async-product-first: the TomorrowlandAsync product added to $target)"
    done
fi

echo "== 3. add-async-twins Sources/ Tests/ --write"
# twins_step <step>: add-async-twins, and what it wrote so far.
twins_step() {
    run "$1" add-async-twins Sources/ Tests/ --write
    twins=$(grep -rc "Async twin of" Sources Tests | awk -F: '{ sum += $2 } END { print sum + 0 }')
    pins=$(grep -c 'gets `as' "$logs/$1.err" || true)
    skips=$(grep -c ': no async twin: ' "$logs/$1.err" || true)
    echo "   $twins async twins, $pins call sites pinned, $skips functions skipped"
    notes "$1"
}
twins_step 3-add-async-twins
# The user's step (MIGRATION.md): the product, for the targets the tool names (twins it left
# out until then: it runs again) or whose files it made import TomorrowlandAsync.
asked=$(sed -n 's/.*add the TomorrowlandAsync product to the dependencies of the target(s) \(.*\), then run add-async-twins again.*/\1/p' \
    "$logs/3-add-async-twins.err" | tr -d ',')
if grep -q 'add the TomorrowlandAsync product to their targets' "$logs/3-add-async-twins.err"; then
    asked="$asked $(grep -rl '^import TomorrowlandAsync' Sources Tests 2>/dev/null | cut -d/ -f2 | sort -u)"
fi
for target in $(printf '%s\n' $asked | sort -u); do
    if add_async_product "$target"; then
        echo "   (the TomorrowlandAsync product added to $target, as the note asks)"
    else
        echo "   (could not add the TomorrowlandAsync product to $target)"
    fi
done
if grep -q 'then run add-async-twins again' "$logs/3-add-async-twins.err"; then
    echo "== 3b. add-async-twins Sources/ Tests/ --write, again (as the note asks)"
    twins_step 3b-add-async-twins
fi
after 3-add-async-twins

echo "== 4. add-promise-twins Sources/ Tests/ --write"
run 4-add-promise-twins add-promise-twins Sources/ Tests/ --write
notes 4-add-promise-twins
grep -q '^0 file(s) changed' "$logs/4-add-promise-twins.out" && echo "   (nothing changed: the build is as after 3)" || after 4-add-promise-twins

# The folders steps 6 to 8 scan: TwinTests/ only where the corpus has one.
scanned=(Sources/ Tests/)
[ -d TwinTests ] && scanned+=(TwinTests/)

echo "== 5. the TwinTests target (Package.swift's comment, uncommented)"
# The twin tests live in TwinTests/ or inside Tests/ (Fleet: Tests/TwinTests, scanned with Tests/).
if [ ! -d TwinTests ] && [ ! -d Tests/TwinTests ]; then
    echo "   (no TwinTests folder in $name: nothing to uncomment)"
else
python3 - <<'PY'
import re
lines = open("Package.swift").read().split("\n")
start = next((i for i, line in enumerate(lines) if re.match(r"\s*//\s*\.testTarget\(", line)
              and "TwinTests" in " ".join(lines[i:i + 2])), None)
if start is None:
    raise SystemExit("   no commented-out TwinTests target in Package.swift")
depth, end = 0, None
for j in range(start, len(lines)):
    content = re.sub(r"^\s*//\s?", "", lines[j])
    depth += content.count("(") - content.count(")")
    if depth <= 0:
        end = j
        break
for j in range(start, end + 1):
    lines[j] = re.sub(r"^(\s*)//\s*", r"\1", lines[j])
open("Package.swift", "w").write("\n".join(lines))
print("   uncommented lines %d-%d" % (start + 1, end + 1))
PY
after 5-twin-tests
fi

echo "== 6. convert-calls ${scanned[*]} --write"
run 6-convert-calls convert-calls "${scanned[@]}" --write
grep -E 'convert-calls: [0-9]+ call' "$logs/6-convert-calls.err" | sed "s|$work/||; s/^/   /"
notes 6-convert-calls
after 6-convert-calls

echo "== 7. convert-body ${scanned[*]} --include-public --write"
run 7-convert-body convert-body "${scanned[@]}" --include-public --write
grep -E 'convert-body: [0-9]+ of [0-9]+' "$logs/7-convert-body.err" | sed "s|$work/||; s/^/   /"
notes 7-convert-body
if grep -qE "$advice" "$logs/7-convert-body.err"; then
    echo "   convert-body's advice (the types the chains left wait on):"
    grep '^note: ' "$logs/7-convert-body.err" | grep -E "$advice" | sed "s|$work/||g" | sed 's/^/      /'
fi
after 7-convert-body

echo "== 8. delete-twins ${scanned[*]} --include-public --write"
run 8-delete-twins delete-twins "${scanned[@]}" --include-public --write
grep -E 'delete-twins: [0-9]+ twin' "$logs/8-delete-twins.err" | sed "s|$work/||; s/^/   /"
notes 8-delete-twins
after 8-delete-twins

# adopted_builds <mode>: whether the corpus once adopted builds in Swift <mode> mode (with --lean,
# its copy built now, once).
adopted_builds() {
    local mode="$1"
    if [ -z "${adopted[$mode]:-}" ]; then
        if (cd "$adopted_copy" && in_mode "$mode" swift build --build-tests > "$logs/adopted-swift$mode-build.log" 2>&1); then
            adopted[$mode]=0
        else
            adopted[$mode]=1
        fi
    fi
    [ "${adopted[$mode]}" = 0 ]
}

echo "== 9. the end state"
failed=0
[ "${tool_failed:-0}" = 0 ] || { echo "   a command of the tool failed (exit status above)"; failed=1; }
for mode in $modes; do
    case "${final_status[$mode]}" in
    0) if [ -n "${timing_reruns[$mode]:-}" ]; then
           echo "   Swift $mode mode: builds, tests pass: $(tests "$logs/8-delete-twins-swift$mode-test.log"), then passed" \
               "on its rerun: ${timing_reruns[$mode]}(a timing test of BlindCorpora/timing-tests.txt)"
       else
           echo "   Swift $mode mode: builds, tests pass: $(tests "$logs/8-delete-twins-swift$mode-test.log")"
       fi ;;
    2) echo "   Swift $mode mode: builds, tests fail: $(tests "$logs/8-delete-twins-swift$mode-test.log")"
       grep -E "error: |failed \(" "$logs/8-delete-twins-swift$mode-test.log" | head -8 | sed 's/^/      /'
       failed=1 ;;
    *) if adopted_builds "$mode"; then
           echo "   Swift $mode mode: does not build (above), though $name built once adopted (step 1)"
           failed=1
       else
           echo "   Swift $mode mode: does not build (above), nor does $name once adopted (its own 1.x code): not counted against the migration"
       fi ;;
    esac
done

links_after=$(links)
if [ "$links_before" != "$links_after" ]; then
    echo "   symbolic links changed: before"$'\n'"$links_before"$'\n'"   after"$'\n'"$links_after"
    failed=1
elif [ -n "$links_before" ]; then
    echo "   symbolic links kept: $(echo "$links_before" | wc -l | tr -d ' ')"
fi
[ "$keep" = 1 ] && echo "   the copy and its logs: $work"
if [ "$failed" = 0 ]; then
    echo "migrate-blind-corpus $name: OK"
else
    echo "migrate-blind-corpus $name: the end state does not build or its tests fail" >&2
    exit 1
fi
