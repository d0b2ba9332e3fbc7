// Which names the scopes around a node declare: a reference the index would take for a
// member or a top-level declaration may name a local instead.

import SwiftSyntax

/// Names declared in the scopes around a node.
enum Scopes {
    /// Whether `name` at `node` names a local variable, a parameter or a closure parameter
    /// rather than a member or a top-level declaration.
    static func isShadowed(_ name: String, at node: Syntax) -> Bool {
        func binds(_ pattern: PatternSyntax) -> Bool {
            pattern.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(name) }
        }
        func conditionsBind(_ conditions: ConditionElementListSyntax) -> Bool {
            conditions.contains { element in
                if let binding = element.condition.as(OptionalBindingConditionSyntax.self) { return binds(binding.pattern) }
                if let matching = element.condition.as(MatchingPatternConditionSyntax.self) { return binds(matching.pattern) }
                return false
            }
        }
        var current = node.parent
        var child = node
        while let here = current {
            if let block = here.as(CodeBlockItemListSyntax.self) {
                for item in block where item.position < node.position {
                    if let variable = item.item.as(VariableDeclSyntax.self), variable.bindings.contains(where: { binds($0.pattern) }) { return true }
                    if let guardStatement = item.item.as(GuardStmtSyntax.self), conditionsBind(guardStatement.conditions) { return true }
                    if let function = item.item.as(FunctionDeclSyntax.self), function.name.text == name { return true }
                }
            } else if let ifExpression = here.as(IfExprSyntax.self), child.id == ifExpression.body.id, conditionsBind(ifExpression.conditions) {
                return true
            } else if let whileStatement = here.as(WhileStmtSyntax.self), conditionsBind(whileStatement.conditions) {
                return true
            } else if let loop = here.as(ForStmtSyntax.self), child.id == loop.body.id, binds(loop.pattern) {
                return true
            } else if let closure = here.as(ClosureExprSyntax.self), let signature = closure.signature {
                if let parameters = signature.parameterClause {
                    if parameters.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .identifier(name) }) { return true }
                }
            } else if let function = here.as(FunctionDeclSyntax.self) {
                if function.signature.parameterClause.parameters.contains(where: { ($0.secondName ?? $0.firstName).text == name }) { return true }
            } else if let initializer = here.as(InitializerDeclSyntax.self) {
                if initializer.signature.parameterClause.parameters.contains(where: { ($0.secondName ?? $0.firstName).text == name }) { return true }
            } else if let accessor = here.as(AccessorDeclSyntax.self) {
                let implicit = ["set": "newValue", "willSet": "newValue", "didSet": "oldValue"][accessor.accessorSpecifier.text]
                if accessor.parameters?.name.text == name || (accessor.parameters == nil && implicit == name) { return true }
            } else if let clause = here.as(SwitchCaseSyntax.self), case .case(let label) = clause.label {
                if label.caseItems.contains(where: { binds($0.pattern) }) { return true }
            } else if here.is(MemberBlockSyntax.self) || here.is(SourceFileSyntax.self) {
                return false
            }
            child = here
            current = here.parent
        }
        return false
    }
}
