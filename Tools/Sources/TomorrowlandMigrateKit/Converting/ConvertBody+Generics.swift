// `convert-body` in generic code: the compiler's type of a call names the function's generic
// parameters as the demangler does (`Promise<A, HubError>` in `retrying<T>`); spelled with the
// source's names, a handler on that call keeps its typed error (`catch let error as HubError`).

import SwiftSyntax

extension ConvertBody {
    /// The compiler's spelled promise type of the call whose name is at `offset` in `site`'s
    /// file, its generic placeholders named as `site`'s generic parameters name them; nil when
    /// a placeholder has no name there.
    static func spelledPromiseType(ofCallAt offset: Int, in site: FunctionSite, project: Project) -> String? {
        if let spelled = project.compiler?.spelledPromiseType(ofCallAt: offset, in: site.file.path) { return spelled }
        guard let compiler = project.compiler, let type = compiler.file(site.file.path)?.call(calleeAt: offset)?.type,
              CompilerFacts.isPromise(mangled: type), let spelled = compiler.spelledTypes[type],
              let levels = genericParameterLevels(of: site) else { return nil }
        return naming(placeholders: spelled, levels: levels)
    }

    /// The promise type of `call` in `site`, spelled for source: by its called name, or for an
    /// initializer of a specialized type (`LedgerPromise<String>(on: .immediate) { … }`) by its
    /// `>`, where the compiler's reference to the initializer ends.
    static func spelledPromiseType(of call: FunctionCallExprSyntax, in site: FunctionSite, project: Project) -> String? {
        if let spelled = spelledPromiseType(ofCallAt: Calls.nameOffset(of: call), in: site, project: project) { return spelled }
        guard let specialized = call.calledExpression.as(GenericSpecializationExprSyntax.self) else { return nil }
        let end = specialized.genericArgumentClause.rightAngle.positionAfterSkippingLeadingTrivia.utf8Offset
        return spelledPromiseType(ofCallAt: end, in: site, project: project)
    }

    /// The generic parameter lists around `site`, outermost first, lists without parameters
    /// left out (the compiler's depths); nil in a protocol or an extension, whose parameters
    /// (`Self`, the extended type's) the syntax here does not name.
    static func genericParameterLevels(of site: FunctionSite) -> [[String]]? {
        var levels: [[String]] = []
        func add(_ clause: GenericParameterClauseSyntax?) {
            if let clause, !clause.parameters.isEmpty { levels.insert(clause.parameters.map(\.name.text), at: 0) }
        }
        add(site.decl.genericParameterClause)
        var node = site.decl.parent
        while let current = node {
            if current.is(ProtocolDeclSyntax.self) || current.is(ExtensionDeclSyntax.self) { return nil }
            if let type = current.as(ClassDeclSyntax.self) { add(type.genericParameterClause) }
            if let type = current.as(StructDeclSyntax.self) { add(type.genericParameterClause) }
            if let type = current.as(EnumDeclSyntax.self) { add(type.genericParameterClause) }
            if let type = current.as(ActorDeclSyntax.self) { add(type.genericParameterClause) }
            node = current.parent
        }
        return levels
    }

    /// `spelled` with each demangler placeholder (`A`, `B` at depth 0; `A1` at depth 1) named by
    /// `levels`; nil when one names no parameter there.
    static func naming(placeholders spelled: String, levels: [[String]]) -> String? {
        var failed = false
        let named = PromiseType.replacingIdentifiers(in: spelled) { word, before in
            // A member type (`Outer.A`) is no placeholder.
            guard before.last != ".", let first = word.unicodeScalars.first, first.properties.isUppercase, first.isASCII, word.count <= 3,
                  word.dropFirst().allSatisfy(\.isNumber) else { return word }
            let index = Int(first.value) - Int(("A" as Unicode.Scalar).value)
            let depth = Int(word.dropFirst()) ?? 0
            guard word.count == 1 || depth > 0, levels.indices.contains(depth), levels[depth].indices.contains(index) else {
                failed = true
                return word
            }
            return levels[depth][index]
        }
        return failed ? nil : named
    }
}
