// What one step of a program shows, in the model and in the library alike, and how two runs
// are compared.

#if TOMORROWLAND_SCHEDULE_POINTS

/// The observations of one step.
struct Observation: Equatable {
    /// User code that ran, in order: `cb7@q v(3) x0` (callback 7 ran on `q` with the value 3,
    /// `isExecutingNow` false), then `cb7> x0` when it returned; `h4@T x1` for a cancel handler,
    /// `i`/`d`/`o` for the handlers of `Promise(on:)`, `DelayedPromise` and `PromiseOperation`,
    /// `pc` for `propagatingCancellation`'s hook, `rb`/`rs` for `retry`'s body and `while`.
    var events: [String] = []
    /// The closures released during the step, by the name of what they captured, and where:
    /// `cb7@q`. Compared as a set (the order inside a step is not a rule).
    var released: [String] = []
    /// After the step: every promise's result (`p3=v(1)`, `p3=pending`; `p3=gone` in the
    /// library once nothing holds it), `hasRequestedCancel` of each resolver the program holds,
    /// each operation's state.
    var states: [String] = []
}

/// Runs a program one operation at a time, writing what each step shows.
protocol Runner: AnyObject {
    func run(_ op: Op)
    var observation: Observation { get }
}

/// The first difference between the model's observation of a step and the library's, if any.
/// `ignoring`: watched objects whose release the rules do not time.
func difference(model: Observation, library: Observation, ignoring: Set<String> = []) -> String? {
    if model.events != library.events {
        let index = zip(model.events, library.events).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(model.events.count, library.events.count)
        return """
            events differ at #\(index)
                  rules: \(model.events.joined(separator: " | "))
                library: \(library.events.joined(separator: " | "))
            """
    }
    func timed(_ released: [String]) -> [String] {
        released.filter { !ignoring.contains(String($0.prefix { $0 != "@" })) }.sorted()
    }
    if timed(model.released) != timed(library.released) {
        return """
            released closures differ
                  rules: \(timed(model.released).joined(separator: ", "))
                library: \(timed(library.released).joined(separator: ", "))
            """
    }
    let modelStates = Dictionary(model.states.map(split), uniquingKeysWith: { a, _ in a })
    let libraryStates = Dictionary(library.states.map(split), uniquingKeysWith: { a, _ in a })
    var problems: [String] = []
    for key in Set(modelStates.keys).union(libraryStates.keys).sorted() {
        let expected = modelStates[key] ?? "absent", actual = libraryStates[key] ?? "absent"
        // A promise nothing holds any more is gone in the library: fine once it resolved.
        if actual == "gone", expected != "pending" { continue }
        if expected != actual { problems.append("\(key): rules say \(expected), library has \(actual)") }
    }
    return problems.isEmpty ? nil : "states differ: " + problems.joined(separator: "; ")
}

private func split(_ line: String) -> (String, String) {
    let parts = line.split(separator: "=", maxSplits: 1)
    return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
}
#endif
