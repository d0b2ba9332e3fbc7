// `report`: where a codebase stands and in which order to migrate it.

import Foundation

/// The `report` command's result; `Codable` for `--json`.
public struct Report: Codable, Sendable {
    public struct Declaration: Codable, Sendable {
        public let file: String
        public let line: Int
        public let name: String
        public let kind: String
        public let container: String?
        /// The promise type returned, nil for async functions.
        public let returns: String?
        /// Marked `// tomorrowland-migrate: promise-twin` (async functions).
        public let markedForPromiseTwin: Bool
    }

    public struct Bridge: Codable, Sendable {
        public let file: String
        public let line: Int
        public let kind: String
    }

    public struct Progress: Codable, Sendable {
        /// File path, folder name or "total".
        public let name: String
        public let promiseStyle: Int
        public let asyncStyle: Int
        /// `100 × asyncStyle / (asyncStyle + promiseStyle)`, nil when both are 0.
        public let migratedPercent: Double?
    }

    public struct OperatorCalls: Codable, Sendable {
        public let file: String
        /// Calls per operator name, e.g. `["then": 3, "catch": 1]`.
        public let counts: [String: Int]
        public let lines: [Int]
    }

    public struct PlanStep: Codable, Sendable {
        public let order: Int
        public let function: String
        public let file: String
        public let line: Int
        /// 0: calls no promise-returning function of the scanned files (leaves); n: calls some at level n - 1.
        public let level: Int
        /// Whether its body uses promise operators.
        public let usesPromiseOperators: Bool
        /// Call sites (outside twins) that use it promise-style: not awaited through `.value`.
        public let promiseStyleCallers: Int
        /// Call sites with its name and labels on a receiver whose type the syntax does not
        /// tell: they may or may not call it, and are not counted above.
        public let unknownCallers: Int
    }

    public struct Twin: Codable, Sendable {
        public let function: String
        public let file: String
        public let line: Int
        /// "async twin" or "promise twin".
        public let kind: String
        /// Call sites that can only mean this twin: awaited calls for an async twin, calls not
        /// awaited for a promise twin. 0: the twin can be deleted.
        public let callers: Int
        /// Such call sites on a receiver whose type the syntax does not tell (not counted above).
        public let unknownCallers: Int
    }

    public var promiseDeclarations: [Declaration] = []
    public var asyncFunctions: [Declaration] = []
    public var bridges: [Bridge] = []
    public var operatorCalls: [OperatorCalls] = []
    public var files: [Progress] = []
    public var folders: [Progress] = []
    public var total: Progress
    public var plan: [PlanStep] = []
    public var twins: [Twin] = []
    public var problems: [String] = []

    /// How the percentage is computed (also in `report --help`).
    public static let percentageDefinition = """
        Migration percentage = 100 × A / (A + P), where A (async style) counts async functions \
        (twins excluded), awaited bridges (`await p.value`, `await p.resolvedResult`, \
        `StdPromise { try await … }`) and awaited calls of async twins (`try await f(x)`, what \
        convert-calls writes for `try await f(x).value`), none of them in the bodies of twins, \
        and P (promise style) \
        counts declarations returning \
        Promise, StdPromise or TokenPromise (promise twins excluded) and calls of promise \
        operators (then, map(on:), catch, always, recover, when, …). Files with neither show "-".
        """
}

extension Report {
    /// Builds the report of `set`; with the compiler's facts, each call counts for exactly the
    /// declaration it names (no "unknown" callers).
    public static func make(_ set: SourceSet, compiler: CompilerFacts? = nil) -> Report {
        let set = compiler.map(set.recognizing) ?? set
        let project = Project(set, compiler: compiler)
        let scans = project.scans
        var report = Report(total: Progress(name: "total", promiseStyle: 0, asyncStyle: 0, migratedPercent: nil))
        report.problems = set.problems.map(\.description)
        let functions = project.functions
        let twinScopes = Set(functions.filter { $0.isAsyncTwin || $0.isPromiseTwin }.map(\.scope))
        // A call can only call a function of its name (`resolve`): each call is matched against
        // those, not against every function of the package (quadratic at 100,000 lines).
        let asyncTwins = Dictionary(grouping: functions.filter(\.isAsyncTwin), by: \.name)
        for function in functions {
            let declaration = Declaration(
                file: function.file, line: function.line, name: function.signature, kind: function.kind.rawValue,
                container: function.container, returns: function.promise?.spelled,
                markedForPromiseTwin: function.wantsPromiseTwin
            )
            if function.promise != nil { report.promiseDeclarations.append(declaration) }
            if function.isAsync { report.asyncFunctions.append(declaration) }
        }
        var folderTotals: [String: (p: Int, a: Int)] = [:]
        var folderOrder: [String] = []
        for scan in scans {
            // The bodies of twins are the tool's, not migrated code.
            let bridges = scan.bridges.filter { !twinScopes.contains($0.scope) }
            report.bridges += bridges.map { Bridge(file: scan.path, line: $0.line, kind: $0.kind) }
            if !scan.operatorCalls.isEmpty {
                report.operatorCalls.append(OperatorCalls(
                    file: scan.path,
                    counts: Dictionary(scan.operatorCalls.map { ($0.name, 1) }, uniquingKeysWith: +),
                    lines: scan.operatorCalls.map(\.line)
                ))
            }
            let promiseStyle = scan.functions.filter { $0.promise != nil && !$0.isPromiseTwin }.count + scan.operatorCalls.count
            // A converted call (`try await f(x)` for `try await f(x).value`) stays async style. A
            // twin throws, so its calls are under `try`: `await actor.f(x)`, the promise method
            // called across an actor, is not one even where the syntax alone cannot tell.
            let twinCalls = asyncTwins.isEmpty ? 0 : scan.calls.filter { call in
                call.underAwait && call.underTry && !call.awaited && !twinScopes.contains(call.scope)
                    && (asyncTwins[call.name] ?? []).contains { resolve(call, $0, project: project) == .calls }
            }.count
            let asyncStyle = scan.functions.filter { $0.isAsync && !$0.isAsyncTwin }.count + bridges.count + twinCalls
            report.files.append(Progress(name: scan.path, promiseStyle: promiseStyle, asyncStyle: asyncStyle))
            if folderTotals[scan.folder] == nil { folderOrder.append(scan.folder) }
            folderTotals[scan.folder, default: (0, 0)].p += promiseStyle
            folderTotals[scan.folder, default: (0, 0)].a += asyncStyle
        }
        report.folders = folderOrder.map { Progress(name: $0, promiseStyle: folderTotals[$0]!.p, asyncStyle: folderTotals[$0]!.a) }
        report.total = Progress(
            name: "total",
            promiseStyle: report.files.reduce(0) { $0 + $1.promiseStyle },
            asyncStyle: report.files.reduce(0) { $0 + $1.asyncStyle }
        )
        report.plan = plan(functions: functions, twinScopes: twinScopes, scans: scans, project: project)
        report.twins = twins(functions: functions, twinScopes: twinScopes, scans: scans, project: project)
        return report
    }

    /// Whether `call` calls `function`: by name, labels and arity, and by receiver type where
    /// the syntax tells it (`unknown` where it does not).
    enum Resolution { case calls, unknown, other }

    static func resolve(_ call: CallRecord, _ function: FunctionRecord, project: Project) -> Resolution {
        guard call.name == function.name, !function.isProperty, CallMatching.labels(call.labels, canCall: function.parameters) else {
            return .other
        }
        // The compiler knows which declaration the call names: nothing is unknown.
        if project.compiler != nil, project.compiledFile(call.path) != nil {
            let target = project.usr(endingAt: function.endOffset, in: function.file)
            return target != nil && project.callee(nameAt: call.nameOffset, in: call.path) == target ? .calls : .other
        }
        guard project.receiver(call.receiver, reaches: function.container) else { return .other }
        return call.receiver == .unknown ? .unknown : .calls
    }

    /// Promise-returning functions, leaves first over the call graph of the scanned files.
    private static func plan(functions: [FunctionRecord], twinScopes: Set<Int>, scans: [FileScan], project: Project) -> [PlanStep] {
        let promiseFunctions = functions.filter {
            $0.promise != nil && !$0.isPromiseTwin && [.function, .method, .staticMethod, .requirement].contains($0.kind) && !$0.isProperty
        }
        let calls = scans.flatMap(\.calls)
        let callsByScope = Dictionary(grouping: calls, by: \.scope)
        let operatorScopes = Set(scans.flatMap { $0.operatorCalls.map(\.scope) })
        // A call can only call a function of its name (`resolve`).
        let promiseFunctionsByName = Dictionary(grouping: promiseFunctions, by: \.name)
        // Promise-style calls from one promise function to another (resolved, not guessed).
        var callees: [Int: Set<Int>] = [:]
        for function in promiseFunctions {
            var found = Set<Int>()
            for call in callsByScope[function.scope] ?? [] where !call.awaited && !call.underAwait {
                for callee in promiseFunctionsByName[call.name] ?? [] where callee.scope != function.scope && !found.contains(callee.scope) {
                    if resolve(call, callee, project: project) == .calls { found.insert(callee.scope) }
                }
            }
            callees[function.scope] = found
        }
        // Depth over the call graph; a call back into a function being measured (a cycle) adds nothing.
        var levelByScope: [Int: Int] = [:]
        var visiting = Set<Int>()
        func level(_ scope: Int) -> Int {
            if let known = levelByScope[scope] { return known }
            if visiting.contains(scope) { return 0 }
            visiting.insert(scope)
            let deps = callees[scope] ?? []
            let result = deps.isEmpty ? 0 : deps.map(level).max()! + 1
            visiting.remove(scope)
            levelByScope[scope] = result
            return result
        }
        let promiseStyleByName = Dictionary(grouping: calls.filter { call in
            !call.awaited && !call.underAwait && !twinScopes.contains(call.scope)
        }, by: \.name)
        let steps = promiseFunctions.map { function -> (FunctionRecord, Int, Bool, (Int, Int)) in
            let promiseStyle = (promiseStyleByName[function.name] ?? []).filter { $0.scope != function.scope }
            return (function, level(function.scope), operatorScopes.contains(function.scope), count(promiseStyle, of: function, project: project))
        }
        .sorted { ($0.1, $0.2 ? 1 : 0, $0.0.file, $0.0.line) < ($1.1, $1.2 ? 1 : 0, $1.0.file, $1.0.line) }
        return steps.enumerated().map { index, step in
            PlanStep(
                order: index + 1, function: (step.0.container.map { $0 + "." } ?? "") + step.0.signature,
                file: step.0.file, line: step.0.line, level: step.1, usesPromiseOperators: step.2,
                promiseStyleCallers: step.3.0, unknownCallers: step.3.1
            )
        }
    }

    /// The calls among `calls` that call `function`, and those that may.
    private static func count(_ calls: [CallRecord], of function: FunctionRecord, project: Project) -> (Int, Int) {
        var definite = 0
        var unknown = 0
        for call in calls {
            switch resolve(call, function, project: project) {
            case .calls: definite += 1
            case .unknown: unknown += 1
            case .other: break
            }
        }
        return (definite, unknown)
    }

    private static func twins(functions: [FunctionRecord], twinScopes: Set<Int>, scans: [FileScan], project: Project) -> [Twin] {
        let calls = Dictionary(grouping: scans.flatMap(\.calls).filter { !twinScopes.contains($0.scope) }, by: \.name)
        return functions.filter { $0.isAsyncTwin || $0.isPromiseTwin }.map { twin in
            let candidates = (calls[twin.name] ?? []).filter { call in
                twin.isAsyncTwin ? (call.underAwait && !call.awaited) : !(call.underAwait || call.awaited)
            }
            let (callers, unknown) = count(candidates, of: twin, project: project)
            return Twin(
                function: (twin.container.map { $0 + "." } ?? "") + twin.signature, file: twin.file, line: twin.line,
                kind: twin.isAsyncTwin ? "async twin" : "promise twin", callers: callers, unknownCallers: unknown
            )
        }
    }
}

extension Report.Progress {
    init(name: String, promiseStyle: Int, asyncStyle: Int) {
        let all = promiseStyle + asyncStyle
        self.init(
            name: name, promiseStyle: promiseStyle, asyncStyle: asyncStyle,
            migratedPercent: all == 0 ? nil : (100 * Double(asyncStyle) / Double(all) * 10).rounded() / 10
        )
    }
}
