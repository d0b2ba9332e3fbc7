// `convert-body` on a protocol requirement's implementation: where the requirement's twin is
// called on the conformer's own type, which a new async method of the conformer would take.

extension ConvertBody {
    /// Where the requirement's twin (in the protocol's extension) is called on the conformer's
    /// own type (or on a receiver whose type the compiler did not say): a conformer's async method
    /// would take those calls. Nil when there is none.
    ///
    /// The conformer's type is the compiler's: the nominal type whose USR starts the method's
    /// USR (`s:11HomeHubCore10BLEScannerC` for `BLEScanner.scan(for:)`), so a receiver is that
    /// type when its mangled type starts with the same mangling (`$s11HomeHubCore10BLEScannerC…`),
    /// whatever follows (generic arguments, `Sg` for an optional, `m` for a metatype), but no
    /// nested type's name. A receiver that is a protocol (`any HubTransport`) or another type
    /// whose name shares a word with it is not. (A subclass's calls would reach the new method
    /// too: the proof finds those, as a reference that changes its meaning.)
    static func callsOfRequirementTwin(
        on site: FunctionSite, twins: [FunctionSite], project: Project, callers: (String) -> [(path: String, offset: Int)]
    ) -> String? {
        guard site.container != nil else { return nil }
        guard let nominal = nominalMangling(of: site, project: project) else { return "the conformer's type is not known to the compiler" }
        for twin in twins {
            guard let usr = project.usr(of: twin) else { return "its requirement's twin is not known to the compiler" }
            for place in callers(usr) {
                let receiver = project.compiler?.file(place.path)?.call(calleeAt: place.offset)?.receiverType
                if receiver.map({ receiverIs($0, nominal) }) ?? true { return location(place) }
            }
        }
        return nil
    }

    /// `path:line` of a place.
    private static func location(_ place: (path: String, offset: Int)) -> String {
        let text = (try? String(contentsOfFile: place.path, encoding: .utf8)) ?? ""
        return "\(place.path):\(EditProof.line(of: place.offset, in: text))"
    }

    /// Whether the mangled type `receiver` is the nominal type mangled `nominal` (`11HomeHubCore10BLEScannerC`):
    /// it starts with it, and no identifier follows (a nested type's).
    static func receiverIs(_ receiver: String, _ nominal: String) -> Bool {
        guard receiver.hasPrefix("$s" + nominal) else { return false }
        let rest = receiver.dropFirst(2 + nominal.count)
        return rest.first.map { !$0.isNumber } ?? true
    }

    /// The mangling of the type that declares `site` (its USR without `s:`): the longest USR of
    /// a class, struct, enum or actor the compiler declared that starts the method's USR.
    static func nominalMangling(of site: FunctionSite, project: Project) -> String? {
        guard let usr = project.usr(of: site), usr.hasPrefix("s:"), let compiler = project.compiler else { return nil }
        let method = usr.dropFirst(2)
        let kinds: Set<String> = ["class_decl", "struct_decl", "enum_decl", "actor_decl"]
        var best: Substring?
        for file in compiler.files.values {
            for declaration in file.declarations where kinds.contains(declaration.kind) && declaration.usr.hasPrefix("s:") {
                let type = declaration.usr.dropFirst(2)
                if method.hasPrefix(type), type.count > (best?.count ?? 0) { best = type }
            }
        }
        return best.map(String.init)
    }
}
