// Stage 3 of the migration: an async function handed back to code that still speaks promises.
//
// `ReportWriter` is old promise-based code: it takes a promise of an index and returns a
// promise of a report. The new async `Indexer` is given to it as a promise with
// `StdPromise { try await … }`; cancelling the report cancels the Task behind that promise.

import Foundation
import TomorrowlandAsync

/// Old code: formats an index, promise in, promise out.
enum ReportWriter {
    static func report(for index: StdPromise<DirectoryIndex>, rootName: String) -> StdPromise<String> {
        index.map(on: .utility) { index in
            var lines = ["Indexed \(index.files.count) files, \(index.totalBytes.formatted()) bytes, \(index.totalLines.formatted()) lines in \(rootName)"]
            let byExtension = Dictionary(grouping: index.files) { file -> String in
                let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
                guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "(none)" }
                return String(name[dot...])
            }
            let counts = byExtension.map { ($0.key, $0.value.count) }.sorted { ($1.1, $0.0) < ($0.1, $1.0) }
            lines.append("  by extension: " + counts.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
            if let largest = index.files.max(by: { ($0.size, $1.path) < ($1.size, $0.path) }) {
                lines.append("  largest: \(largest.path) (\(largest.size.formatted()) bytes)")
            }
            lines.append("  tree checksum: " + String(index.treeChecksum, radix: 16))
            return lines.joined(separator: "\n")
        }
    }
}

extension Indexer {
    /// The whole job as one promise: the async indexer as a `StdPromise`, handed to the
    /// promise-based `ReportWriter`. Only the report promise is returned, so that nothing holds
    /// the index promise: a cancel request on the report reaches the indexer's Task.
    func reportPromise(for paths: [String], rootName: String) -> StdPromise<String> {
        let index = StdPromise<DirectoryIndex> { try await self.index(paths) }
        return ReportWriter.report(for: index, rootName: rootName)
    }
}
