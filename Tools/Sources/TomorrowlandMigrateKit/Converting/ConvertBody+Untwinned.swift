// `convert-body`'s reasons for chains it cannot give an async method: the rule of the language
// that stops add-async-twins (or an async override), and a base whose override calls its code
// through `super`.

import SwiftSyntax

extension ConvertBody {
    /// The start of the reason of an override without a twin that also waits on a capture: once
    /// that is Sendable it is still left (an override that cannot get an async override of its own).
    static let overrideWithoutTwinPrefix = "an override, whose promise version stays (it overrides the base's), so it needs a wrapper: "

    /// Why `site`, a chain without an async twin (and not a conformer or an override that gets an
    /// async method), gets none, as add-async-twins said it: a variadic parameter, or an async
    /// method of the same name in a subclass or a superclass. For an override whose promise
    /// version must stay (it is the override), a capture its wrapper cannot make. Nil otherwise.
    static func reasonWithoutTwin(of site: FunctionSite, _ promise: PromiseType, everySite: [FunctionSite], project: Project) -> String? {
        if site.decl.modifiers.contains(where: { $0.name.text == "override" }) {
            // An async method of its own would need its promise version, the override, to wrap it.
            guard let reason = reasonToLeave(site, promise, project: project) else { return nil }
            return overrideWithoutTwinPrefix + reason
        }
        if case .failure(let reason) = Twins.forwardedArguments(of: site.decl, inoutAllowed: true) {
            return "no async twin: it " + reason.text
        }
        if let reason = AddAsyncTwins.clash(of: site, with: everySite.filter { $0.name == site.name }, project: project) {
            return "no async twin: " + reason.text
        }
        return nil
    }

    /// An override of `site` (a base method whose code is a chain) that calls `site`'s promise
    /// code through `super`, in its promise version or in its async override: nil if none.
    static func overrideCallingSuper(of site: FunctionSite, everySite: [FunctionSite], project: Project) -> FunctionSite? {
        guard site.container != nil, !site.decl.modifiers.contains(where: { $0.name.text == "override" }) else { return nil }
        return everySite.first { other in
            guard other.name == site.name, other.labels == site.labels, other.container != site.container,
                  other.decl.modifiers.contains(where: { $0.name.text == "override" }) else { return false }
            let overrides = project.overrides(other, site)
                || other.isAsync && everySite.contains { !$0.isAsync && $0.overloads(other) && project.overrides($0, site) }
            return overrides && callsSuper(other, name: site.name)
        }
    }

    /// Whether `site`'s body calls `super.name(…)`.
    static func callsSuper(_ site: FunctionSite, name: String) -> Bool {
        site.decl.body?.tokens(viewMode: .sourceAccurate).contains { token in
            token.tokenKind == .keyword(.super) && token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .period
                && token.nextToken(viewMode: .sourceAccurate)?.nextToken(viewMode: .sourceAccurate)?.text == name
        } == true
    }

    /// The reason a base method stays a chain while `override` calls its code through `super`.
    static func superCallReason(_ site: FunctionSite, override: FunctionSite) -> String {
        "`\(override.container ?? "")` overrides it and calls this promise code through `super` (its async override awaits "
            + "`super.\(site.name)(…).value`): as a wrapper, this promise version would call the async method on `self`, which Swift "
            + "dispatches dynamically (only `super` does not), back to that override; convert-body converts a base and its one "
            + "override together (the `super` call awaiting this twin) only while neither has its async method yet"
    }
}
