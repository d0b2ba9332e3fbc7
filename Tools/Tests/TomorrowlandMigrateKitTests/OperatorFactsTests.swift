import Foundation
import SwiftSyntax
import Testing
@testable import TomorrowlandMigrateKit

/// The facts the tool reads about the library's operators (`OperatorFacts`, generated from the
/// Generator's tables) are true: an operator recognised by its name alone is a method of no
/// standard library or Foundation type, checked by the compiler. A new operator whose name other
/// types share (a `filter`, say) fails here until its row says `.withContextArgument`; without
/// that, the scanner would count every `array.filter { }` as a promise call.
@Suite("operator facts from the generated tables")
struct OperatorFactsTests {
    /// Values of the common types whose methods an operator's name could collide with.
    static let namesakes = [
        "[1]", "[1].lazy", "Set([1])", "[1: 1]", "(1...2)", "\"text\"", "Optional(1)",
        "Result<Int, any Error>.success(1)", "AsyncStream<Int> { _ in }", "Task<Int, Never> { 1 }",
        "Data()", "URL(fileURLWithPath: \"/\")", "Date()", "DispatchQueue.main", "OperationQueue()",
        "NotificationCenter.default", "JSONDecoder()",
    ]

    @Test("no operator recognised by its name alone is a method of a standard library or Foundation type")
    func byNameOperatorsHaveNoNamesakes() throws {
        let names = OperatorFacts.byName.sorted()
        var lines: [String] = ["import Foundation", "func probe() {"]
        for name in names {
            for value in Self.namesakes { lines.append("    _ = (\(value)).\(name) // \(name)") }
        }
        lines.append("}")
        let outcome = try Support.compile([("Namesakes.swift", lines.joined(separator: "\n"))], swiftVersion: 6)
        let diagnostics = outcome.stdout + outcome.stderr
        // Each probe line must fail with "has no member"; any other outcome (it compiles, or the
        // name is ambiguous or misused) means the type has a member of that name.
        var collisions: [String] = []
        for (index, line) in lines.enumerated() where line.contains("_ = (") {
            let lineNumber = index + 1
            let noMember = diagnostics.split(separator: "\n").contains {
                $0.contains("Namesakes.swift:\(lineNumber):") && $0.contains("has no member")
            }
            if !noMember { collisions.append(line.trimmingCharacters(in: .whitespaces)) }
        }
        #expect(collisions.isEmpty, """
            These operators are recognised by name alone (`.byName` in Generator/Sources/CallbackAPI), but other \
            types have methods of the same name: give their rows `recognised: .withContextArgument`.
            \(collisions.joined(separator: "\n"))
            """)
    }

    @Test("the probe itself works: a shared name is found on its namesakes")
    func probeFindsASharedName() throws {
        let source = "import Foundation\nfunc probe() {\n    _ = ([1]).filter\n    _ = (Result<Int, any Error>.success(1)).mapError\n}"
        let outcome = try Support.compile([("Shared.swift", source)], swiftVersion: 6)
        #expect(!(outcome.stdout + outcome.stderr).contains("has no member"))
    }

    @Test("the scanner counts a shared name only with a context, and a by-name operator always")
    func recognitionFollowsTheFacts() {
        func name(_ code: String) -> String? {
            let file = ParsedFile(path: "Probe.swift", folder: "", text: "_ = \(code)").tree
            final class Finder: SyntaxVisitor {
                var call: FunctionCallExprSyntax?
                override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                    if call == nil { call = node }
                    return .visitChildren
                }
            }
            let finder = Finder(viewMode: .sourceAccurate)
            finder.walk(file)
            return finder.call.flatMap(PromiseOperators.name(of:))
        }
        for shared in OperatorFacts.withContextArgument {
            #expect(name("x.\(shared) { $0 }") == nil, "`\(shared)` without a context must not count")
            #expect(name("x.\(shared)(on: .main) { $0 }") == shared)
        }
        for byName in OperatorFacts.byName {
            #expect(name("x.\(byName) { _ in }") == byName)
        }
        #expect(name("when(fulfilled: [a, b])") == "when")
        #expect(name("when(all: [a, b])") == nil)
        #expect(OperatorFacts.byName.isDisjoint(with: OperatorFacts.withContextArgument))
        #expect(CallbackOperators.names.isSubset(of: OperatorFacts.byName.union(OperatorFacts.withContextArgument)))
    }
}
