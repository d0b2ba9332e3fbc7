// `diff -u`-style output, from the standard library's line difference.

enum UnifiedDiff {
    /// How a row of the walk through both files came about.
    enum Kind { case same, removed, added }

    /// A row of the walk: the line indices in the old and new file, and its kind.
    typealias Row = (old: Int, new: Int, kind: Kind)

    /// The unified diff from `old` to `new` with three lines of context, or "" when equal.
    static func make(old: String, new: String, path: String, context: Int = 3) -> String {
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let rows = rows(from: oldLines, to: newLines) else { return "" }
        // git's a/ b/ prefixes for relative paths; absolute paths as they are.
        let (old, new) = path.hasPrefix("/") ? (path, path) : ("a/" + path, "b/" + path)
        var output = "--- \(old)\n+++ \(new)\n"
        var index = 0
        while index < rows.count {
            guard rows[index].kind != .same else { index += 1; continue }
            let hunk = self.hunk(of: rows, at: index, context: context)
            output += text(of: rows[hunk], oldLines: oldLines, newLines: newLines)
            index = hunk.upperBound
        }
        return output
    }

    /// Both files walked together, line by line; nil when they are equal.
    static func rows(from oldLines: [String], to newLines: [String]) -> [Row]? {
        let difference = newLines.difference(from: oldLines)
        guard !difference.isEmpty else { return nil }
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var rows: [Row] = []
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
        return rows
    }

    /// The rows of the hunk of the change at `index`: from `context` rows before it to
    /// `context` rows after the last change that is at most 2 * context unchanged rows away.
    static func hunk(of rows: [Row], at index: Int, context: Int) -> Range<Int> {
        let start = max(0, index - context)
        var end = index
        var last = index
        while end < rows.count {
            if rows[end].kind != .same { last = end }
            if end - last > 2 * context { break }
            end += 1
        }
        return start..<min(rows.count, last + context + 1)
    }

    /// A hunk's header and lines.
    static func text(of hunk: ArraySlice<Row>, oldLines: [String], newLines: [String]) -> String {
        let oldCount = hunk.filter { $0.kind != .added }.count
        let newCount = hunk.filter { $0.kind != .removed }.count
        let oldStart = oldCount == 0 ? hunk.first!.old : hunk.first!.old + 1
        let newStart = newCount == 0 ? hunk.first!.new : hunk.first!.new + 1
        var output = "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
        for row in hunk {
            switch row.kind {
            case .same: output += " " + oldLines[row.old] + "\n"
            case .removed: output += "-" + oldLines[row.old] + "\n"
            case .added: output += "+" + newLines[row.new] + "\n"
            }
        }
        return output
    }
}
