#!/usr/bin/env python3
"""Reads callgrind output files for scripts/instructions.sh.

  callgrind_stats.py totals FILE            -> "<instructions> <malloc calls> [<atomic RMWs>]"
  callgrind_stats.py profile FILE_A FILE_B OPS [TOP]
        per-operation self cost by function: (B - A) / OPS, for two runs of the same
        scenario that differ by OPS operations; also per-operation calls of the allocator.
  callgrind_stats.py atomics FILE_A FILE_B OPS BINARY
        per-operation atomic read-modify-writes (callgrind's "Ge" event, --collect-bus=yes:
        every lock-prefixed instruction and xchg with memory), for two runs made with
        --dump-instr=yes: by category, each one in BINARY with its instruction and source line
        (BINARY: the harness with debug info), and the call sites in BINARY of the runtime's
        reference counting with the RMWs those calls make.
"""
import re
import subprocess
import sys

ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}


def totals(path):
    """Total instructions, the number of calls into the allocator functions, and the total of
    the second event if one was collected (the atomic RMWs, "Ge")."""
    names = {}
    instructions = None
    second = None
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
                fields = line.split()
                instructions = int(fields[1])
                second = int(fields[2]) if len(fields) > 2 else None
    return instructions, mallocs, second


EXECUTABLE = None  # the profiled program's file name, from the "cmd:" line
REFCOUNTING = re.compile(r"^(swift_(retain|release|unknownObject|bridgeObject|nonatomic)|swift_deallocObject|"
                         r".*RefCounts<.*(Slow|increment|decrement)|swift_weak|swift_unowned)")


def instr_costs(path):
    """From a --dump-instr=yes file: ({(object, function, address): Ge}, {(object, caller,
    call-site address, callee): inclusive Ge}); addresses are relative to their object."""
    names = {}
    own, calls = {}, {}
    ob = fn = callee = None
    address = 0
    pending_call = False
    ge_index = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("cmd:"):
                global EXECUTABLE
                EXECUTABLE = line.split()[1].split("/")[-1]
                continue
            if line.startswith("events:"):
                ge_index = line.split()[1:].index("Ge")
                continue
            m = re.match(r"(c?)(ob|fn|fl|fi|fe)=\((\d+)\)(?: (.*))?$", line)
            if m:
                key = (m.group(2) if m.group(2) != "fn" else "fn", m.group(3))
                if m.group(4) is not None:
                    names[key] = m.group(4)
                value = names.get(key, "?")
                if m.group(1) == "" and m.group(2) == "ob":
                    ob = value
                elif m.group(1) == "" and m.group(2) == "fn":
                    fn = value
                elif m.group(1) == "c" and m.group(2) == "fn":
                    callee = value
                continue
            if line.startswith("calls="):
                pending_call = True
                continue
            if not line or not (line[0] in "+-*" or line.startswith("0x")):
                continue
            fields = line.split()
            position = fields[0]
            if position.startswith("0x"):
                address = int(position, 16)
            elif position[0] in "+-":
                address += int(position)
            costs = fields[2:]  # instr, line, then the events
            ge = int(costs[ge_index]) if len(costs) > ge_index else 0
            if pending_call:
                pending_call = False
                if ge:
                    k = (ob, fn, address, callee)
                    calls[k] = calls.get(k, 0) + ge
            elif ge:
                k = (ob, fn, address)
                own[k] = own.get(k, 0) + ge
    return own, calls


def symbolize(binary, addresses):
    """{address: (instruction, [source frames, innermost first])} for addresses in binary."""
    if not addresses:
        return {}
    tool = "llvm-symbolizer"
    for candidate in ("/opt/swift/usr/bin/llvm-symbolizer",):
        import os
        if os.path.exists(candidate):
            tool = candidate
    out = subprocess.run([tool, f"--obj={binary}", "--inlining", "--relative-address", "--functions=none"],
                         input="\n".join(hex(a) for a in addresses), capture_output=True, text=True).stdout
    frames = [block.split("\n") for block in out.strip().split("\n\n")]
    result = {}
    for address, block in zip(addresses, frames):
        dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={hex(address)}",
                              f"--stop-address={hex(address + 16)}", binary], capture_output=True, text=True).stdout
        instruction = "?"
        for dline in dis.splitlines():
            dm = re.match(r"\s*([0-9a-f]+):\s+(.*)$", dline)
            if dm and int(dm.group(1), 16) == address:
                instruction = " ".join(dm.group(2).split())
                break
        result[address] = (instruction, [fr for fr in block if fr])
    return result


def short(frame):
    """`Sources/…/File.swift:LINE` for a symbolizer frame, plus that line's text if readable."""
    m = re.match(r"(.*):(\d+):\d+$", frame)
    if not m:
        return frame
    path, line = m.group(1), int(m.group(2))
    text = ""
    try:
        with open(path) as f:
            text = f.readlines()[line - 1].strip() if line > 0 else ""
    except OSError:
        pass
    name = re.sub(r"^.*/(Sources|Benchmarks)/", r"\1/", path)
    return f"{name}:{line}" + (f"  `{text[:70]}`" if text else "")


def demangled(names):
    """{mangled: short demangled name}."""
    names = sorted(set(names))
    try:
        out = subprocess.run(["swift-demangle", "--simplified", "--compact"], input="\n".join(n.split("'")[0] for n in names),
                             capture_output=True, text=True).stdout.splitlines()
    except OSError:
        out = names
    return {n: (d if d else n)[:110] for n, d in zip(names, out)}


def atomics(path_a, path_b, ops, binary):
    own_a, calls_a = instr_costs(path_a)
    own_b, calls_b = instr_costs(path_b)
    own = {k: (own_b.get(k, 0) - own_a.get(k, 0)) / ops for k in set(own_a) | set(own_b)}
    calls = {k: (calls_b.get(k, 0) - calls_a.get(k, 0)) / ops for k in set(calls_a) | set(calls_b)}
    own = {k: v for k, v in own.items() if abs(v) >= 0.005}
    total = sum(own.values())
    print(f"{total:8.2f}  atomic RMWs/op in total")
    def category(ob, fn):
        if ob and ob.split("/")[-1] == EXECUTABLE:
            return "in the harness binary (library and scenario code)"
        if REFCOUNTING.match(fn or ""):
            return "Swift runtime: reference counting"
        if ob and "libswift_Concurrency" in ob:
            return "Swift concurrency runtime"
        if ob and ("libc.so" in ob or "libc-" in ob):
            return "libc (malloc/free, locks)"
        return f"other: {ob.split('/')[-1] if ob else '?'}"
    by_category, by_function = {}, {}
    for (ob, fn, address), v in own.items():
        c = category(ob, fn)
        by_category[c] = by_category.get(c, 0) + v
        by_function[(c, fn)] = by_function.get((c, fn), 0) + v
    for c, v in sorted(by_category.items(), key=lambda kv: -kv[1]):
        print(f"{v:8.2f}  {c}")
        for (c2, fn), fv in sorted(by_function.items(), key=lambda kv: -kv[1]):
            if c2 == c and abs(fv) >= 0.05:
                print(f"{fv:12.2f}  {fn[:140]}")
    mine = sorted(((k, v) for k, v in own.items() if category(k[0], k[1]).startswith("in the harness") and abs(v) >= 0.05),
                  key=lambda kv: (kv[0][1], kv[0][2]))
    sites = sorted(((k, v) for k, v in calls.items()
                    if category(k[0], k[1]).startswith("in the harness") and REFCOUNTING.match(k[3] or "") and abs(v) >= 0.05),
                   key=lambda kv: (kv[0][1], kv[0][2]))
    symbols = symbolize(binary, sorted({k[2] for k, _ in mine} | {k[2] for k, _ in sites}))
    pretty = demangled([k[1] for k, _ in mine] + [k[1] for k, _ in sites])
    print("\n  RMW instructions in the harness binary, per op (source line; inlined into):")
    for (ob, fn, address), v in mine:
        instruction, frames = symbols.get(address, ("?", []))
        where = short(frames[0]) if frames else "?"
        outer = [short(fr).split("  ")[0] for fr in frames[1:3]]
        print(f"{v:8.2f}  {instruction:30} {where}" + (f"  (in {', '.join(outer)})" if outer else "") + f"  [{pretty[fn]}]")
    print("\n  Reference counting called from the harness binary, per op (RMWs the calls make), by calling function:")
    grouped = {}
    for (ob, fn, address, callee), v in sites:
        key = (pretty[fn], callee.split("'")[0])
        grouped[key] = grouped.get(key, 0) + v
    for (caller, callee), v in sorted(grouped.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"{v:8.2f}  {callee:16} from {caller}")


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
        instructions, mallocs, second = totals(sys.argv[2])
        print(instructions, mallocs, *([] if second is None else [second]))
    elif sys.argv[1] == "profile":
        a, b, ops = sys.argv[2], sys.argv[3], int(sys.argv[4])
        top = int(sys.argv[5]) if len(sys.argv) > 5 else 30
        ca, cb = self_costs(a), self_costs(b)
        diff = {k: (cb.get(k, 0) - ca.get(k, 0)) / ops for k in set(ca) | set(cb)}
        (ia, ma, _), (ib, mb, _) = totals(a), totals(b)
        print(f"{(ib - ia) / ops:10.0f}  instructions/op in total, {(mb - ma) / ops:.2f} allocator calls/op")
        for name, cost in sorted(diff.items(), key=lambda kv: -kv[1])[:top]:
            if cost >= 1:
                print(f"{cost:10.0f}  {name[:150]}")
    elif sys.argv[1] == "atomics":
        atomics(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
