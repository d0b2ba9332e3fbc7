// Notes about the package as a whole, printed once per run.

/// The notes a twin command adds once: the product the twins need, the call sites it did not see.
enum PackageNotes {
    /// `command` is the command to suggest for the folders left out, nil when call sites there
    /// cannot matter (promise twins change no existing call).
    static func notes(for set: SourceSet, importedInto files: [String], command: String?) -> [MigrationNote] {
        var notes: [MigrationNote] = []
        let package = PackageContext(roots: set.roots)
        if let first = files.first, package?.listsAsyncProduct != true {
            let manifest = package.map { "\($0.root)/Package.swift" } ?? "the package manifest"
            notes.append(MigrationNote(
                path: first, line: 1,
                message: "added `import TomorrowlandAsync` to \(files.count) file(s): add the TomorrowlandAsync product to "
                    + "their targets' dependencies (\(manifest) does not list it)"
            ))
        }
        if let package, let command {
            let unscanned = package.unscannedFolders(scanned: Set(set.files.map(\.path) + set.uncompiled))
            if !unscanned.isEmpty {
                notes.append(MigrationNote(
                    path: package.root + "/Package.swift", line: 1,
                    message: "call sites in \(unscanned.joined(separator: ", ")) were not scanned: a call there that a twin "
                        + "captures is not pinned; scan them in the same run (\(command) \(set.roots.joined(separator: " ")) "
                        + unscanned.joined(separator: " ") + ")"
                ))
            }
        }
        return notes
    }
}
