// The actions of `convert-calls` and `delete-twins`, each driven through its precondition on one
// site: what holds, what declines with which reason, what is not the action's site.

import Foundation
import SwiftSyntax
import Testing
@testable import TomorrowlandMigrateKit

@Suite("convert-calls and delete-twins: each action's precondition")
struct ConvertCallsActionsTests {
    /// A promise function with its async twin, the twin of a second one called, and their callers.
    static let source = (path: "Actions.swift", text: """
        import Tomorrowland
        import TomorrowlandAsync

        func load() -> StdPromise<Int> { StdPromise(fulfilled: 1) }

        /// Async twin of `load()` (added by tomorrowland-migrate): awaits the promise it returns.
        func load() async throws -> Int { try await (load() as StdPromise<Int>).value }

        func save() -> StdPromise<Int> { StdPromise(fulfilled: 2) }

        /// Async twin of `save()` (added by tomorrowland-migrate): awaits the promise it returns.
        func save() async throws -> Int { try await (save() as StdPromise<Int>).value }

        func use() async throws -> Int {
            let first = try await (load() as StdPromise<Int>).value
            let kept = load() as StdPromise<Int>
            _ = await (load() as StdPromise<Int>).resolvedResult
            return first + (try await kept.value) + (try await save())
        }

        func start() {
            _ = load()
        }
        """)

    /// The fixture compiled, its project with the compiler's facts, and its one file.
    static func compiled() throws -> (set: SourceSet, project: Project, facts: CompilerFacts, file: ParsedFile, directory: URL) {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: 6, source: source)
        let facts = try oracle.facts(for: set.files.map(\.path))
        let recognized = set.recognizing(facts)
        return (recognized, Project(recognized, compiler: facts), facts, try #require(recognized.files.first), directory)
    }

    /// The calls of `name` in `file`, in order.
    static func calls(of name: String, in file: ParsedFile) -> [FunctionCallExprSyntax] {
        let finder = CallFinder(viewMode: .sourceAccurate)
        finder.walk(file.tree)
        return finder.calls.filter { Calls.calledName($0)?.0 == name }
    }

    @Test("CallConversionAction: an awaited bridge holds; a promise kept or `.resolvedResult` declines; synchronous code is not its")
    func callConversion() throws {
        let (set, project, _, file, directory) = try Self.compiled()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sites = set.files.flatMap(FunctionSite.all(in:))
        let action = CallConversionAction(pairs: TwinPairs.find(in: set.files, project: project), sites: sites, project: project)
        let loads = Self.calls(of: "load", in: file)
        // The twin's own call of `load()` is no site; then `use()`'s three calls and `start()`'s.
        let outcomes = loads.map { action.precondition(CallConversionAction.Site(call: $0, file: file)) }
        #expect(outcomes.count == 5)
        if case .notApplicable = outcomes[0] {} else { Issue.record("the twin's body: \(outcomes[0])") }
        #expect(outcomes[1].value != nil)
        #expect(outcomes[2].reason == SkipReason(ConvertCalls.Reason.valueUse))
        #expect(outcomes[3].reason == SkipReason(ConvertCalls.Reason.resolvedResult))
        if case .notApplicable = outcomes[4] {} else { Issue.record("synchronous code: \(outcomes[4])") }
    }

    @Test("TwinDeletionAction: a twin nothing calls holds; a twin called declines with where")
    func twinDeletion() throws {
        let (set, project, facts, _, directory) = try Self.compiled()
        defer { try? FileManager.default.removeItem(at: directory) }
        let action = TwinDeletionAction(set, facts: facts, includingPublic: false)
        let pairs = TwinPairs.find(in: set.files, project: project)
        let load = try #require(pairs.first { $0.promise.name == "load" })
        let save = try #require(pairs.first { $0.promise.name == "save" })
        #expect(action.precondition(load).value?.name == "load")
        #expect(action.precondition(save).reason?.text.hasPrefix("called at ") == true)
    }

    /// Test methods, parsed only: a value helper's reads, a kept promise's, run-loop waits.
    static let tests = (path: "StoreTests.swift", text: """
        final class StoreTests: XCTestCase {
            func testCount() throws {
                let count = try value(of: count())
                let counts = [try value(of: count())]
                let p = count()
                XCTAssertEqual(result(of: p)?.value, 1)
                XCTAssertEqual(other(of: p), 1)
            }

            func testSpins() throws {
                RunLoop.current.run(until: Date())
            }
        }

        func count() -> Promise<Int, Error> { Promise(fulfilled: 1) }
        func count() async throws -> Int { 1 }
        func strictCount() async -> Int { 1 }
        """)

    /// The parsed test file, its functions, and the test method named `name`.
    static func parsed(_ name: String) throws -> (file: ParsedFile, sites: [FunctionSite], function: FunctionDeclSyntax) {
        let file = try #require(SourceSet.inMemory([tests]).files.first)
        let sites = FunctionSite.all(in: file)
        return (file, sites, try #require(sites.first { $0.name == name }?.decl))
    }

    @Test("HelperCallAction: a `let` of the value holds; another reading or another thrown type declines with its reason")
    func helperCall() throws {
        let (file, sites, function) = try Self.parsed("testCount")
        let (promise, twin, strict) = try (
            #require(sites.first { $0.name == "count" && !$0.isAsync }), #require(sites.first { $0.name == "count" && $0.isAsync }),
            #require(sites.first { $0.name == "strictCount" })
        )
        let pair = TwinPair(promise: promise, async: twin, promiseUSR: "p", asyncUSR: "a", twin: .async)
        let action = HelperCallAction(kinds: ["value": .value(throwing: true)], project: Project(SourceSet.inMemory([Self.tests])))
        let helperCalls = Self.calls(of: "value", in: file)
        let site = { (index: Int, pair: TwinPair) in
            let helperCall = helperCalls[index]
            let call = try #require(helperCall.arguments.first?.expression.as(FunctionCallExprSyntax.self))
            return HelperCallAction.Site(call: call, helperCall: helperCall, pair: pair, promiseSite: promise, function: function, file: file)
        }
        let bound = action.precondition(try site(0, pair))
        guard case .bind = bound.value?.shape else { Issue.record("\(bound)"); return }
        #expect(action.precondition(try site(1, pair)).reason == SkipReason(TestBridges.Reason.otherUse.text(helper: "value(of:)")))
        let other = TwinPair(promise: promise, async: strict, promiseUSR: "p", asyncUSR: "a", twin: .async)
        #expect(action.precondition(try site(0, other)).reason == SkipReason(ConvertCalls.Reason.thrown(bridge: "any Error", direct: "nothing")))
    }

    @Test("KeptPromiseAction: a result helper's wait on a kept promise holds; another function's call is not its")
    func keptPromise() throws {
        let (file, _, function) = try Self.parsed("testCount")
        let action = KeptPromiseAction(
            kinds: ["result": .result], firstLabels: ["result": "of"], assertionHelpers: [:], helperUSRs: [],
            project: Project(SourceSet.inMemory([Self.tests]))
        )
        let method = TestBridges.Method(function: function, file: file)
        let kept = try #require(Self.calls(of: "result", in: file).first)
        #expect(action.precondition(KeptPromiseAction.Site(call: kept, method: method)).value?.stem == "p")
        let other = try #require(Self.calls(of: "other", in: file).first)
        if case .notApplicable = action.precondition(KeptPromiseAction.Site(call: other, method: method)) {} else { Issue.record("other(of:)") }
    }

    @Test("PollingWaitAction: a polling helper's call with a counterpart holds; one whose condition waits is not its")
    func pollingWait() throws {
        let set = SourceSet.inMemory([try Support.fixture("TestsThatPoll.swift")])
        let file = try #require(set.files.first)
        let (sites, project) = (set.files.flatMap(FunctionSite.all(in:)), Project(set))
        let action = PollingWaitAction(
            polls: TestBridges.PollingWaits(sites: sites, project: project), waits: TestBridges.RunLoopWaits(sites: sites, project: project),
            project: project
        )
        let site = { (test: String, helper: String) throws -> PollingWaitAction.Site in
            let function = try #require(sites.first { $0.name == test }?.decl)
            let call = try #require(TestBridges.RunLoopWaits.calls(in: function.body).first { Calls.calledName($0)?.0 == helper })
            return PollingWaitAction.Site(call: call, method: TestBridges.Method(function: function, file: file))
        }
        #expect(action.precondition(try site("testPollsUntilPaid", "waitUntil")).value?.async?.name == "eventually")
        let waiting = action.precondition(try site("testPollsWithAWaitInTheCondition", "waitAWhile"))
        if case .notApplicable = waiting {} else { Issue.record("\(waiting)") }
    }

    @Test("TestMethodAction: a method with no wait left holds; one still spinning the run loop declines, naming the wait")
    func testMethod() throws {
        let (file, sites, counting) = try Self.parsed("testCount")
        let spinning = try #require(sites.first { $0.name == "testSpins" }?.decl)
        let project = Project(SourceSet.inMemory([Self.tests]))
        let waits = TestBridges.RunLoopWaits(sites: sites, project: project)
        let action = TestMethodAction(supports: TestBridges.SupportFunctions([:], waits: waits, project: project), waits: waits, project: project)
        let site = { (function: FunctionDeclSyntax) in
            TestMethodAction.Site(id: function.id, method: TestBridges.Method(function: function, file: file))
        }
        #expect(action.precondition(site(counting)).value != nil)
        let reason = TestBridges.stillWaits(test: "testSpins", wait: "RunLoop.current.run(until: Date())", line: 11)
        #expect(action.precondition(site(spinning)).reason == SkipReason(reason))
    }
}
