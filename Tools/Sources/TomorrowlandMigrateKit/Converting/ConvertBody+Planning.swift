// What one planning of `convert-body` knows of the package before it looks at any function:
// every function site, the async twins the tool wrote, the protocol requirements, the contexts
// the package declares, the compiler's facts and the command's options. `ChainBodyAction` reads
// it for each promise-returning function.

import SwiftSyntax

extension ConvertBody {
    /// The package as one planning sees it, shared by every site `ChainBodyAction` looks at.
    struct Planning {
        let set: SourceSet
        let project: Project
        /// Every reference of a declaration (with the compiler only): see `ConvertBody.plan`.
        let callers: ((String) -> [(path: String, offset: Int)])?
        let sharedModules: [String: Set<String>]
        /// Pairs (by `pairKey(base:)`) planned again without each other (`brokenPairs`).
        let unpaired: Set<String>
        /// The Swift 5 rule, in a Swift 5 mode module (ConvertBody+SwiftFive.swift).
        let rule: CaptureRule?
        let everySite: [FunctionSite]
        /// Twins still forwarding to their promise function: the bodies to replace.
        let forwarding: [FunctionSite]
        /// The async twins the tool wrote (they forward to the promise function, or this command
        /// converted them): a call is awaited through its twin only when it is one of these, which
        /// throws just what the promise rejects with. A hand-written async overload may throw
        /// anything (the wrapper's `as! E` would trap).
        let toolTwins: [FunctionSite]
        /// The promise functions that have such a twin.
        let twinned: [FunctionSite]
        /// With the compiler: the promise functions (by USR) whose async twin the tool wrote, an
        /// override's or a conformer's call reaching the twin of the method it overrides or
        /// implements (as convert-calls has it). Nil without the compiler.
        let twinnedUSRs: Set<String>?
        /// The protocol requirements (`witnessKey`) and the protocols declared in the scanned files.
        let requirements: Set<String>
        let protocols: Set<String>
        /// The contexts declared in `extension PromiseContext.CallerIsolated` and `.Main`.
        let callerIsolated: Set<String>
        let onMain: Set<String>

        /// The planning of `set`, with the options of `ConvertBody.plan`.
        init(
            _ set: SourceSet, project: Project, callers: ((String) -> [(path: String, offset: Int)])?,
            sharedModules: [String: Set<String>], unpaired: Set<String>, rule: CaptureRule?
        ) {
            self.set = set
            self.project = project
            self.callers = callers
            self.sharedModules = sharedModules
            self.unpaired = unpaired
            self.rule = rule
            let everySite = set.files.flatMap(FunctionSite.all(in:))
            self.everySite = everySite
            forwarding = everySite.filter { $0.isAsync && Twins.forwardedName(ofAsyncTwin: $0.decl) == $0.name }
            let toolTwins = everySite.filter {
                $0.isAsync && (Twins.forwardedName(ofAsyncTwin: $0.decl) == $0.name || TwinPairs.isWrittenByTheTool($0))
            }
            self.toolTwins = toolTwins
            twinned = everySite.filter { site in !site.isAsync && site.promise != nil && toolTwins.contains { $0.overloads(site) } }
            twinnedUSRs = project.compiler == nil ? nil : Set(ConvertCalls.targets(
                of: TwinPairs.find(in: set.files, project: project).filter { $0.twin == .async || TwinPairs.isWrittenByTheTool($0.async) },
                sites: everySite, project: project
            ).keys)
            requirements = Set(everySite.filter { $0.decl.enclosingProtocol != nil }.map(\.witnessKey))
            protocols = Set(everySite.compactMap { $0.decl.enclosingProtocol?.name.text })
            callerIsolated = ConvertBody.contexts(in: set, extending: "PromiseContext.CallerIsolated")
            onMain = ConvertBody.contexts(in: set, extending: "PromiseContext.Main")
        }

        /// Whether `call` names (by name and labels) a promise function with an async twin the
        /// tool wrote: the syntax's answer, which the compiler's (`twinnedUSRs`) narrows.
        func hasTwinByName(_ call: FunctionCallExprSyntax) -> Bool {
            guard let (name, _) = Calls.calledName(call) else { return false }
            let labels = Calls.labels(of: call)
            return twinned.contains { $0.name == name && CallMatching.labels(labels, canCall: $0.decl) }
        }

        /// The tool's twins that implement a protocol requirement named and labelled as `site`:
        /// the twins a conformer's new async method takes the calls of.
        func requirementTwins(of site: FunctionSite) -> [FunctionSite] {
            toolTwins.filter { $0.name == site.name && $0.labels == site.labels && protocols.contains($0.container ?? "") }
        }

        /// Whether a function of the package overloads `site` and is async (a twin, or by hand).
        func hasAsyncOverload(_ site: FunctionSite) -> Bool {
            everySite.contains { $0.isAsync && $0.overloads(site) }
        }
    }
}
