// Text edits on a file's UTF-8 bytes, applied back to front.

import Foundation
import SwiftSyntax

/// An insertion or replacement at a UTF-8 offset of the original text.
struct TextEdit: Sendable {
    let start: Int
    let end: Int
    let text: String

    static func insert(_ text: String, at position: AbsolutePosition) -> TextEdit {
        TextEdit(start: position.utf8Offset, end: position.utf8Offset, text: text)
    }

    static func apply(_ edits: [TextEdit], to text: String) -> String {
        var bytes = Array(text.utf8)
        // Same offset: keep the order the edits were made in.
        let ordered = edits.enumerated().sorted { ($0.element.start, $0.offset) > ($1.element.start, $1.offset) }
        for (_, edit) in ordered {
            bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.text.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A file a command changed.
public struct FileChange: Sendable, Equatable {
    public let path: String
    public let original: String
    public let updated: String
}

/// Something a command wants the user to know: a function it skipped and why, a call site
/// it rewrote or could not keep, a dependency to add.
public struct MigrationNote: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let message: String
    public var description: String { "\(path):\(line): \(message)" }
}

/// What a rewriting command produced.
public struct MigrationResult: Sendable {
    public internal(set) var changes: [FileChange] = []
    public internal(set) var notes: [MigrationNote] = []
    public let problems: [InputProblem]

    /// The unified diff of every change (what the commands print without `--write`).
    public var diff: String {
        changes.map { UnifiedDiff.make(old: $0.original, new: $0.updated, path: $0.path) }.joined()
    }
}

extension MigrationResult {
    /// Writes every change to its file; returns how many files were written. A path that is,
    /// or goes through, a symbolic link (a file that two targets share) is written to the file
    /// the link points to, so the link stays a link, and a file is written once however many
    /// paths reach it.
    public func write() throws -> Int {
        var written = Set<String>()
        for change in changes {
            let target = CompilerFacts.key(change.path)
            guard written.insert(target).inserted else { continue }
            try change.updated.write(toFile: target, atomically: true, encoding: .utf8)
        }
        return written.count
    }
}
