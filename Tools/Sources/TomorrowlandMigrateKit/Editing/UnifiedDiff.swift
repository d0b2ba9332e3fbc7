// `diff -u`-style output, from the standard library's line difference.

enum UnifiedDiff {
    /// The unified diff from `old` to `new` with three lines of context, or "" when equal.
    static func make(old: String, new: String, path: String, context: Int = 3) -> String {
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let difference = newLines.difference(from: oldLines)
        guard !difference.isEmpty else { return "" }
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        // Walk both files together: (old index, new index, kind).
        enum Kind { case same, removed, added }
        var rows: [(old: Int, new: Int, kind: Kind)] = []
        var i = 0
        var j = 0
        while i < oldLines.count || j < newLines.count {
            if i < oldLines.count, removed.contains(i) {
                rows.append((i, j, .removed)); i += 1
            } else if j < newLines.count, inserted.contains(j) {
                rows.append((i, j, .added)); j += 1
            } else {
                rows.append((i, j, .same)); i += 1; j += 1
            }
        }
        // git's a/ b/ prefixes for relative paths; absolute paths as they are.
        let (old, new) = path.hasPrefix("/") ? (path, path) : ("a/" + path, "b/" + path)
        var output = "--- \(old)\n+++ \(new)\n"
        var index = 0
        while index < rows.count {
            guard rows[index].kind != .same else { index += 1; continue }
            // A hunk: from `context` rows before this change to `context` rows after the
            // last change that is at most 2 * context unchanged rows away.
            let start = max(0, index - context)
            var end = index
            var last = index
            while end < rows.count {
                if rows[end].kind != .same { last = end }
                if end - last > 2 * context { break }
                end += 1
            }
            end = min(rows.count, last + context + 1)
            let hunk = rows[start..<end]
            let oldCount = hunk.filter { $0.kind != .added }.count
            let newCount = hunk.filter { $0.kind != .removed }.count
            let oldStart = oldCount == 0 ? hunk.first!.old : hunk.first!.old + 1
            let newStart = newCount == 0 ? hunk.first!.new : hunk.first!.new + 1
            output += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for row in hunk {
                switch row.kind {
                case .same: output += " " + oldLines[row.old] + "\n"
                case .removed: output += "-" + oldLines[row.old] + "\n"
                case .added: output += "+" + newLines[row.new] + "\n"
                }
            }
            index = end
        }
        return output
    }
}
