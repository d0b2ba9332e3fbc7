#!/usr/bin/env bash
# The tool at scale (issue 37, item 7): generates a package of about 100,000 lines by copying
# the corpora's library sources (Tools/Corpus, Tools/BlindCorpora/HomeHub, Ledger, Orders) into
# 20 modules that import one another, then measures one clean `swift build` of it and each
# command of the pipeline on Sources/, in order:
#   adopt --write · (the clean build) · report · add-async-twins --write ·
#   add-promise-twins --write · convert-calls --write · convert-body --write ·
#   delete-twins --include-public --write · an incremental build of the result
# each with its wall time, CPU time and peak memory (`/usr/bin/time -f "%e %M %U %S"`), and
# where each command's time went (TOMORROWLAND_MIGRATE_TRACE: the compiler and SwiftPM runs;
# the rest is the tool's own work: parsing, planning, reading the compiler's dumps).
#
# The package: modules Part00 … Part19, each with its corpora's files side by side (renamed
# `<corpus module>_<path>.swift`; a corpus's own imports of its other module dropped, its
# `HomeHubCore.X` spelled `PartNN.X`; AppCore's `ui` context is `appUI` and Orders' `EventLog`
# `OrdersEventLog`, as HomeHub and Ledger declare those names too). Even modules hold AppCore, HomeHubCore, HomeHubUI and
# OrdersCore (4,891 lines), odd ones AppCore, LedgerCore, LedgerFeatures and OrdersCore
# (4,554 lines): no corpus twice in a module. Part k imports Part (k-1)/2 (a binary tree, four
# levels deep) and calls into it (`Upstream.swift`: a promise function of the imported copy of
# OrdersCore). Swift 5 language mode (the mode the blind corpora were written for), every
# module linking Tomorrowland and TomorrowlandAsync.
#
#   Tools/scripts/scale-package.sh            # generate, build, run the pipeline, print the table
#   Tools/scripts/scale-package.sh --generate # only write the package (Tools/.scale-package)
#   Tools/scripts/scale-package.sh --keep     # keep the package and its logs afterwards
#   Tools/scripts/scale-package.sh --modules 4   # a smaller package: the first 4 modules (19,000 lines)
#   Tools/scripts/scale-package.sh --from convert-calls   # go on in the kept package from that step
#                                                         # (after a stopped run; its lines are appended)
#
# Heavy (a 100,000-line package built once and type-checked by every command): run it on a quiet
# machine, or under `nice -n 10`. The results: Tools/.scale-package.results (also printed).
set -euo pipefail
tools="$(cd "$(dirname "$0")/.." && pwd)"
# At the depth of Tools/Corpus, so that a `path: "../.."` dependency is this repository.
work="$tools/.scale-package"
results="$tools/.scale-package.results"
generate_only=false
keep=false
modules=20
from=""
while [ $# -gt 0 ]; do
    case "$1" in
        --generate) generate_only=true; keep=true ;;
        --keep) keep=true ;;
        --modules) modules="$2"; shift ;;
        --from) from="$2"; keep=true; shift ;;
        *) echo "usage: $0 [--generate] [--keep] [--modules N] [--from STEP]" >&2; exit 2 ;;
    esac
    shift
done
$keep || trap 'rm -rf "$work"' EXIT

# Writes the package into $work.
generate() {
    rm -rf "$work"
    mkdir -p "$work/Sources"

    # Corpus module folders, by the name their sources use for them.
    declare -A folder=(
        [AppCore]="$tools/Corpus/Sources/AppCore"
        [HomeHubCore]="$tools/BlindCorpora/HomeHub/Sources/HomeHubCore"
        [HomeHubUI]="$tools/BlindCorpora/HomeHub/Sources/HomeHubUI"
        [LedgerCore]="$tools/BlindCorpora/Ledger/Sources/LedgerCore"
        [LedgerFeatures]="$tools/BlindCorpora/Ledger/Sources/LedgerFeatures"
        [OrdersCore]="$tools/BlindCorpora/Orders/Sources/OrdersCore"
    )
    # AppCore's `PromiseContext.ui` is HomeHub's and Ledger's too, Orders' `EventLog` HomeHub's.
    declare -A rename=(
        [AppCore]='s/\bui\b/appUI/g'
        [OrdersCore]='s/\bEventLog\b/OrdersEventLog/g'
    )
    even="AppCore HomeHubCore HomeHubUI OrdersCore"
    odd="AppCore LedgerCore LedgerFeatures OrdersCore"

    name() { printf "Part%02d" "$1"; }
    targets=""
    for ((k = 0; k < modules; k++)); do
        module=$(name "$k")
        dir="$work/Sources/$module"
        mkdir -p "$dir"
        set_of=$even; [ $((k % 2)) -eq 1 ] && set_of=$odd
        for corpus in $set_of; do
            source="${folder[$corpus]}"
            while IFS= read -r file; do
                relative="${file#"$source"/}"
                target="$dir/${corpus}_${relative//\//_}"
                # The corpus's other module is this module now: no import of it, its name is ours;
                # the two names two corpora of a module both declare are made distinct.
                sed -E \
                    -e '/^(@testable |@preconcurrency )?import (AppCore|HomeHubCore|HomeHubUI|LedgerCore|LedgerFeatures|OrdersCore)$/d' \
                    -e "s/\\b(AppCore|HomeHubCore|HomeHubUI|LedgerCore|LedgerFeatures|OrdersCore)\\./$module./g" \
                    -e "${rename[$corpus]:-}" \
                    "$file" > "$target"
            done < <(find -L "$source" -name '*.swift' | sort)
        done
        dependencies='.product(name: "Tomorrowland", package: "Tomorrowland"), .product(name: "TomorrowlandAsync", package: "Tomorrowland")'
        if [ "$k" -gt 0 ]; then
            parent=$(name $(((k - 1) / 2)))
            dependencies="\"$parent\", $dependencies"
            cat > "$dir/Upstream.swift" <<EOF
    import Tomorrowland
    import $parent

    /// A call into the module this one imports: its copy of OrdersCore.
    public func upstreamReorder(userID: String, api: $parent.OrdersAPI, log: $parent.OrdersEventLog) -> Promise<$parent.Cart, $parent.CheckoutError> {
        $parent.reorderLast(userID: userID, api: api, log: log)
}
EOF
    fi
    targets+="        .target(name: \"$module\", dependencies: [$dependencies]),"$'\n'
done
cat > "$work/Package.swift" <<EOF
// swift-tools-version: 6.1
// Generated by Tools/scripts/scale-package.sh: the corpora copied into $modules modules.
import PackageDescription

let package = Package(
    name: "ScalePackage",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tomorrowland", path: "../.."),
    ],
    targets: [
$targets    ],
    swiftLanguageModes: [.v5]
)
EOF
}
if [ -z "$from" ]; then
    generate
elif [ ! -d "$work/logs" ]; then
    echo "scale-package: --from needs the package a run kept ($work)" >&2; exit 2
fi
lines=$(find "$work/Sources" -name '*.swift' -exec cat {} + | wc -l)
files=$(find "$work/Sources" -name '*.swift' | wc -l)
modules=$(find "$work/Sources" -mindepth 1 -maxdepth 1 -type d | wc -l)
echo "scale-package: $lines lines in $files files, $modules modules ($work)"
$generate_only && exit 0

swift build --package-path "$tools" --product tomorrowland-migrate
cd "$work"
mkdir -p logs
# A copy of the tool: a rebuild of Tools during the run does not change what it measures.
tool="$work/logs/tomorrowland-migrate"
cp "$(swift build --package-path "$tools" --show-bin-path)/tomorrowland-migrate" "$tool"
export TOMORROWLAND_MIGRATE_TRACE="$work/logs/trace.txt"
fail() { echo "scale-package: $*" >&2; exit 1; }
tool_version="the tool at $(git -C "$tools" rev-parse --short HEAD)$(git -C "$tools" diff --quiet HEAD -- Sources || echo ' (modified)')"
if [ -z "$from" ]; then
    : > "$TOMORROWLAND_MIGRATE_TRACE"
    {
        echo "scale-package: $lines lines in $files files, $modules modules; $(nproc) cores; started $(date -u +%FT%TZ); $tool_version"
        echo "step | wall s | CPU s | peak MB | load average at the end"
        echo "--- | --- | --- | --- | ---"
    } > "$results"
else
    echo "(from $from on: $(date -u +%FT%TZ), $tool_version)" >> "$results"
fi
# Runs a step, and adds its line: name, wall time, peak memory, load average. With --from,
# the steps before that one are passed over.
step() {
    local label="$1"; shift
    if [ -n "$from" ] && [ "$label" != "$from" ]; then echo "== $label: passed over (--from)"; return; fi
    from=""
    echo "== $label"
    local start
    start=$(wc -l < "$TOMORROWLAND_MIGRATE_TRACE")
    /usr/bin/time -o logs/time.txt -f "%e %M %U %S" "$@" > "logs/$label.out" 2> "logs/$label.err" || {
        tail -20 "logs/$label.err" >&2
        fail "$label failed"
    }
    read -r wall memory user system < <(tail -1 logs/time.txt)
    echo "$label | $wall | $(echo "$user + $system" | bc) | $((memory / 1024)) | $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$results"
    # Where the time went: the compiler's and SwiftPM's runs, by kind, and the tool's own rest.
    tail -n +"$((start + 1))" "$TOMORROWLAND_MIGRATE_TRACE" | awk -F'\t' -v wall="$wall" '
        { split($4, words, " "); kind = words[1] " " words[2]; seconds[kind] += $3; runs[kind]++; total += $3 }
        END {
            if (total == 0) exit
            for (kind in seconds) printf "    %s: %.1f s in %d run(s)\n", kind, seconds[kind], runs[kind]
            printf "    the tool itself (parsing, planning, reading dumps): %.1f s\n", wall - total
        }' | sort | tee -a "$results"
    grep -hE "^note: .*(checked by the compiler|nothing written|converted|deleted|: [0-9]+ of [0-9]+)" "logs/$label.err" \
        | sed 's/^/    /' | tail -4 | tee -a "$results" || true
}
step adopt "$tool" adopt Sources/ --write
step "clean swift build" swift build
step report "$tool" report Sources/
step add-async-twins "$tool" add-async-twins Sources/ --write
step add-promise-twins "$tool" add-promise-twins Sources/ --write
step convert-calls "$tool" convert-calls Sources/ --write
step convert-body "$tool" convert-body Sources/ --write
step delete-twins "$tool" delete-twins Sources/ --include-public --write
step "swift build after the pipeline" swift build
awk -F' [|] ' '
    $1 == "clean swift build" { build = $2; buildCPU = $3 }
    $1 ~ /^(adopt|report|add-async-twins|add-promise-twins|convert-calls|convert-body|delete-twins)$/ { pipeline += $2; cpu += $3 }
    END {
        printf "pipeline: %.0f s wall, %.1f times one clean build (%.0f s); %.0f CPU-s, %.1f times its %.0f\n",
            pipeline, pipeline / build, build, cpu, cpu / buildCPU, buildCPU
    }
' "$results" | tee -a "$results"
echo "scale-package: results in $results"
