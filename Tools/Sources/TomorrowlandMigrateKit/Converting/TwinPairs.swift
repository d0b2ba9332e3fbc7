// Twin pairs as the compiler links them: an async twin whose body forwards to the promise-returning
// function of the same name (`add-async-twins`), or a promise twin whose body runs the async
// function of the same name in a Task (`add-promise-twins`). The forwarding call's target comes
// from the compiler, so an overload of the same name is never taken for the twin.

import SwiftSyntax

/// A promise-returning function and its async counterpart, one of them forwarding to the other.
struct TwinPair {
    let promise: FunctionSite
    let async: FunctionSite
    let promiseUSR: String
    let asyncUSR: String
    /// Which of the two is the twin (forwards to the other).
    let twin: Side

    enum Side { case async, promise }

    /// The twin's declaration.
    var twinSite: FunctionSite { twin == .async ? async : promise }
    var twinUSR: String { twin == .async ? asyncUSR : promiseUSR }
}

enum TwinPairs {
    /// The twin pairs declared in `set`, with the compiler's facts in `project`.
    static func find(in set: SourceSet, project: Project) -> [TwinPair] {
        let sites = set.files.flatMap(FunctionSite.all(in:))
        var byUSR: [String: FunctionSite] = [:]
        for site in sites { if let usr = project.usr(of: site) { byUSR[usr] = site } }
        var pairs: [TwinPair] = []
        for site in sites {
            guard let usr = project.usr(of: site) else { continue }
            let forwarded = site.isAsync ? Twins.forwardedCall(ofAsyncTwin: site.decl) : Twins.forwardedCall(ofPromiseTwin: site.decl)
            guard let call = forwarded, let target = project.callee(nameAt: Calls.nameOffset(of: call), in: site.file.path),
                  target != usr, let other = byUSR[target], other.name == site.name, other.isAsync != site.isAsync else { continue }
            if site.isAsync, other.promise != nil {
                pairs.append(TwinPair(promise: other, async: site, promiseUSR: target, asyncUSR: usr, twin: .async))
            } else if !site.isAsync, site.promise != nil {
                pairs.append(TwinPair(promise: site, async: other, promiseUSR: usr, asyncUSR: target, twin: .promise))
            }
        }
        return pairs
    }

    /// Whether `site` was written by `add-async-twins` or `add-promise-twins` (its doc comment
    /// says so, on one line or wrapped over two).
    static func isWrittenByTheTool(_ site: FunctionSite) -> Bool {
        let words = Twins.docLines(of: site.decl).flatMap { $0.dropFirst(3).split(separator: " ") }
        return words.joined(separator: " ").contains("(added by tomorrowland-migrate)")
    }
}
