// Where a converted test runs. XCTest runs a synchronous `test…()` method on the main thread, and
// an `async` one on the cooperative pool, unless it is isolated to the main actor. What the 1.x
// test exercised depends on that thread: `.auto` (the default context of `then`, `catch`,
// `always`…) is `.main` on the main thread and `.default` elsewhere, so a callback that ran on the
// main queue, in order with the test's own statements, would run on a global queue, concurrently
// (Relay's `Outbox.send(_:)` journals "settled a @main"; its test, made async, saw "@other").
// So the method made `async throws` is also made `@MainActor`: it keeps the main thread, and
// `await fulfillment(of:)` and the twins it awaits (`nonisolated(nonsending)`) run there too.
// XCTest on Linux runs an `@MainActor` async test method (not an `@MainActor` class's synchronous
// one), in Swift 5 and 6 mode.

import SwiftSyntax

extension TestBridges {
    /// `@MainActor ` before a test method made async, unless it or its type already says where it
    /// runs (a global actor, `nonisolated`): nil then.
    static func mainActorEdit(of function: FunctionDeclSyntax) -> TextEdit? {
        let isolating = { (attributes: AttributeListSyntax) in
            attributes.contains { element in
                guard let name = element.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
                return name.hasSuffix("Actor")
            }
        }
        if isolating(function.attributes) || function.modifiers.contains(where: { $0.name.text == "nonisolated" }) { return nil }
        var current = function.parent
        while let node = current {
            if let type = node.asProtocol(DeclGroupSyntax.self) {
                if isolating(type.attributes) { return nil }
                break
            }
            current = node.parent
        }
        let start = function.positionAfterSkippingLeadingTrivia.utf8Offset
        return TextEdit(start: start, end: start, text: "@MainActor ")
    }
}
