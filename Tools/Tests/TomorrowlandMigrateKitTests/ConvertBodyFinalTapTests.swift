import Dispatch
import Foundation
import Testing
import Tomorrowland
@testable import TomorrowlandMigrateKit

/// A final `tap` on a named context (ChainConversion+FinalTap.swift): started in a Task on its
/// context, not awaited, whether it reads the result or not; its capture list kept on the Task's closure.
@Suite("convert-body: a final tap on a named context")
struct ConvertBodyFinalTapTests {
    static let source = """
        import Foundation
        import Tomorrowland
        import TomorrowlandAsync

        public enum FleetError: Error, Equatable, Sendable {
            case offline
        }

        public final class Journal: @unchecked Sendable {
            private let lock = NSLock()
            private var entries: [String] = []

            public func log(_ line: String) {
                lock.withLock { entries.append(line) }
            }
        }

        public final class Store: Sendable {
            public let name = "store"
        }

        public func minutes(_ n: Int) -> Promise<Int, FleetError> {
            n > 0 ? Promise(fulfilled: n) : Promise(rejected: .offline)
        }

        public final class Center: @unchecked Sendable {
            public var journal: Journal
            public let store = Store()
            private let queue = DispatchQueue(label: "dispatching")

            public init(journal: Journal) {
                self.journal = journal
            }

            public func eta(_ n: Int) -> Promise<Int, FleetError> {
                minutes(n)
                    .tap(on: .queue(queue)) { [journal] result in
                        journal.log("eta \\(result.value.map(String.init) ?? "-")")
                    }
            }

            public func weakly(_ n: Int) -> Promise<Int, FleetError> {
                minutes(n).tap(on: .utility) { [weak self] result in
                    guard let self else { return }
                    self.journal.log("weakly \\(result.value ?? 0)")
                }
            }

            public func unownedly(_ n: Int) -> Promise<Int, FleetError> {
                minutes(n).map(on: .immediate) { $0 + 1 }.tap(on: .utility) { [unowned self] _ in
                    self.journal.log("unownedly")
                }
            }

            public func named(_ n: Int, to journal: Journal) -> Promise<Int, FleetError> {
                minutes(n).tap(on: .utility) { [name = store.name] _ in
                    journal.log(name)
                }
            }

            public func passed(_ n: Int, to journal: Journal) -> Promise<Int, FleetError> {
                minutes(n).tap(on: .utility) { [journal] _ in
                    journal.log("passed")
                }
            }
        }

        public func noted(_ n: Int, journal: Journal) -> Promise<Int, FleetError> {
            minutes(n).map(on: .utility) { $0 * 2 }.tap(on: .utility) { _ in
                journal.log("noted")
            }
        }

        public func recovered(_ n: Int, journal: Journal) -> Promise<Int, NoError> {
            minutes(n).recover(on: .immediate) { _ in 0 }.tap(on: .utility) { _ in
                journal.log("recovered")
            }
        }

        public func inline(_ n: Int, journal: Journal) -> Promise<Int, FleetError> {
            minutes(n).tap { _ in
                journal.log("inline")
            }
        }

        @MainActor public final class Screen {
            public var shown: [String] = []

            public func show(_ n: Int) -> Promise<Int, FleetError> {
                minutes(n).tap(on: .main) { _ in
                    self.shown.append("shown")
                }
            }
        }
        """

    @Test("the twins: the Task keeps the capture list, and a `tap { _ in }` starts from a `defer`; Swift 6 and 5 mode", arguments: [6, 5])
    func written(swiftVersion: Int) throws {
        let (text, notes) = try ConvertBodyLimitsTests.convertedInBothModes(Self.source, path: "Center.swift", swiftVersion: swiftVersion)
        #expect(notes.contains { $0.hasPrefix("convert-body: 9 of 9 chain bodies converted") }, "\(notes)")
        // Fleet's `eta(of:)`: `[journal]` of a property, read before the first await as 1.x read it where the chain was built.
        #expect(text.contains("""
                public nonisolated(nonsending) func eta(_ n: Int) async throws -> Int {
                    let journal2 = journal
                    let result: PromiseResult<Int, FleetError>
            """), "\(text)")
        #expect(text.contains("""
                    Task(executorPreference: PromiseContext.queue(queue).taskExecutor) { @concurrent [journal = journal2] in
                        journal.log("eta \\(result.value.map(String.init) ?? "-")")
                    }
                    switch result {
            """), "\(text)")
        // `[weak self]`: the capture list and the statements as written.
        #expect(text.contains("""
                    Task(executorPreference: PromiseContext.utility.taskExecutor) { @concurrent [weak self] in
                        guard let self else { return }
                        self.journal.log("weakly \\(result.value ?? 0)")
                    }
            """), "\(text)")
        // `tap { _ in }`: started from a `defer`, on every path, not awaited; `[unowned self]` as written.
        #expect(text.contains("""
                public nonisolated(nonsending) func unownedly(_ n: Int) async throws -> Int {
                    defer {
                        Task(executorPreference: PromiseContext.utility.taskExecutor) { @concurrent [unowned self] in
                            self.journal.log("unownedly")
                        }
                    }
                    return try await minutes(n) + 1
                }
            """), "\(text)")
        // `[name = store.name]`: the twin's `let`, which the Task's closure captures; `[journal]` of a parameter as written.
        #expect(text.contains("""
                    let name = store.name
                    defer {
                        Task(executorPreference: PromiseContext.utility.taskExecutor) { @concurrent in
                            journal.log(name)
                        }
                    }
            """), "\(text)")
        #expect(text.contains("""
                        Task(executorPreference: PromiseContext.utility.taskExecutor) { @concurrent [journal] in
                            journal.log("passed")
                        }
            """), "\(text)")
        #expect(text.contains("""
            public nonisolated(nonsending) func noted(_ n: Int, journal: Journal) async throws -> Int {
                defer {
                    Task(executorPreference: PromiseContext.utility.taskExecutor) { @concurrent in
                        journal.log("noted")
                    }
                }
                let value = try await minutes(n)
            """), "\(text)")
        // After a handler, on a promise that cannot fail (an awaited `always` there is a limit of the tool).
        #expect(text.contains("""
            public nonisolated(nonsending) func recovered(_ n: Int, journal: Journal) async throws(CancellationError) -> Int {
                defer {
                    Task(executorPreference: PromiseContext.utility.taskExecutor) { @concurrent in
                        journal.log("recovered")
                    }
                }
                do {
            """), "\(text)")
        // Where the tap ran inline or on the caller's main actor, the twin runs it inline, as before.
        #expect(text.contains("""
                defer {
                    journal.log("inline")
                }
                return try await Task.yieldingAfter { try await minutes(n) }
            """), "\(text)")
        #expect(text.contains("""
                    defer {
                        self.shown.append("shown")
                    }
                    return try await Task.yieldingAfter { try await minutes(n) }
            """), "\(text)")
    }
}

/// The converted final `tap`s of ConvertedBehaviour.swift at run time: `Dispatcher.eta(_:observed:)`
/// (a reading `tap` that captures `[journal]`) and `noted(_:events:observed:)` (a `tap { _ in … }`).
@Suite("convert-body: a final tap on a named context, at run time", .timeLimit(.minutes(2)))
struct ConvertedFinalTapTests {
    /// The promise `start` returns while `behaviourQueue` is held (the tap's queue), and whether it
    /// resolved before the queue was let go.
    static func withTheQueueHeld(_ start: () -> Promise<Int, BehaviourError>) async -> (resolved: Bool, promise: Promise<Int, BehaviourError>) {
        let release = DispatchSemaphore(value: 0)
        behaviourQueue.async { release.wait() }
        let promise = start()
        let resolved = await ConvertedResultObserverTests.until { promise.result != nil }
        release.signal()
        return (resolved, promise)
    }

    @Test("`[journal]`: the journal of the call gets the entry, on the tap's queue, not one set afterwards")
    func captureReadDuringTheCall() async {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let first = Events()
        let second = Events()
        let dispatcher = Dispatcher(journal: first)
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = dispatcher.eta(0, observed: observed)
        dispatcher.journal = second
        promise.requestCancel()
        #expect(await promise.resolvedResult == .cancelled)
        #expect(await ConvertedResultObserverTests.until { first.all == ["eta -"] }, "\(first.all)")
        #expect(second.all.isEmpty)
        #expect(observed.places == ["behaviourQueue"])
    }

    @Test("`[journal]`: the wrapper resolves while the tap's queue is busy; the tap then logs the value")
    func captureDoesNotHoldTheWrapper() async throws {
        let journal = Events()
        let (resolved, promise) = await Self.withTheQueueHeld { Dispatcher(journal: journal).eta(3, observed: Observed()) }
        #expect(resolved, "the wrapper waited for its tap's queue")
        #expect(try await promise.value == 4)
        #expect(await ConvertedResultObserverTests.until { journal.all == ["eta 4"] }, "\(journal.all)")
    }

    @Test("`tap { _ in }`: the wrapper resolves while the tap's queue is busy, as 1.x's tap returned its resolved receiver")
    func nonReadingTapDoesNotHoldTheWrapper() async throws {
        let events = Events()
        let (resolved, promise) = await Self.withTheQueueHeld { noted(3, events: events, observed: Observed()) }
        #expect(resolved, "the wrapper waited for its tap's queue")
        #expect(try await promise.value == 4)
        #expect(await ConvertedResultObserverTests.until { events.all == ["noted"] }, "\(events.all)")
    }

    @Test("`tap { _ in }`: it runs on its queue on every result: an error, and a cancellation of the wrapper's Task")
    func nonReadingTapRunsOnEveryResult() async {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let events = Events()
        let rejected: Promise<Int, BehaviourError> = noted(-1, events: events, observed: Observed())
        #expect(await rejected.resolvedResult == .error(.failed))
        #expect(await ConvertedResultObserverTests.until { events.all == ["noted"] }, "\(events.all)")
        let observed = Observed()
        let pending: Promise<Int, BehaviourError> = noted(0, events: events, observed: observed)
        #expect(observed.started)
        pending.requestCancel()
        #expect(await pending.resolvedResult == .cancelled)
        #expect(observed.cancelled, "the cancel request reached the source")
        #expect(await ConvertedResultObserverTests.until { events.all == ["noted", "noted"] }, "\(events.all)")
        #expect(observed.places == ["behaviourQueue"], "the tap ran on its queue though the twin's Task was cancelled")
    }
}
