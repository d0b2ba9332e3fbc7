// The proof loop of `add-async-twins`: round after round, plan, prove the plan in a scratch
// copy (`Proof`), and settle what the compiler says, until a plan passes.

/// The rounds of `add-async-twins` with the compiler: plan with the decisions so far, prove
/// the plan in a scratch copy, and turn what the compiler says into decisions (pins, rejected
/// twins) for the next round, until a plan passes (at most 8 rounds).
struct ProofRounds {
    /// One round: the plan for some decisions, and what the compiler says about it.
    struct Attempt {
        let plan: AddAsyncTwins.Plan
        let proof: Proof
        let issues: [Proof.Issue]
    }

    let set: SourceSet
    let oracle: CompilerOracle
    let before: CompilerFacts
    let paths: [String]
    let project: Project
    let elsewhere: [FunctionSite]
    var decisions = ProofDecisions()
    /// Proofs left for finding twins by halves (they count apart from the rounds).
    var searches = AddAsyncTwins.searchBudget
    /// The note that names the targets without the TomorrowlandAsync product, if any.
    let productNote: MigrationNote?

    /// The rounds for `set` (as the compiler's facts `before` recognize it). Twins in a target
    /// that does not depend on TomorrowlandAsync cannot compile: they are left out before the
    /// proof (which would find them one file a round), and one note names the targets.
    init(set: SourceSet, oracle: CompilerOracle, before: CompilerFacts) {
        self.set = set
        self.oracle = oracle
        self.before = before
        paths = set.files.map(\.path)
        let project = Project(set, compiler: before)
        let elsewhere = AddAsyncTwins.existingTwins(around: set)
        (self.project, self.elsewhere) = (project, elsewhere)
        var decisions = ProofDecisions()
        productNote = AddAsyncTwins.rejectTargetsWithoutAsyncProduct(oracle: oracle, set: set, decisions: &decisions) { decisions in
            AddAsyncTwins.plan(set, project: project, decisions: decisions, elsewhere: elsewhere).candidates
        }
        self.decisions = decisions
    }

    /// Round after round until a plan passes, nothing is left to write, or the proof is stuck.
    mutating func run() -> MigrationResult {
        for round in 1...8 {
            let attempt: Attempt
            do {
                attempt = try self.attempt(decisions)
            } catch {
                return AddAsyncTwins.syntaxOnly(set, because: "the compiler could not be run on the scratch copy (\(error))")
            }
            guard !attempt.plan.result.changes.isEmpty else { return finish(attempt.plan.result) }
            if attempt.issues.isEmpty { return finish(proven(attempt.plan, round: round)) }
            if let stuck = settle(attempt) { return finish(stuck) }
        }
        var result = MigrationResult(problems: set.problems)
        result.notes.append(MigrationNote(path: paths.first ?? ".", line: 1, message: "nothing written: the proof did not settle in 8 rounds"))
        return finish(result)
    }

    /// The plan for `decisions`, proved in a scratch copy (a plan that changes nothing needs no proof).
    func attempt(_ decisions: ProofDecisions) throws -> Attempt {
        let plan = AddAsyncTwins.plan(set, project: project, decisions: decisions, elsewhere: elsewhere)
        guard !plan.result.changes.isEmpty else { return Attempt(plan: plan, proof: Proof(set: set, before: before, after: before, plan: plan), issues: []) }
        let replacing = Dictionary(plan.result.changes.map { ($0.path, $0.updated) }, uniquingKeysWith: { $1 })
        let after = try oracle.facts(for: paths, replacing: replacing, unchanged: before)
        let proof = Proof(set: set, before: before, after: after, plan: plan)
        return Attempt(plan: plan, proof: proof, issues: proof.issues())
    }

    /// The result, with the note on the targets without TomorrowlandAsync.
    func finish(_ result: MigrationResult) -> MigrationResult {
        var result = result
        if let productNote { result.notes.append(productNote) }
        return result
    }

    /// A plan that passed, with the note that says what the compiler checked.
    func proven(_ plan: AddAsyncTwins.Plan, round: Int) -> MigrationResult {
        var result = plan.result
        let checked = before.files.values.reduce(0) { $0 + $1.references.count }
        result.notes.append(MigrationNote(
            path: paths.first ?? ".", line: 1,
            message: "checked by the compiler (round \(round)): all \(checked) references in \(before.files.count) file(s) "
                + "name the same declaration as before, and the twins type-check"
        ))
        return result
    }

    /// Decisions for the next round from the issues of `attempt`; nil to go on, the result
    /// when the proof is stuck. Progress (a pin, a rejected twin) may settle the rest in the
    /// next round; when nothing the compiler said names a twin, one twin is found by proving
    /// the plan with half of them, and dropped; the rest go on (never all or nothing).
    mutating func settle(_ attempt: Attempt) -> MigrationResult? {
        let previous = decisions
        let unresolved = attempt.proof.decide(attempt.issues, project: project, decisions: &decisions)
        guard decisions == previous else { return nil }
        let stuck = unresolved.isEmpty ? attempt.issues.map(\.note) : unresolved
        guard let found = culprit(of: attempt.plan, stuck: stuck) else {
            var result = MigrationResult(problems: set.problems)
            result.notes = stuck.map { note in MigrationNote(path: note.path, line: note.line, message: "nothing written: " + note.message) }
            return result
        }
        let first = stuck[0]
        decisions.rejected[found] = "the compiler objects to it (found by proving the twins in halves): "
            + "\(first.path):\(first.line): \(first.message)"
        return nil
    }

    /// The twin of `plan` whose proof fails with one of the `stuck` notes, found by halves
    /// within the search budget; nil when there is none or the budget runs out.
    mutating func culprit(of plan: AddAsyncTwins.Plan, stuck: [MigrationNote]) -> AddAsyncTwins.CandidateKey? {
        var keys: [AddAsyncTwins.CandidateKey] = []
        for site in plan.candidates where !keys.contains(AddAsyncTwins.key(site)) { keys.append(AddAsyncTwins.key(site)) }
        let rounds = self
        var budget = searches
        defer { searches = budget }
        return try? AddAsyncTwins.culprit(
            among: keys, stuck: Set(stuck.map(\.description)), decisions: decisions, budget: &budget,
            attempt: { decisions in
                let attempt = try rounds.attempt(decisions)
                var copy = decisions
                let unresolved = attempt.proof.decide(attempt.issues, project: rounds.project, decisions: &copy)
                return (unresolved.isEmpty ? attempt.issues.map(\.note) : unresolved).map(\.description)
            }
        )
    }
}
