// `convert-body` on a base method whose code is a chain and its one override: both converted
// at once, or neither. The base's twin gets the base's chain (and becomes `open` where the base
// is, so that an override in another module can override it), the override gets an async
// override whose `super` call awaits that twin, and both promise versions become wrappers.

import SwiftSyntax

extension ConvertBody {
    /// The one override of `base` (a method whose body is a chain and whose twin still forwards
    /// to it) that is converted with it: the only method that overrides it (none below or beside
    /// it, no async override by hand), whose body is a chain too, that can get an async override
    /// of its own (`overriddenTwin`), and whose promise version, which stays as the override,
    /// can become a wrapper. Nil otherwise.
    ///
    /// Alone, each would change what runs: the base as a wrapper with its code in the twin would
    /// pass the override by for async callers of the subclass (`overrideLeftBehind`); the
    /// override's async override awaiting `super`'s twin would come back to itself through the
    /// twin's forwarding call, which Swift dispatches dynamically. Together, every call reaches
    /// the code it reached: the base's wrapper awaits the twin on `self` (dynamically: the
    /// override's async override for the subclass), and the override's `super` call awaits the
    /// base's twin, which holds the base's code.
    static func pairedOverride(
        of base: FunctionSite, everySite: [FunctionSite], forwarding: [FunctionSite], project: Project, set: SourceSet,
        unpaired: Set<String> = []
    ) -> FunctionSite? {
        guard base.container != nil, !base.isAsync, !unpaired.contains(pairKey(base: base)), base.promise != nil,
              let baseBody = base.decl.body, ChainConversion.isChain(baseBody), !isWrapper(baseBody),
              !base.decl.modifiers.contains(where: { ["override", "final", "static", "class", "private"].contains($0.name.text) })
        else { return nil }
        let overrides = everySite.filter { project.overrides($0, base) }
        guard overrides.count == 1, let other = overrides.first, !other.isAsync, let promise = other.promise,
              let body = other.decl.body, ChainConversion.isChain(body), !isWrapper(body),
              !everySite.contains(where: { $0.isAsync && $0.overloads(other) }),
              overriddenTwin(of: other, everySite: everySite, forwarding: forwarding, project: project, set: set) != nil,
              reasonWithoutTwin(of: other, promise, everySite: everySite, project: project) == nil,
              reasonToLeave(other, promise, project: project) == nil
        else { return nil }
        return other
    }

    /// The base `site` (an override) is converted with, when it is `pairedOverride`'s pair.
    static func pairedBase(
        of site: FunctionSite, everySite: [FunctionSite], forwarding: [FunctionSite], project: Project, set: SourceSet,
        unpaired: Set<String> = []
    ) -> FunctionSite? {
        guard site.decl.modifiers.contains(where: { $0.name.text == "override" }) else { return nil }
        return everySite.first { base in
            !base.isAsync && project.overrides(site, base)
                && pairedOverride(of: base, everySite: everySite, forwarding: forwarding, project: project, set: set, unpaired: unpaired).map {
                    $0.file.path == site.file.path && $0.decl.position == site.decl.position
                } == true
        }
    }

    /// The name both conversions of a pair carry (`Conversion.pair`): the base's place.
    static func pairKey(base: FunctionSite) -> String {
        "\(base.file.path):\(base.line) \(base.signature)"
    }

    /// `open` for the twin's `public` when the base method is `open`: the override's async
    /// override (perhaps in another module) overrides the twin, which add-async-twins wrote
    /// `public` while the promise method was the one to override. Nil when nothing changes.
    static func openTwinEdit(base: FunctionSite, twin: FunctionSite) -> TextEdit? {
        guard base.decl.modifiers.contains(where: { $0.name.text == "open" }),
              let modifier = twin.decl.modifiers.first(where: { $0.name.text == "public" }) else { return nil }
        let start = modifier.name.positionAfterSkippingLeadingTrivia.utf8Offset
        return TextEdit(start: start, end: start + "public".utf8.count, text: "open")
    }

    /// The pairs (by key) one half of which did not get through planning: planned again
    /// without them, each half as it would be alone (a base left for its override, an override
    /// whose async override awaits `super`'s promise).
    static func brokenPairs(in plan: Plan) -> Set<String> {
        let groups = Dictionary(grouping: plan.conversions.compactMap(\.pair), by: { $0 })
        return Set(groups.filter { $0.value.count < 2 }.keys)
    }
}
