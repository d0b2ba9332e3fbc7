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
        (twins excluded) and awaited bridges (`await p.value`, `await p.resolvedResult`, \
        `StdPromise { try await … }`), and P (promise style) counts declarations returning \
        Promise, StdPromise or TokenPromise (promise twins excluded) and calls of promise \
        operators (then, map(on:), catch, always, recover, when, …). Files with neither show "-".
        """
}

extension Report {
    /// Builds the report of `set`.
    public static func make(_ set: SourceSet) -> Report {
        let project = Project(set)
        let scans = project.scans
        var report = Report(total: Progress(name: "total", promiseStyle: 0, asyncStyle: 0, migratedPercent: nil))
        report.problems = set.problems.map(\.description)
        let functions = project.functions
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
            report.bridges += scan.bridges.map { Bridge(file: scan.path, line: $0.line, kind: $0.kind) }
            if !scan.operatorCalls.isEmpty {
                report.operatorCalls.append(OperatorCalls(
                    file: scan.path,
                    counts: Dictionary(scan.operatorCalls.map { ($0.name, 1) }, uniquingKeysWith: +),
                    lines: scan.operatorCalls.map(\.line)
                ))
            }
            let promiseStyle = scan.functions.filter { $0.promise != nil && !$0.isPromiseTwin }.count + scan.operatorCalls.count
            let asyncStyle = scan.functions.filter { $0.isAsync && !$0.isAsyncTwin }.count + scan.bridges.count
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
        report.plan = plan(functions: functions, scans: scans)
        report.twins = twins(functions: functions, scans: scans)
        return report
    }

    /// Promise-returning functions, leaves first over the call graph of the scanned files.
    private static func plan(functions: [FunctionRecord], scans: [FileScan]) -> [PlanStep] {
        let twinScopes = Set(functions.filter { $0.isAsyncTwin || $0.isPromiseTwin }.map(\.scope))
        let promiseFunctions = functions.filter {
            $0.promise != nil && !$0.isPromiseTwin && [.function, .method, .staticMethod].contains($0.kind)
        }
        let promiseNames = Set(promiseFunctions.map(\.name))
        let calls = scans.flatMap(\.calls)
        let callsByScope = Dictionary(grouping: calls, by: \.scope)
        let operatorScopes = Set(scans.flatMap { $0.operatorCalls.map(\.scope) })
        // Promise-style calls from one promise function to another (by name).
        var callees: [Int: Set<String>] = [:]
        for function in promiseFunctions {
            callees[function.scope] = Set((callsByScope[function.scope] ?? []).filter {
                promiseNames.contains($0.name) && $0.name != function.name && !$0.awaited && !$0.underAwait
            }.map(\.name))
        }
        var calleesByName: [String: Set<String>] = [:]
        for function in promiseFunctions { calleesByName[function.name, default: []].formUnion(callees[function.scope]!) }
        // Depth over the call graph; a call back into a function being measured (a cycle) adds nothing.
        var levelByName: [String: Int] = [:]
        var visiting = Set<String>()
        func level(_ name: String) -> Int {
            if let known = levelByName[name] { return known }
            if visiting.contains(name) { return 0 }
            visiting.insert(name)
            let deps = calleesByName[name] ?? []
            let result = deps.isEmpty ? 0 : deps.map(level).max()! + 1
            visiting.remove(name)
            levelByName[name] = result
            return result
        }
        let steps = promiseFunctions.map { function -> (FunctionRecord, Int, Bool, Int) in
            let callers = calls.filter { call in
                call.name == function.name && !call.awaited && !call.underAwait && !twinScopes.contains(call.scope)
                    && call.scope != function.scope
            }.count
            return (function, level(function.name), operatorScopes.contains(function.scope), callers)
        }
        .sorted { ($0.1, $0.2 ? 1 : 0, $0.0.file, $0.0.line) < ($1.1, $1.2 ? 1 : 0, $1.0.file, $1.0.line) }
        return steps.enumerated().map { index, step in
            PlanStep(
                order: index + 1, function: (step.0.container.map { $0 + "." } ?? "") + step.0.signature,
                file: step.0.file, line: step.0.line, level: step.1, usesPromiseOperators: step.2, promiseStyleCallers: step.3
            )
        }
    }

    private static func twins(functions: [FunctionRecord], scans: [FileScan]) -> [Twin] {
        let twinScopes = Set(functions.filter { $0.isAsyncTwin || $0.isPromiseTwin }.map(\.scope))
        let calls = scans.flatMap(\.calls).filter { !twinScopes.contains($0.scope) }
        return functions.filter { $0.isAsyncTwin || $0.isPromiseTwin }.map { twin in
            let callers = calls.filter { call in
                call.name == twin.name && (twin.isAsyncTwin ? (call.underAwait && !call.awaited) : !(call.underAwait || call.awaited))
            }.count
            return Twin(
                function: (twin.container.map { $0 + "." } ?? "") + twin.signature, file: twin.file, line: twin.line,
                kind: twin.isAsyncTwin ? "async twin" : "promise twin", callers: callers
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
