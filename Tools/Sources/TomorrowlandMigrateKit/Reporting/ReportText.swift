// The report as tables for people.

import Foundation

extension Report {
    /// The human-readable report.
    public func renderText() -> String {
        var out = ""
        func section(_ title: String) { out += "\n== \(title)\n" }
        func percent(_ value: Double?) -> String { value.map { String(format: "%.1f%%", $0) } ?? "-" }

        section("Declarations returning promises (\(promiseDeclarations.count))")
        out += table(["location", "kind", "declaration", "returns"], promiseDeclarations.map {
            ["\($0.file):\($0.line)", $0.kind, ($0.container.map { $0 + "." } ?? "") + $0.name, $0.returns ?? ""]
        })
        section("Async functions (\(asyncFunctions.count))")
        out += table(["location", "kind", "declaration", "promise-twin marker"], asyncFunctions.map {
            ["\($0.file):\($0.line)", $0.kind, ($0.container.map { $0 + "." } ?? "") + $0.name, $0.markedForPromiseTwin ? "yes" : ""]
        })
        section("Bridges already in place (\(bridges.count))")
        out += table(["location", "bridge"], bridges.map { ["\($0.file):\($0.line)", $0.kind] })
        section("Promise operator calls")
        out += table(["file", "calls", "by operator"], operatorCalls.map { calls in
            let byOperator = calls.counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
            return [calls.file, String(calls.lines.count), byOperator.joined(separator: ", ")]
        })
        section("Migration progress (A: async style, P: promise style; see --help)")
        let progressRow = { (progress: Report.Progress) in
            [progress.name, String(progress.promiseStyle), String(progress.asyncStyle), percent(progress.migratedPercent)]
        }
        out += table(["file", "P", "A", "migrated"], files.map(progressRow))
        out += "\n"
        out += table(["folder", "P", "A", "migrated"], (folders + [total]).map(progressRow))
        section("Plan: migrate in this order (leaves first)")
        out += table(["#", "function", "location", "level", "operators", "promise-style callers"], plan.map {
            [
                String($0.order), $0.function, "\($0.file):\($0.line)", String($0.level), $0.usesPromiseOperators ? "yes" : "no",
                Self.callers($0.promiseStyleCallers, unknown: $0.unknownCallers),
            ]
        })
        if !twins.isEmpty {
            section("Twins (callers 0: delete it)")
            out += table(["twin", "location", "kind", "callers"], twins.map {
                [
                    $0.function, "\($0.file):\($0.line)", $0.kind,
                    $0.callers + $0.unknownCallers == 0 ? "0 (unused)" : Self.callers($0.callers, unknown: $0.unknownCallers),
                ]
            })
        }
        if !problems.isEmpty {
            section("Problems")
            out += problems.map { $0 + "\n" }.joined()
        }
        return out
    }

    /// `4`, or `4 (+2 unknown)` when some call sites may or may not call the function.
    private static func callers(_ count: Int, unknown: Int) -> String {
        unknown == 0 ? String(count) : "\(count) (+\(unknown) unknown)"
    }

    /// Left-aligned columns; "(none)" for an empty table.
    private func table(_ header: [String], _ rows: [[String]]) -> String {
        guard !rows.isEmpty else { return "(none)\n" }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
        }
        return line(header) + line(widths.map { String(repeating: "-", count: $0) }) + rows.map(line).joined()
    }

    /// The report as pretty-printed JSON with sorted keys.
    public func renderJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
