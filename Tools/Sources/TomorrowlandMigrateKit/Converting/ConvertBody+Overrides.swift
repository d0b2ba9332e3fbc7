// `convert-body` on an override: it gets an async override of its own with the chain, which
// its promise version wraps, when that keeps what runs.

import SwiftSyntax

extension ConvertBody {
    /// The twin of the method `site` overrides, when `site` can get an async override of it:
    /// that twin still awaits the base's promise method (so the base's promise code is not a
    /// wrapper, whose dynamic call of the async method would come back to the override; a base
    /// whose code is a chain keeps it while an override calls it through `super`:
    /// `overrideCallingSuper`), and no subclass overrides `site` again
    /// (its override of the promise version would no longer be reached). The chain's `super`
    /// calls are awaited through `.value` of `super`'s promise method: its twin would dispatch
    /// back here. Nil otherwise.
    static func overriddenTwin(
        of site: FunctionSite, everySite: [FunctionSite], forwarding: [FunctionSite], project: Project, set: SourceSet
    ) -> FunctionSite? {
        guard site.decl.modifiers.contains(where: { $0.name.text == "override" }), let container = site.container,
              !everySite.contains(where: { $0.isAsync && $0.overloads(site) }) else { return nil }
        let isOverride = { (other: FunctionSite) in other.decl.modifiers.contains { $0.name.text == "override" } }
        // The method first declared (not itself an override), with its forwarding twin beside it.
        guard let base = everySite.first(where: { !$0.isAsync && !isOverride($0) && $0.promise != nil && project.overrides(site, $0) }),
              let baseBody = base.decl.body, !isWrapper(baseBody),
              let twin = forwarding.first(where: { $0.overloads(base) && AddAsyncTwins.key($0).parameters == AddAsyncTwins.key(base).parameters })
        else { return nil }
        // No override in between whose code the new override would pass over, none below it.
        let others = everySite.filter { $0.name == site.name && $0.labels == site.labels && isOverride($0) && $0.container != container }
        if others.contains(where: { other in other.container.map { project.ancestors(of: $0).contains(Project.unqualified(container)) } == true }) {
            return nil
        }
        if others.contains(where: { other in other.container.map { project.ancestors(of: container).contains(Project.unqualified($0)) } == true }) {
            return nil
        }
        return twin
    }

    /// `super.f(…)`: awaited through its promise (`.value`), never its twin.
    static func isSuperCall(_ call: FunctionCallExprSyntax) -> Bool {
        call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.is(SuperExprSyntax.self) == true
    }

    /// An override of `site`'s promise method with no async method of its own: the twin
    /// awaited the promise method, which dynamic dispatch took to that override; once the twin
    /// holds `site`'s code, async callers of the subclass would pass the override by. Nil if none.
    static func overrideLeftBehind(of site: FunctionSite, everySite: [FunctionSite], project: Project) -> FunctionSite? {
        guard site.container != nil, !site.decl.modifiers.contains(where: { ["final", "static", "private"].contains($0.name.text) }) else { return nil }
        return everySite.first { other in
            !other.isAsync && other.promise != nil && project.overrides(other, site)
                && !everySite.contains { $0.isAsync && $0.overloads(other) }
        }
    }
}
