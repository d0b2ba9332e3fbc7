#!/usr/bin/env bash
# No line of Swift in Sources/ or Tools/Sources is longer than 160 characters.
#
# Used instead of `swift format lint`: the formatter cannot be configured to accept the house
# style (continuation lines aligned under an opening parenthesis, a closure argument hugging
# its call) without reformatting a few hundred places in the tree.
set -euo pipefail
cd "$(dirname "$0")/.."

limit=160
# GNU grep in a UTF-8 locale counts characters, not bytes (`…`, `─` count as one).
# grep exits 1 when no line matches (fine) and 2 on an error (which must fail this check).
long=$(LC_ALL=C.UTF-8 grep -rHnE --include='*.swift' "^.{$((limit + 1)),}" Sources Tools/Sources) || [ $? -eq 1 ]
if [[ -n "$long" ]]; then
    echo "Lines over $limit characters (wrap them; a declaration may take one parameter per line):"
    echo "$long" | cut -c1-220
    exit 1
fi
echo "No Swift line in Sources/ or Tools/Sources is over $limit characters"
