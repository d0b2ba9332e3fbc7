#!/usr/bin/env bash
# Type-checks every fixture in CompileFailures/ against the Tomorrowland module of this
# repository's debug build, in Swift 5 and in Swift 6 language mode.
#   reject_*.swift  must FAIL to type-check in both modes; and, as a control, the same file with
#                   the lines marked `// REJECT` removed must type-check (so the failure comes
#                   from the marked line, not from a typo in the fixture).
#   accept_*.swift  must type-check in both modes.
# Prints one line per fixture and mode, and exits 1 if anything is unexpected.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$HERE"

# The modules of this repository's debug build (`swift build --target TomorrowlandAsync` or
# `swift test` first), or MODULES=dir.
REPO="$(cd "$HERE/../../.." && pwd)"
MODULES="${MODULES:-$REPO/.build/debug/Modules}"
if [ ! -e "$MODULES/Tomorrowland.swiftmodule" ]; then
    echo "no Tomorrowland.swiftmodule under $MODULES: build the package first"; exit 2
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
typecheck() { # mode file -> exit status; diagnostics in $TMP/out
    swiftc -typecheck -parse-as-library -swift-version "$1" -I "$MODULES" \
        -module-cache-path "$TMP/mc" "$2" >"$TMP/out" 2>&1
}
first_error() { grep -m1 -E "error:" "$TMP/out" | sed -E 's/^.*error: //' | cut -c1-150; }

unexpected=0
ok=0
for f in CompileFailures/*.swift; do
    name="$(basename "$f")"
    for mode in 5 6; do
        if typecheck "$mode" "$f"; then compiled=yes; else compiled=no; fi
        err="$(first_error)"
        case "$name" in
        reject_*)
            grep -v '// REJECT' "$f" > "$TMP/control_$name"
            if typecheck "$mode" "$TMP/control_$name"; then control=ok; else control="BROKEN: $(first_error)"; fi
            if [ "$compiled" = no ] && [ "$control" = ok ]; then
                echo "ok              swift$mode $name  ($err)"; ok=$((ok+1))
            elif [ "$compiled" = yes ]; then
                echo "FAILED TO FAIL  swift$mode $name  (compiled; it must be rejected)"; unexpected=$((unexpected+1))
            else
                echo "CONTROL BROKEN  swift$mode $name  (fails, but so does the control without the REJECT line: $control)"; unexpected=$((unexpected+1))
            fi
            ;;
        accept_*)
            if [ "$compiled" = yes ]; then
                echo "ok              swift$mode $name  (compiles)"; ok=$((ok+1))
            else
                echo "FAILED          swift$mode $name  (must compile: $err)"; unexpected=$((unexpected+1))
            fi
            ;;
        esac
    done
done
echo "$ok passed, $unexpected failed"
[ "$unexpected" -eq 0 ]
