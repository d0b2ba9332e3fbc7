// `convert-body` on a protocol requirement's implementation: where the requirement's twin is
// called on the conformer's own type, which a new async method of the conformer takes when
// that keeps what runs.

import SwiftSyntax

extension ConvertBody {
    /// Why a conformer's new async method cannot take the calls of its requirement's twin.
    struct Unmoved: Error {
        let text: String
    }

    /// The calls of the requirement's twin (in the protocol's extension) on the conformer's own
    /// type, which a new async method of the conformer takes: the same work, without the trip
    /// through the promise requirement and its wrapper (its Task awaits that very method). A
    /// failure, with the place, where that could change what runs: a call on a receiver whose
    /// type the compiler did not say, or on a class that is not final (a subclass's override of
    /// the promise version would no longer be reached).
    ///
    /// The conformer's type is the compiler's: the nominal type whose USR starts the method's
    /// USR (`s:11HomeHubCore10BLEScannerC` for `BLEScanner.scan(for:)`), so a receiver is that
    /// type when its mangled type starts with the same mangling (`$s11HomeHubCore10BLEScannerC…`),
    /// whatever follows (generic arguments, `Sg` for an optional, `m` for a metatype), but no
    /// nested type's name. A receiver that is a protocol (`any HubTransport`) or another type
    /// whose name shares a word with it is not. (A subclass's calls would reach the new method
    /// too: the proof finds those, as a reference that changes its meaning.)
    /// A conformer in a file that several modules compile (`sharedModules`, by file) is its own
    /// type in each of them: a call on another module's copy is a call on it.
    static func callsOfRequirementTwin(
        on site: FunctionSite, twins: [FunctionSite], project: Project, callers: (String) -> [(path: String, offset: Int)], set: SourceSet,
        sharedModules: [String: Set<String>] = [:]
    ) -> Result<[(path: String, offset: Int)], Unmoved> {
        guard let container = site.container else { return .success([]) }
        guard let nominal = nominalMangling(of: site, project: project) else { return .failure(Unmoved(text: "its type is not known to the compiler")) }
        let copies = SharedDeclarations.copies(of: nominal, modules: sharedModules[CompilerFacts.key(site.file.path)] ?? [])
        var places: [(path: String, offset: Int)] = []
        for twin in twins {
            guard let usr = project.usr(of: twin) else { return .failure(Unmoved(text: "its requirement's twin is not known to the compiler")) }
            for place in callers(usr) {
                guard let receiver = project.compiler?.file(place.path)?.call(calleeAt: place.offset)?.receiverType else {
                    return .failure(Unmoved(text: "\(location(place)), a receiver of a type the compiler does not say"))
                }
                guard copies.contains(where: { receiverIs(receiver, $0) }) else { continue }
                guard !nominal.hasSuffix("C") || isFinalClass(container, in: set) else {
                    return .failure(Unmoved(text: "\(location(place)); `\(container)` is a class that is not final, whose subclasses' "
                        + "overrides of the promise version those calls would no longer reach"))
                }
                places.append(place)
            }
        }
        return .success(places)
    }

    /// The expectations of a conformer's conversion: each call it takes names its new method.
    static func retargetExpectations(of conversion: Conversion) -> [PlannedChange.Expectation] {
        guard let offset = conversion.methodOffset else { return [] }
        return conversion.retargeted.map { place in
            .init(place: .elsewhere(path: place.path, offset: place.offset), target: .declaration(edit: 0, offset: offset),
                  meaning: "the async method of `\(conversion.site.container ?? "")`")
        }
    }

    /// Where the declaration starts in `text` (blank lines, indentation and a doc comment before
    /// it): its first modifier or keyword, as the compiler counts it.
    static func declarationOffset(in text: String) -> Int? {
        var offset = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if !trimmed.isEmpty, !trimmed.hasPrefix("///") {
                return offset + (line.utf8.count - trimmed.utf8.count)
            }
            offset += line.utf8.count + 1
        }
        return nil
    }

    /// Whether `name` is declared `final class` (or as an actor, which has no subclass) in `set`.
    static func isFinalClass(_ name: String, in set: SourceSet) -> Bool {
        final class Finder: SyntaxVisitor {
            let name: String
            var found = false
            init(name: String) {
                self.name = name
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
                if node.name.text == name, node.modifiers.contains(where: { $0.name.text == "final" }) { found = true }
                return .visitChildren
            }
            override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
                if node.name.text == name { found = true }
                return .visitChildren
            }
        }
        let finder = Finder(name: String(name.split(separator: ".").last ?? ""))
        for file in set.files where !finder.found { finder.walk(file.tree) }
        return finder.found
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

    /// `import TomorrowlandAsync` for the file of a conformer's new async method (its `.value`,
    /// `taskExecutor`), where add-async-twins wrote no twin: nil when the file has it or when a
    /// conversion already `planned` adds it.
    static func asyncImport(for site: FunctionSite, planned: [Conversion]) -> TextEdit? {
        guard let edit = Imports.addAsyncImport(to: site.file)?.edit else { return nil }
        let added = planned.contains { conversion in
            conversion.site.file.path == site.file.path && conversion.edits.contains { $0.start == edit.start && $0.text == edit.text }
        }
        return added ? nil : edit
    }
}
