#!/usr/bin/env bash
# The documentation builds clean: `docc convert --analyze` over both DocC catalogs, with the
# symbol graphs of `swift package dump-symbol-graph`, must print no warning.
#
# Each catalog gets a folder holding only its module's symbol graphs (`M.symbols.json`, and
# `M@Other.symbols.json` for its extensions of other modules' types), so that one module's
# warnings are not reported against the other. `docc` ships with the Swift toolchain; when it is
# not on PATH it is looked for beside `swift`.
set -euo pipefail
cd "$(dirname "$0")/.."

docc=$(command -v docc || true)
if [[ -z "$docc" ]]; then
    swift_path=$(readlink -f "$(command -v swift)")
    docc="$(dirname "$swift_path")/docc"
fi
if [[ ! -x "$docc" ]]; then
    echo "check-docs: no docc on PATH or beside swift ($docc)" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift package dump-symbol-graph > "$work/dump.log" 2>&1 || { cat "$work/dump.log"; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$work/dump.log" | tail -1)
if [[ -z "$graphs" || ! -d "$graphs" ]]; then
    cat "$work/dump.log"
    echo "check-docs: could not find where dump-symbol-graph wrote the symbol graphs" >&2
    exit 1
fi

status=0
for module in Tomorrowland TomorrowlandAsync; do
    mkdir -p "$work/$module"
    cp "$graphs/$module.symbols.json" "$work/$module/"
    cp "$graphs/$module"@*.symbols.json "$work/$module/" 2>/dev/null || true
    "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$work/$module" \
        --output-path "$work/$module.doccarchive" \
        --analyze > "$work/$module.log" 2>&1 || { cat "$work/$module.log"; status=1; continue; }
    warnings=$(grep -c 'warning:' "$work/$module.log" || true)
    echo "$module.docc: $warnings warnings"
    if [[ "$warnings" != 0 ]]; then
        grep -A3 'warning:' "$work/$module.log"
        status=1
    fi
done
exit $status
