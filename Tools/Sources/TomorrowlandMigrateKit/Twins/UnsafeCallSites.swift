// Call sites whose meaning a same-named async overload would change, and how to keep them.
//
// In async code Swift prefers an `async` overload. A call whose result type is not pinned
// down by what follows (`let p = fetch()`, `_ = fetch()`, `fetch()` as a statement,
// `use(fetch())`, `return fetch()` from a closure) would start calling the twin and then
// fail to compile for the missing `await`. A member access (`fetch().then { … }`), an
// explicit type (`let p: P = fetch()`, `fetch() as P`) or a function's declared return type
// keeps such a call on the promise-returning function.

import SwiftSyntax

/// Where a call is written.
enum CallContext: Equatable {
    /// A synchronous function, initializer, accessor or property initializer: no overload
    /// question (an async function cannot be called there).
    case sync
    /// An async function or a closure that is async (explicitly, by containing `await`, or
    /// as the operation of `Task { }`, task groups and `StdPromise { }`).
    case async
    /// A closure whose asyncness depends on the function it is passed to, or top-level code.
    case maybeAsync

    static func of(_ node: Syntax) -> CallContext {
        var current = node.parent
        while let node = current {
            if let closure = node.as(ClosureExprSyntax.self) {
                return isAsync(closure) ? .async : isKnownSynchronous(closure) ? .sync : .maybeAsync
            }
            if let function = node.as(FunctionDeclSyntax.self) {
                return function.signature.effectSpecifiers?.asyncSpecifier != nil ? .async : .sync
            }
            if let initializer = node.as(InitializerDeclSyntax.self) {
                return initializer.signature.effectSpecifiers?.asyncSpecifier != nil ? .async : .sync
            }
            if let accessor = node.as(AccessorDeclSyntax.self) {
                return accessor.effectSpecifiers?.asyncSpecifier != nil ? .async : .sync
            }
            if node.is(DeinitializerDeclSyntax.self) || node.is(MemberBlockItemSyntax.self) { return .sync }
            current = node.parent
        }
        return .maybeAsync
    }

    private static let asyncClosureTakers: Set<String> = [
        "Task", "detached", "addTask", "addTaskUnlessCancelled", "withTaskGroup", "withThrowingTaskGroup",
        "withDiscardingTaskGroup", "withThrowingDiscardingTaskGroup", "withTaskCancellationHandler",
    ]

    /// Functions whose closure parameters are synchronous: the collection algorithms, the
    /// promise operators' callbacks, Dispatch, `assumeIsolated` (Relay's main-actor tests run
    /// their bodies in `MainActor.assumeIsolated { … }`). (An `AsyncSequence`'s `map` takes an async
    /// closure, but one without `await` of its own cannot call an async twin anyway.)
    private static let syncClosureTakers: Set<String> = PromiseOperators.always.union(PromiseOperators.withContextArgument).union([
        "compactMap", "filter", "forEach", "reduce", "sorted", "sort", "first", "firstIndex", "last", "lastIndex",
        "contains", "allSatisfy", "min", "max", "drop", "prefix", "removeAll", "partition", "split", "async", "sync",
        "asyncAfter", "mapValues", "compactMapValues", "when", "assumeIsolated",
    ])

    /// The name of the function `closure` is passed to (as an argument or trailing closure).
    private static func takerName(of closure: ClosureExprSyntax) -> String? {
        var call: FunctionCallExprSyntax?
        if let parent = closure.parent?.as(FunctionCallExprSyntax.self), parent.trailingClosure?.id == closure.id {
            call = parent
        } else if let argument = closure.parent?.as(LabeledExprSyntax.self) {
            call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        }
        guard let call else { return nil }
        var called = call.calledExpression
        if let specialized = called.as(GenericSpecializationExprSyntax.self) { called = specialized.expression }
        return called.as(DeclReferenceExprSyntax.self)?.baseName.text ?? called.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }

    /// A closure without `await` passed to a function known to take a synchronous closure
    /// (`[1, 2].map { … }`, `then(on:) { … }`, `Promise { resolver in … }`): no twin can be
    /// chosen in it.
    static func isKnownSynchronous(_ closure: ClosureExprSyntax) -> Bool {
        guard closure.signature?.effectSpecifiers?.asyncSpecifier == nil, !Closures.containsAwait(closure),
              let name = takerName(of: closure) else { return false }
        if name == "Promise" || name == "StdPromise" { return Closures.parameterCount(closure) > 0 }
        return syncClosureTakers.contains(name)
    }

    static func isAsync(_ closure: ClosureExprSyntax) -> Bool {
        if closure.signature?.effectSpecifiers?.asyncSpecifier != nil || Closures.containsAwait(closure) { return true }
        guard let name = takerName(of: closure) else { return false }
        if asyncClosureTakers.contains(name) { return true }
        // `StdPromise { … }` without parameters is the Task initializer (`Promise { $0… }` is not).
        if name == "Promise" || name == "StdPromise" {
            return Closures.parameterCount(closure) == 0 && !closure.statements.description.contains("$0")
        }
        return false
    }
}

/// A call of a twinned name whose result type nothing pins down.
struct UnsafeCall {
    let call: FunctionCallExprSyntax
    let name: String
    let context: CallContext
    let file: ParsedFile

    /// The call on one line, cut at 60 characters, for notes.
    var shortText: String {
        String(call.trimmedDescription.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(60))
    }

    /// Edits that pin the call to the promise type `type`.
    func edits(coercingTo promiseType: String) -> [OwnedEdit] {
        // `service?.fetch()` is an optional promise; `service?.fetch().value` continues the chain.
        let optional = Self.isInOptionalChain(call)
        let type = optional ? promiseType + "?" : promiseType
        var outer = ExprSyntax(call)
        while let parent = outer.parent,
              let wrapper = parent.as(TryExprSyntax.self).map(ExprSyntax.init) ?? parent.as(AwaitExprSyntax.self).map(ExprSyntax.init) {
            outer = wrapper
        }
        let end = call.endPositionBeforeTrailingTrivia
        // Where the line would grow past 120 columns, `as` goes on a continuation line.
        let (lineLength, indent) = Self.line(around: end, in: file)
        let coercion = lineLength + 6 + type.count > Twins.maximumLineLength ? "\n\(indent)    as \(type)" : " as \(type)"
        if let item = outer.parent?.as(CodeBlockItemSyntax.self), !UnsafeCallFinder.isImplicitReturn(item) {
            return [
                OwnedEdit(owner: name, edit: .insert("_ = ", at: outer.positionAfterSkippingLeadingTrivia)),
                OwnedEdit(owner: name, edit: .insert(coercion, at: end)),
            ]
        }
        let plain = outer.parent.map { parent in
            if parent.is(CodeBlockItemSyntax.self) { return true } // a closure's implicit return
            if let sequence = parent.parent?.as(SequenceExprSyntax.self) { // parent: the element list
                // `_ = fetch()` and `x = fetch()`: `as` binds tighter than `=`.
                let elements = Array(sequence.elements)
                return elements.count == 3 && elements[1].is(AssignmentExprSyntax.self) && elements[2].id == outer.id
            }
            return parent.is(InitializerClauseSyntax.self) || parent.is(LabeledExprSyntax.self)
                || parent.is(ReturnStmtSyntax.self) || parent.is(ArrayElementSyntax.self)
        } ?? false
        if plain {
            return [OwnedEdit(owner: name, edit: .insert(coercion, at: end))]
        }
        let chained = optional && call.parent?.is(MemberAccessExprSyntax.self) == true
        return [
            OwnedEdit(owner: name, edit: .insert("(", at: call.positionAfterSkippingLeadingTrivia)),
            OwnedEdit(owner: name, edit: .insert(coercion + ")" + (chained ? "?" : ""), at: end)),
        ]
    }

    /// The length of the line `position` is on, and its indentation.
    static func line(around position: AbsolutePosition, in file: ParsedFile) -> (length: Int, indent: String) {
        let bytes = Array(file.text.utf8)
        var start = min(position.utf8Offset, bytes.count)
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = min(position.utf8Offset, bytes.count)
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return (text.count, String(text.prefix { $0 == " " || $0 == "\t" }))
    }

    /// Whether the receiver of `call` is reached through `?.` (`a?.f()`, `a?.b.f()`, `a?.b().f()`).
    static func isInOptionalChain(_ call: FunctionCallExprSyntax) -> Bool {
        var current = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
        while let expression = current {
            if expression.is(OptionalChainingExprSyntax.self) { return true }
            if let member = expression.as(MemberAccessExprSyntax.self) {
                current = member.base
            } else if let inner = expression.as(FunctionCallExprSyntax.self) {
                current = inner.calledExpression
            } else if let subscriptCall = expression.as(SubscriptCallExprSyntax.self) {
                current = subscriptCall.calledExpression
            } else if let unwrapped = expression.as(ForceUnwrapExprSyntax.self) {
                current = unwrapped.expression
            } else {
                return false
            }
        }
        return false
    }
}

/// Finds the calls of `names` that are not pinned to a type, outside synchronous code.
final class UnsafeCallFinder: SyntaxVisitor {
    let file: ParsedFile
    let names: Set<String>
    var found: [UnsafeCall] = []

    /// Whether pinned calls are found too.
    let includingPinned: Bool

    init(file: ParsedFile, names: Set<String>, includingPinned: Bool = false) {
        self.file = file
        self.names = names
        self.includingPinned = includingPinned
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let (name, _) = Calls.calledName(node), names.contains(name) else { return .visitChildren }
        let context = CallContext.of(Syntax(node))
        guard context != .sync, includingPinned || Self.readsAmbiguousMember(node) || !Self.isPinned(node) else { return .visitChildren }
        found.append(UnsafeCall(call: node, name: name, context: context, file: file))
        return .visitChildren
    }

    /// `f(…).value`, `.resolvedResult`, `.result`, `.inner`, or any member read under `await`:
    /// once an async twin exists, `await f(…).member` can call the twin and read a member of
    /// its value instead, and still compile. Such a call needs an explicit promise type.
    static func readsAmbiguousMember(_ call: FunctionCallExprSyntax) -> Bool {
        guard let member = call.parent?.as(MemberAccessExprSyntax.self), member.base?.id == call.id else { return false }
        return Calls.promiseResultMembers.contains(member.declName.baseName.text) || Calls.isUnderAwait(Syntax(member))
    }

    /// `await f(…)` or `try await f(…)` with nothing read from the result in between.
    static func isDirectlyAwaited(_ call: FunctionCallExprSyntax) -> Bool {
        var outer = Syntax(call)
        while let parent = outer.parent, parent.is(TryExprSyntax.self) { outer = parent }
        return outer.parent?.is(AwaitExprSyntax.self) == true
    }

    /// Whether what surrounds `call` fixes its type to the promise.
    static func isPinned(_ call: FunctionCallExprSyntax) -> Bool {
        var outer = ExprSyntax(call)
        while let parent = outer.parent {
            if let wrapper = parent.as(TryExprSyntax.self) { outer = ExprSyntax(wrapper); continue }
            if let wrapper = parent.as(AwaitExprSyntax.self) { outer = ExprSyntax(wrapper); continue }
            if let wrapper = parent.as(TupleExprSyntax.self), wrapper.elements.count == 1, wrapper.elements.first?.label == nil {
                outer = ExprSyntax(wrapper); continue
            }
            if parent.is(LabeledExprSyntax.self), let tuple = parent.parent?.parent?.as(TupleExprSyntax.self), tuple.elements.count == 1 {
                outer = ExprSyntax(tuple); continue
            }
            break
        }
        guard let parent = outer.parent else { return false }
        if let member = parent.as(MemberAccessExprSyntax.self) { return member.base?.id == outer.id }
        if parent.is(AsExprSyntax.self) { return true }
        if let initializer = parent.as(InitializerClauseSyntax.self) {
            return initializer.parent?.as(PatternBindingSyntax.self)?.typeAnnotation != nil
        }
        if let sequence = parent.parent?.as(SequenceExprSyntax.self), parent.is(ExprListSyntax.self) {
            let elements = Array(sequence.elements)
            guard let index = elements.firstIndex(where: { $0.id == outer.id }) else { return false }
            if index + 1 < elements.count, elements[index + 1].is(UnresolvedAsExprSyntax.self) { return true }
            // `existing = fetch()`: the variable's type pins it; `_ = fetch()` does not.
            if index == 2, elements[1].is(AssignmentExprSyntax.self), !elements[0].is(DiscardAssignmentExprSyntax.self) { return true }
            return false
        }
        if let item = parent.as(CodeBlockItemSyntax.self) {
            // `{ fetch() }`: a single-expression body returns it. A function's declared return
            // type pins it; a closure's inferred one does not. Other statements discard it.
            guard isImplicitReturn(item) else { return false }
            return item.parent?.parent?.is(ClosureExprSyntax.self) == false && returnTypeIsDeclared(around: Syntax(item))
        }
        if parent.is(ReturnStmtSyntax.self) {
            return returnTypeIsDeclared(around: parent)
        }
        return false
    }

    /// Whether `item` is the only statement of a closure or function body: Swift returns its value.
    static func isImplicitReturn(_ item: CodeBlockItemSyntax) -> Bool {
        guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1 else { return false }
        return list.parent?.is(ClosureExprSyntax.self) == true || list.parent?.parent?.is(FunctionDeclSyntax.self) == true
            || list.parent?.parent?.is(AccessorDeclSyntax.self) == true || list.parent?.is(AccessorBlockSyntax.self) == true
    }

    /// Whether the function a `return` sits in declares its return type (a closure's is inferred).
    private static func returnTypeIsDeclared(around node: Syntax) -> Bool {
        var current = node.parent
        while let node = current {
            if node.is(ClosureExprSyntax.self) { return false }
            if let function = node.as(FunctionDeclSyntax.self) { return function.signature.returnClause != nil }
            if node.is(AccessorDeclSyntax.self) || node.is(PatternBindingSyntax.self) || node.is(SubscriptDeclSyntax.self) { return true }
            current = node.parent
        }
        return false
    }
}
