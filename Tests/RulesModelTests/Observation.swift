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
    /// After the step: every promise's result (`v(1)`, `pending`; `gone` in the library once
    /// nothing holds it), `hasRequestedCancel` of each resolver the program holds, each
    /// operation's state; keyed by `StateKey`.
    var states: [Int: String] = [:]
}

/// The keys of `Observation.states`.
enum StateKey {
    static func promise(_ id: Int) -> Int { id * 4 }
    static func resolver(_ id: Int) -> Int { id * 4 + 1 }
    static func operation(_ id: Int) -> Int { id * 4 + 2 }

    static func name(_ key: Int) -> String {
        switch key % 4 {
        case 0: return "p\(key / 4)"
        case 1: return "r\(key / 4).hasRequestedCancel"
        default: return "o\(key / 4)"
        }
    }
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
    if model.released.count != library.released.count || Set(model.released) != Set(library.released),
       timed(model.released) != timed(library.released) {
        return """
            released closures differ
                  rules: \(timed(model.released).joined(separator: ", "))
                library: \(timed(library.released).joined(separator: ", "))
            """
    }
    if model.states == library.states { return nil }
    let modelStates = model.states, libraryStates = library.states
    var problems: [String] = []
    for key in Set(modelStates.keys).union(libraryStates.keys).sorted() {
        let expected = modelStates[key] ?? "absent", actual = libraryStates[key] ?? "absent"
        // A promise nothing holds any more is gone in the library: fine once it resolved.
        if actual == "gone", expected != "pending" { continue }
        if expected != actual { problems.append("\(StateKey.name(key)): rules say \(expected), library has \(actual)") }
    }
    return problems.isEmpty ? nil : "states differ: " + problems.joined(separator: "; ")
}
#endif
