import Foundation
import Tomorrowland

/// "Payee contains X → category Y", optionally only above an amount.
public struct CategorisationRule: Hashable, Codable, Sendable {
    public var payeeContains: String
    public var category: Category
    public var minimumMinor: Int64?

    public init(payeeContains: String, category: Category, minimumMinor: Int64? = nil) {
        self.payeeContains = payeeContains
        self.category = category
        self.minimumMinor = minimumMinor
    }

    public func matches(_ transaction: Transaction) -> Bool {
        guard transaction.payee.localizedCaseInsensitiveContains(payeeContains) else { return false }
        if let minimum = minimumMinor {
            return abs(transaction.amount.minorUnits) >= minimum
        }
        return true
    }
}

/// The user's categorisation rules. Not thread-safe: owned by the rules screen, which hands
/// snapshots to background work.
public final class RuleEngine {
    public private(set) var rules: [CategorisationRule]
    public private(set) var learnedCount = 0

    public init(rules: [CategorisationRule] = RuleEngine.defaultRules) {
        self.rules = rules
    }

    public static let defaultRules: [CategorisationRule] = [
        CategorisationRule(payeeContains: "market", category: .groceries),
        CategorisationRule(payeeContains: "rail", category: .transport),
        CategorisationRule(payeeContains: "landlord", category: .rent),
        CategorisationRule(payeeContains: "payroll", category: .salary),
        CategorisationRule(payeeContains: "power", category: .utilities),
    ]

    public func add(_ rule: CategorisationRule) {
        rules.insert(rule, at: 0)
    }

    /// Categorises transactions that are still `.uncategorised`, on a background queue.
    public func categorise(_ transactions: [Transaction]) -> Guaranteed<[Transaction]> {
        let rules = self.rules
        return Promise(on: .utility) { resolver in
            resolver.fulfill(with: transactions.map { RuleEngine.apply(rules, to: $0) })
        }
    }

    /// Learns a rule from the user recategorising `transaction`, then re-categorises `others`
    /// with it. The new rule takes effect at once (before the promise resolves).
    public func learn(from transaction: Transaction, as category: Category, recategorising others: [Transaction]) -> Guaranteed<[Transaction]> {
        let rule = CategorisationRule(payeeContains: transaction.payee, category: category)
        add(rule)
        learnedCount += 1
        return categorise(others.map { other in
            var reset = other
            if rule.matches(other) { reset.category = .uncategorised }
            return reset
        })
    }

    static func apply(_ rules: [CategorisationRule], to transaction: Transaction) -> Transaction {
        guard transaction.category == .uncategorised else { return transaction }
        var categorised = transaction
        if let rule = rules.first(where: { $0.matches(transaction) }) {
            categorised.category = rule.category
        } else if transaction.amount.minorUnits > 0 {
            categorised.category = .salary
        }
        return categorised
    }
}
