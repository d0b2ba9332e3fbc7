// What every rewrite of the tool is: an action. An action looks at one site (a function, a
// call, a chain, a declaration), checks its precondition against the compiler's facts (the
// syntax's where the compiler is not run), and either makes its edit or says why it declines.
// A command is the loop over its actions, then the proof of what they wrote (Oracle/).

/// Why an action declines (a function gets no twin, a call stays, a chain is left): the text
/// the user reads in the command's note.
struct SkipReason: Error, Equatable {
    let text: String
    init(_ text: String) { self.text = text }
}

/// What an action's precondition or edit came to for one site.
enum Outcome<Value> {
    /// It holds: the facts the edit needs, or the edit.
    case holds(Value)
    /// The site stays as it is, for this reason (said to the user in a note).
    case declines(SkipReason)
    /// Not this action's kind of site: nothing to do and nothing to say.
    case notApplicable

    /// The value, or nil when it declined or did not apply.
    var value: Value? {
        if case .holds(let value) = self { return value }
        return nil
    }

    /// The reason, when it declined.
    var reason: SkipReason? {
        if case .declines(let reason) = self { return reason }
        return nil
    }

    /// The same outcome with its value transformed.
    func map<Other>(_ transform: (Value) -> Other) -> Outcome<Other> {
        switch self {
        case .holds(let value): .holds(transform(value))
        case .declines(let reason): .declines(reason)
        case .notApplicable: .notApplicable
        }
    }

    /// The next step when this one holds (a precondition's facts into the edit).
    func then<Other>(_ next: (Value) -> Outcome<Other>) -> Outcome<Other> {
        switch self {
        case .holds(let value): next(value)
        case .declines(let reason): .declines(reason)
        case .notApplicable: .notApplicable
        }
    }
}

/// One rewrite the tool can make: a twin, a pin, a call conversion, a chain conversion, an
/// `adopt` edit. Tools/README.md lists every action ("Actions"), and a test keeps that list
/// true.
protocol MigrationAction {
    /// What the action looks at: a function, a call, a declaration.
    associatedtype Site
    /// What the precondition established and the edit needs.
    associatedtype Facts
    /// What the action makes: text edits, a planned conversion, a note.
    associatedtype Edit

    /// The precondition: whether the action applies to `site`, from the compiler's facts where
    /// it has them; `.declines` with the reason the user reads when it does not.
    func precondition(_ site: Site) -> Outcome<Facts>

    /// The edit for a site whose precondition held. It may still decline (a rewrite that turns
    /// out impossible only when written), with its reason.
    func edit(_ site: Site, _ facts: Facts) -> Outcome<Edit>
}

extension MigrationAction {
    /// The precondition, then the edit when it holds.
    func apply(to site: Site) -> Outcome<Edit> {
        precondition(site).then { edit(site, $0) }
    }

    /// Every site in order, with what the action came to for it (sites it does not apply to
    /// left out): the loop a command runs before its proof.
    func run(over sites: some Sequence<Site>) -> [(site: Site, outcome: Outcome<Edit>)] {
        sites.compactMap { site in
            let outcome = apply(to: site)
            if case .notApplicable = outcome { return nil }
            return (site, outcome)
        }
    }
}
