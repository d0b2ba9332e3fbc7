#!/usr/bin/env python3
"""Reads callgrind output files for scripts/instructions.sh.

  callgrind_stats.py totals FILE            -> "<instructions> <malloc calls>"
  callgrind_stats.py profile FILE_A FILE_B OPS [TOP]
        per-operation self cost by function: (B - A) / OPS, for two runs of the same
        scenario that differ by OPS operations; also per-operation calls of the allocator.
"""
import re
import subprocess
import sys

ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}


def totals(path):
    """Total instructions and the number of calls into the allocator functions."""
    names = {}
    instructions = None
    mallocs = 0
    current_callee = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith(("fn=", "cfn=")):
                m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if m:
                    ident, name = m.group(1), m.group(2)
                    if name is not None:
                        names[ident] = name
                    if line.startswith("cfn="):
                        current_callee = names.get(ident, "")
                    continue
            if line.startswith("calls="):
                count = int(line[6:].split()[0])
                if current_callee is not None and current_callee.split("'")[0] in ALLOCATORS:
                    mallocs += count
                current_callee = None
                continue
            if line.startswith(("summary:", "totals:")):
                instructions = int(line.split()[1])
    return instructions, mallocs


def self_costs(path):
    """Self instructions per function, from callgrind_annotate."""
    out = subprocess.run(
        ["callgrind_annotate", "--threshold=100", path],
        check=True, capture_output=True, text=True).stdout
    costs = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+(.*)$", line)
        if m and "PROGRAM TOTALS" not in line:
            name = m.group(2)
            name = re.sub(r" \[.*\]$", "", name)
            name = name.split(":", 1)[1] if name.startswith(("???:", "./")) else name
            costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs


def main():
    if sys.argv[1] == "totals":
        instructions, mallocs = totals(sys.argv[2])
        print(instructions, mallocs)
    elif sys.argv[1] == "profile":
        a, b, ops = sys.argv[2], sys.argv[3], int(sys.argv[4])
        top = int(sys.argv[5]) if len(sys.argv) > 5 else 30
        ca, cb = self_costs(a), self_costs(b)
        diff = {k: (cb.get(k, 0) - ca.get(k, 0)) / ops for k in set(ca) | set(cb)}
        (ia, ma), (ib, mb) = totals(a), totals(b)
        print(f"{(ib - ia) / ops:10.0f}  instructions/op in total, {(mb - ma) / ops:.2f} allocator calls/op")
        for name, cost in sorted(diff.items(), key=lambda kv: -kv[1])[:top]:
            if cost >= 1:
                print(f"{cost:10.0f}  {name[:150]}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
