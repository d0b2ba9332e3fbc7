#!/usr/bin/env python3
# Prints the public API in a folder of symbol graphs (swift package dump-symbol-graph) as sorted
# text, one symbol or relationship a line, without source locations: two trees with the same
# public API print the same text. With --docs, each symbol's doc comment is printed too.
#   usage: public-api.py [--docs] SYMBOLGRAPH_DIR
import json, os, sys

docs = "--docs" in sys.argv
folder = [a for a in sys.argv[1:] if a != "--docs"][0]
lines = []
for name in sorted(os.listdir(folder)):
    if not name.startswith("Tomorrowland") or "PackageTests" in name or "DiscoveredTests" in name:
        continue
    graph = json.load(open(os.path.join(folder, name)))
    names = {}
    for symbol in graph["symbols"]:
        names[symbol["identifier"]["precise"]] = ".".join(symbol["pathComponents"])
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        extension = symbol.get("swiftExtension", {}).get("constraints", [])
        where = " where " + ", ".join(f'{c["lhs"]} {c["kind"]} {c["rhs"]}' for c in extension) if extension else ""
        generics = symbol.get("swiftGenerics", {})
        constraints = ", ".join(f'{c["lhs"]} {c["kind"]} {c["rhs"]}' for c in generics.get("constraints", []))
        attributes = ",".join(sorted(k for k in symbol if k not in (
            "identifier", "names", "pathComponents", "docComment", "location", "declarationFragments", "accessLevel",
            "kind", "functionSignature", "swiftGenerics", "swiftExtension")))
        line = (f'{name}: {".".join(symbol["pathComponents"])} [{symbol["kind"]["identifier"]}] {declaration}{where}'
                f' {{{constraints}}} {{{attributes}}} {symbol["identifier"]["precise"]}')
        if docs:
            line += "".join("\n    " + l["text"] for l in symbol.get("docComment", {}).get("lines", []))
        lines.append(line)
    for relation in graph["relationships"]:
        source, target = relation["source"], relation["target"]
        if source in names or target in names:
            lines.append(f'{name}: {relation["kind"]} {names.get(source, source)} -> {names.get(target, target)} {source} {target}')
print("\n".join(sorted(lines)))
