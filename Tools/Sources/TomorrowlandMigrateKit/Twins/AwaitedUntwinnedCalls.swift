// `add-async-twins`' check of awaited calls of functions that get no twin.

import SwiftSyntax

/// An `await f()` of a promise-returning function without a twin awaits nothing and yields
/// the promise: a note says so rather than leave it looking like a call of a twin. A check,
/// not a rewrite: it edits no code and has nothing to decline, so it is not a `MigrationAction`.
/// (A call of an actor's method or from another isolation needs its `await`.)
struct AwaitedUntwinnedCalls {
    let project: Project
    /// The nonisolated promise-returning functions of names no twin has, by name.
    let untwinnedByName: [String: [FunctionSite]]
    let untwinnedIDs: Set<SyntaxIdentifier>
    /// Every function of those names: a call that may mean another one is not said.
    let everyByName: [String: [FunctionSite]]

    /// The check for a plan whose twins have the names `twinned`; `sitesNamed`: every
    /// function by name.
    init(project: Project, everySite: [FunctionSite], twinned: Set<String>, sitesNamed: [String: [FunctionSite]]) {
        self.project = project
        let untwinned = everySite.filter { site in
            site.promise != nil && !site.isAsync && !twinned.contains(site.name) && !site.isLocal
                && !(sitesNamed[site.name] ?? []).contains { $0.isAsync } && project.isolation(of: site) == .nonisolated
        }
        let untwinnedByName = Dictionary(grouping: untwinned, by: \.name)
        self.untwinnedByName = untwinnedByName
        untwinnedIDs = Set(untwinned.map(\.decl.id))
        everyByName = Dictionary(grouping: everySite.filter { untwinnedByName[$0.name] != nil }, by: \.name)
    }

    /// The notes for every file, in order.
    func notes(in files: [ParsedFile]) -> [MigrationNote] {
        files.flatMap { file in
            let finder = UnsafeCallFinder(file: file, names: Set(untwinnedByName.keys), includingPinned: true)
            finder.walk(file.tree)
            return finder.found.compactMap(note(for:))
        }
    }

    /// The note for `found` when it is awaited directly and can only mean untwinned functions.
    func note(for found: UnsafeCall) -> MigrationNote? {
        guard UnsafeCallFinder.isDirectlyAwaited(found.call) else { return nil }
        let labels = Calls.labels(of: found.call)
        let receiver = project.receiver(of: found.call, in: found.file)
        let reached = (everyByName[found.name] ?? []).filter { site in
            CallMatching.labels(labels, canCall: site.decl) && project.receiver(receiver, reaches: site.container)
        }
        guard !reached.isEmpty, reached.allSatisfy({ untwinnedIDs.contains($0.decl.id) }), let site = reached.first else { return nil }
        return MigrationNote(
            path: found.file.path, line: found.file.line(of: found.call),
            message: "`\(found.shortText)` awaits nothing: \(site.signature) returns a promise "
                + "and has no async twin; the result is the promise (await its `.value`)"
        )
    }
}
