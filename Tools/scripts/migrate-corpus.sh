#!/usr/bin/env bash
# The tool on a realistic codebase, with no hand edits: Tools/Corpus is an ~1,000-line app core
# written the way teams used Tomorrowland 1.x (a protocol with promise requirements and its
# conformers and test fakes, open classes with overrides, typed errors, `extension Promise`
# helpers, a @MainActor view model, an actor, non-Sendable services, typealiases, #if blocks,
# doc comments, XCTest tests, custom contexts in `extension PromiseContext`, contexts chosen by
# ternaries and held in properties). This script copies it, runs
#   adopt Sources/ Tests/ --write (without it the copy does not compile) ·
#   report · add-async-twins Sources/ Tests/ --write · add-promise-twins Sources/ Tests/ --write
# checks that adopt lists nothing, that the progress figures did not move, that second runs
# change nothing and that no line the tool wrote is over 120 columns, adds Corpus/TwinTests
# (tests written against the twins), runs
#   convert-calls Sources/ Tests/ --write · convert-body Sources/ Tests/ --include-public --write ·
#   delete-twins Sources/ Tests/ --include-public --write
# (each proven by the compiler; second runs change nothing; convert-calls leaves the progress
# figures where they were), then builds with zero warnings and
# runs the tests in Swift 6 and in Swift 5 mode (StoreTests and ArticleTests check with
# DispatchQueue.getSpecific that each callback runs on the queue its context names, before and
# after convert-body moved it into a twin), and checks that its debug build of
# Tomorrowland has none of the explorer's schedule points. CI runs it (migrate-corpora.sh).
#
#   Tools/scripts/migrate-corpus.sh            # from the repository root or anywhere
set -euo pipefail
tools="$(cd "$(dirname "$0")/.." && pwd)"
# At the depth of Tools/Corpus, so that its `path: "../.."` dependency is this repository.
work="$tools/.corpus"
rm -rf "$work"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
cp -R "$tools/Corpus/Package.swift" "$tools/Corpus/Sources" "$tools/Corpus/Tests" "$work/"

swift build --package-path "$tools" --product tomorrowland-migrate
tool="$(swift build --package-path "$tools" --show-bin-path)/tomorrowland-migrate"
cd "$work"
fail() { echo "migrate-corpus: $*" >&2; exit 1; }

echo "== tomorrowland-migrate adopt Sources/ Tests/ --write"
"$tool" adopt Sources/ Tests/ --write 2> adopt-notes.txt
[ ! -s adopt-notes.txt ] || fail "adopt listed sites in the corpus (it has no 1.x races):"$'\n'"$(cat adopt-notes.txt)"
grep -q "extension PromiseContext.Named {" Sources/AppCore/Storage.swift || fail "adopt wrote no twin of the corpus's custom contexts"
second_adopt=$("$tool" adopt Sources/ Tests/ 2>/dev/null) || fail "a second adopt run failed"
[ -z "$second_adopt" ] || fail "a second adopt run wanted changes"

echo "== tomorrowland-migrate report Sources/ Tests/"
"$tool" report Sources/ Tests/ > report-before.txt
sed -n '/^folder /,/^total /p' report-before.txt

echo "== add-async-twins Sources/ Tests/ --write; add-promise-twins Sources/ Tests/ --write"
"$tool" add-async-twins Sources/ Tests/ --write 2> notes.txt
"$tool" add-promise-twins Sources/ Tests/ --write 2>> notes.txt
grep -v "gets \`as" notes.txt || true
twins=$(grep -rc "Async twin of" Sources Tests | awk -F: '{ sum += $2 } END { print sum }')
promise_twins=$(grep -rc "Promise twin of" Sources Tests | awk -F: '{ sum += $2 } END { print sum }')
pinned=$(grep -c "gets \`as" notes.txt || true)
skipped=$(grep -c ": no async twin: \|: no promise twin: " notes.txt || true)
echo "$twins async twins, $promise_twins promise twins, $pinned call sites pinned, $skipped functions skipped (each with its reason)"
[ "$twins" -ge 20 ] || fail "expected at least 20 async twins, got $twins"
# The compiler decides: its proof ran, no call is "unknown", no function is skipped on a guess.
grep -q "checked by the compiler" notes.txt || fail "add-async-twins did not prove its plan with the compiler"
if grep -E "might pick the twin|may also mean another|is not known to conform to Error|nothing written" notes.txt; then
    fail "a function was skipped on a guess, or the proof failed"
fi
if grep -q "unknown)" report-before.txt; then fail "the report counts callers as unknown on code that builds"; fi
[ "$promise_twins" -ge 3 ] || fail "expected at least 3 promise twins, got $promise_twins"

"$tool" report Sources/ Tests/ > report-after.txt
total_before=$(grep '^total ' report-before.txt) || fail "the report before the twins has no 'total' line"
total_after=$(grep '^total ' report-after.txt) || fail "the report after the twins has no 'total' line"
[ "$total_before" = "$total_after" ] || fail "the twins moved the progress figures: $total_before -> $total_after"

# Assigned first, so that a crash of the tool fails the script instead of passing as "no output".
second_async=$("$tool" add-async-twins Sources/ Tests/ 2>/dev/null) || fail "a second add-async-twins run failed"
[ -z "$second_async" ] || fail "a second add-async-twins run wanted changes"
second_promise=$("$tool" add-promise-twins Sources/ Tests/ 2>/dev/null) || fail "a second add-promise-twins run failed"
[ -z "$second_promise" ] || fail "a second add-promise-twins run wanted changes"

long=$(for file in $(find Sources Tests -name '*.swift'); do
    awk 'length > 120' "$file" | while IFS= read -r line; do
        grep -qxF -- "$line" "$tools/Corpus/$file" || echo "$file: $line"
    done
done)
[ -z "$long" ] || fail "lines over 120 columns written by the tool:"$'\n'"$long"

# Before convert-calls and delete-twins: tests written against the twins call them.
cp "$tools/Corpus/TwinTests/TwinTests.swift" Tests/AppCoreTests/

echo "== convert-calls Sources/ Tests/ --write; convert-body Sources/ Tests/ --write; delete-twins Sources/ Tests/ --include-public --write"
"$tool" report Sources/ Tests/ > report-before-calls.txt
"$tool" convert-calls Sources/ Tests/ --write 2> convert-notes.txt
sed -n 's/^note: //p' convert-notes.txt | grep -E "convert-calls: |: left " || true
grep -q "checked by the compiler" convert-notes.txt || fail "convert-calls did not prove its changes with the compiler"
if grep -E "nothing written|nothing converted|the compiler objects" convert-notes.txt; then fail "convert-calls: a change was refused"; fi
converted=$(sed -n 's/.*convert-calls: \([0-9]*\) call(s) converted.*/\1/p' convert-notes.txt)
[ "${converted:-0}" -ge 20 ] || fail "expected at least 20 calls converted, got ${converted:-0}"
# `try await f(x)` counts as the `try await f(x).value` it replaced: the figures do not move.
"$tool" report Sources/ Tests/ > report-after-calls.txt
calls_before=$(grep '^total ' report-before-calls.txt) || fail "the report before convert-calls has no 'total' line"
calls_after=$(grep '^total ' report-after-calls.txt) || fail "the report after convert-calls has no 'total' line"
[ "$calls_before" = "$calls_after" ] || fail "convert-calls moved the progress figures: $calls_before -> $calls_after"
# The chains move into the twins; the promise versions wrap them (or go, where nothing calls them
# and Swift 6 mode rejects their wrapper: the corpus is an app's core, so public ones too).
"$tool" convert-body Sources/ Tests/ --include-public --write 2> body-notes.txt
sed -n 's/^note: //p' body-notes.txt | grep -E "convert-body: |left as a chain" || true
grep -q "checked by the compiler" body-notes.txt || fail "convert-body did not prove its changes with the compiler"
if grep -E "nothing written" body-notes.txt; then fail "convert-body: the proof failed"; fi
grep -q "^note: .*convert-body: [0-9]* of [0-9]* chain bodies converted" body-notes.txt || fail "convert-body printed no tally"
converted=$(sed -n 's/.*convert-body: \([0-9]*\) of .*/\1/p' body-notes.txt)
[ "$converted" -ge 21 ] || fail "expected convert-body to convert at least 21 chain bodies, got $converted"
second_body=$("$tool" convert-body Sources/ Tests/ --include-public 2>/dev/null) || fail "a second convert-body run failed"
[ -z "$second_body" ] || fail "a second convert-body run wanted changes"
# The corpus is an app's core: nothing outside this package calls it, so public twins go too.
"$tool" delete-twins Sources/ Tests/ --include-public --write 2> delete-notes.txt
sed -n 's/^note: //p' delete-notes.txt | grep -E "delete-twins: " || true
grep -q "checked by the compiler" delete-notes.txt || fail "delete-twins did not prove its changes with the compiler"
if grep -E "nothing written|nothing deleted|the compiler objects" delete-notes.txt; then fail "delete-twins: a change was refused"; fi
deleted=$(sed -n 's/.*delete-twins: \([0-9]*\) twin(s) deleted.*/\1/p' delete-notes.txt)
# (Fewer than before convert-body: the twins it filled are called by their promise versions, since
# issue 39's `.nowOr` conversion `StoreViewModel.show(_:quick:)`'s too.)
[ "${deleted:-0}" -ge 4 ] || fail "expected at least 4 twins deleted, got ${deleted:-0}"
second_convert=$("$tool" convert-calls Sources/ Tests/ 2>/dev/null) || fail "a second convert-calls run failed"
[ -z "$second_convert" ] || fail "a second convert-calls run wanted changes"
second_delete=$("$tool" delete-twins Sources/ Tests/ --include-public 2>/dev/null) || fail "a second delete-twins run failed"
[ -z "$second_delete" ] || fail "a second delete-twins run wanted changes"
for mode in 6 5; do
    echo "== Swift $mode mode: build (no warnings) and test"
    sed -i.bak -E "s/swiftLanguageModes: \[\.v[0-9]+\]/swiftLanguageModes: [.v$mode]/" Package.swift
    # The tool's proofs built the copy already (warnings unseen): compile its own files again.
    find Sources Tests -name '*.swift' -exec touch {} +
    swift build --build-tests 2>&1 | tee build.log | grep -E "error:|Build complete" || true
    grep -q "Build complete" build.log || fail "Swift $mode mode: the migrated copy does not build"
    if grep -E "^$work/(Sources|Tests)/.*(warning|error):" build.log; then fail "Swift $mode mode: warnings in the migrated copy"; fi
    swift test --skip-build 2>&1 | tee test.log | grep -E "Executed [0-9]+ tests" | tail -1
    grep -qE "Executed [0-9]+ tests, with 0 failures" test.log || fail "Swift $mode mode: tests failed"
done
echo "== the explorer's hooks are not in a dependent's debug build of Tomorrowland"
bash "$tools/../.ci/check-schedule-points.sh" .build/debug
echo "migrate-corpus: OK"
