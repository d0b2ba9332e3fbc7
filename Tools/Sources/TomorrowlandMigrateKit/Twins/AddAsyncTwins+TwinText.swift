// The text of an async twin, and the class clashes that rule one out.

import Foundation
import SwiftSyntax

extension AddAsyncTwins {
    /// Why the twin of a class's method would clash with an async method that a subclass or
    /// a superclass already has, with the same name and labels: the twin would override it,
    /// or be overridden by it, without `override` ("overriding declaration requires an
    /// 'override' keyword"), and an extension's member cannot be overridden at all.
    /// (`async`: the twin is async, and clashes with async methods; otherwise with the others.)
    static func clash(of site: FunctionSite, with everySite: [FunctionSite], project: Project, async: Bool = true) -> SkipReason? {
        guard let container = site.container.map(Project.unqualified), project.facts(of: container)?.isClass == true else { return nil }
        for other in everySite where other.isAsync == async && !other.isLocal && other.name == site.name && other.labels == site.labels {
            guard let owner = other.container.map(Project.unqualified), owner != container,
                  project.facts(of: owner)?.isClass == true else { continue }
            let kind: String
            if project.ancestors(of: owner).contains(container) {
                kind = "subclass"
            } else if project.ancestors(of: container).contains(owner) {
                kind = "superclass"
            } else {
                continue
            }
            // Why no twin can be written at all (an async twin: the twin's meaning would change).
            let rule = !async ? "" : " (Swift makes a subclass's method of the same name and types an override of the superclass's, "
                + "and a `final` one forbids it): async callers of `\(kind == "subclass" ? container : owner)` would run "
                + (kind == "subclass" ? "the subclass's async method, not the promise's code" : "the twin, not its async method")
                + ", and a twin of another name is not one callers find"
            return SkipReason(
                "the \(kind) `\(owner)` already has \(async ? "an async" : "a synchronous") `\(site.signature)` "
                    + "(\(other.file.path):\(other.line)), "
                    + "which the twin would \(kind == "subclass" ? "turn into an override" : "override") without `override`\(rule); "
                    + "write this twin by hand if it should be one"
            )
        }
        return nil
    }

    /// The twin's text, indented like `site`. A `nonsending` twin is declared
    /// `nonisolated(nonsending)`: it runs on its caller's actor, so a `@MainActor` caller can
    /// await it on a non-Sendable receiver or with non-Sendable arguments in Swift 6 mode
    /// (nothing is sent to another isolation domain).
    static func twinText(for site: FunctionSite, nonsending: Bool) -> String {
        let promise = site.promise!
        let originalThrows = site.decl.signature.effectSpecifiers?.throwsClause != nil
        let effects = promise.hasNoError && !originalThrows ? "async throws(CancellationError)" : "async throws"
        let awaited = promise.kind == .tokenPromise ? ".inner.value" : ".value"
        let result = ["Void", "()", "Swift.Void"].contains(promise.value) ? "" : " -> \(promise.value)"
        // A requirement's twin, in an extension, is as visible as the protocol.
        let access = site.inProtocol
            ? site.decl.enclosingProtocol?.modifiers.first { ["public", "package"].contains($0.name.text) }?.name.text
            : nil
        let modifiers = [access, nonsending ? "nonisolated(nonsending)" : nil].compactMap { $0 }
        return Twins.twin(
            of: site, adapt: adaptReturns, note: note(for: site, promise: promise), effectsAndResult: effects + result,
            extraModifier: modifiers.isEmpty ? nil : modifiers.joined(separator: " "),
            droppingAttributes: result.isEmpty ? ["discardableResult"] : [],
            body: { call, width in
                let line = "try await (\(call) as \(promise.spelled))\(awaited)"
                guard line.count > width else { return line }
                let inner = "    \(call) as \(promise.spelled)"
                let wrapped = inner.count <= width ? inner : "    " + Twins.wrappedCall(call, indent: "    ") + " as \(promise.spelled)"
                return "try await (\n\(wrapped)\n)\(awaited)"
            }
        )
    }

    private static func note(for site: FunctionSite, promise: PromiseType) -> [String] {
        let throwing =
            if promise.hasNoError {
                "Throws only `CancellationError`, when that promise is cancelled;"
            } else if promise.hasUntypedError {
                "Throws the promise's error, or `CancellationError` when it is cancelled;"
            } else {
                "Throws the promise's `\(promise.error)`, or `CancellationError` when it is cancelled;"
            }
        var note = [
            "Async twin of `\(site.signature)` (added by tomorrowland-migrate): awaits the promise it returns.",
            "\(throwing) cancelling the awaiting Task requests cancellation of the promise.",
        ]
        let tokens = site.decl.signature.parameterClause.parameters.filter {
            $0.type.trimmedDescription.hasSuffix("PromiseInvalidationToken")
        }
        if promise.kind == .tokenPromise, let token = tokens.first?.parameterName {
            note.append(
                "`\(token)` is still passed on: awaiting registers no callback it could invalidate, "
                    + "but the original may use it for its work."
            )
        }
        return note
    }

    /// `- Returns: A promise that resolves with the user.` → `- Returns: The user.`
    private static func adaptReturns(_ line: String) -> String {
        guard let marker = line.range(of: "- Returns:") else { return line }
        var rest = line[marker.upperBound...].trimmingCharacters(in: .whitespaces)
        let prefixes = [
            "a promise that resolves with ", "a promise that is fulfilled with ", "a promise that fulfills with ",
            "a promise resolving to ", "a promise of ", "a promise for ", "a promise with ",
            "the promise of ", "a `promise` of ",
        ]
        for prefix in prefixes where rest.lowercased().hasPrefix(prefix) {
            rest = String(rest.dropFirst(prefix.count))
            rest = rest.prefix(1).uppercased() + rest.dropFirst()
            break
        }
        return String(line[..<marker.upperBound]) + " " + rest
    }}
