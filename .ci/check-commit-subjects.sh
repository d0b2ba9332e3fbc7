#!/usr/bin/env bash
# No commit after the baseline has a subject over 72 characters (CONTRIBUTING.md: the subject
# says what changed, the body says the rest).
#
#   .ci/check-commit-subjects.sh            # the commits after the baseline up to HEAD
#   .ci/check-commit-subjects.sh REVISION   # … up to REVISION
#
# The baseline is main's tip when the rule was introduced: the commits before it, with subjects
# of up to a thousand characters, are grandfathered. It needs the history back to the baseline
# (a full clone). Where the baseline is missing or not an ancestor (a shallow clone, a branch
# cut from before it), it says so and checks the subject of the tip alone.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=e0bbe81d3ac3cfb155f6c7cfa6734b3f64710bfc
limit=72
tip=${1:-HEAD}

if git cat-file -e "$baseline^{commit}" 2>/dev/null && git merge-base --is-ancestor "$baseline" "$tip"; then
    range=("$baseline..$tip")
    scope="the commits after ${baseline:0:12}"
else
    reason="not an ancestor of $tip"
    [[ "$(git rev-parse --is-shallow-repository)" == true ]] && reason="missing from this shallow clone (fetch with --unshallow)"
    echo "note: the baseline commit ${baseline:0:12} is $reason; checking the subject of $tip alone"
    range=(-1 "$tip")
    scope="$tip"
fi

# Characters, not bytes (a subject may hold `…` or `→`): bash's ${#…} counts characters in a
# UTF-8 locale. %s is the subject as git shows it (a first paragraph of several lines is joined).
export LC_ALL=C.UTF-8
checked=0
offenders=()
while IFS=$'\t' read -r hash subject; do
    checked=$((checked + 1))
    if ((${#subject} > limit)); then
        offenders+=("$hash (${#subject} characters) $subject")
    fi
done < <(git log --no-show-signature --format='%h%x09%s' "${range[@]}")

if ((${#offenders[@]} > 0)); then
    echo "Commit subjects over $limit characters (put the detail in the body: git commit --amend, or git rebase -i and reword):"
    printf '  %s\n' "${offenders[@]}"
    exit 1
fi
echo "No subject over $limit characters in $checked commit(s): $scope"
