import Foundation
import Tomorrowland

/// Runs automations: now, after a delay, or queued one at a time behind the others.
///
/// The scheduler owns the token of every pending run: `cancelAll()` (or releasing the scheduler)
/// cancels them.
public final class AutomationScheduler {
    private let engine: SceneEngine
    private let queue: OperationQueue
    private let token = PromiseInvalidationToken()
    private let log: EventLog?
    public private(set) var automations: [String: Automation]
    public private(set) var runCount = 0

    /// The times of the next sunsets, computed once, the first time something asks.
    public let sunsets: StdDelayedPromise<[Date]>

    public init(engine: SceneEngine, automations: [Automation] = [], log: EventLog? = nil,
                latitude: Double = 52.5) {
        self.engine = engine
        self.log = log
        self.automations = Dictionary(automations.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        queue = OperationQueue()
        queue.name = "com.homehub.automations"
        queue.maxConcurrentOperationCount = 1
        sunsets = StdDelayedPromise(on: .utility) { resolver in
            guard (-66.0...66.0).contains(latitude) else {
                resolver.reject(with: AutomationError.conditionNotMet)
                return
            }
            let start = Calendar(identifier: .gregorian).startOfDay(for: Date())
            let hours = 18 + (latitude - 45) / 30
            resolver.fulfill(with: (1...3).map { day in
                start.addingTimeInterval(Double(day) * 86_400 + hours * 3_600)
            })
        }
    }

    public func add(_ automation: Automation) {
        automations[automation.id] = automation
    }

    /// Runs `automation` now.
    public func run(_ automation: Automation) -> Promise<AutomationRun, AutomationError> {
        runCount += 1
        return Self.perform(automation, engine: engine, log: log)
    }

    /// Runs the automation with `id` now.
    public func run(id: String) -> Promise<AutomationRun, AutomationError> {
        guard let automation = automations[id] else {
            return Promise(rejected: .sceneMissing(id))
        }
        return run(automation)
    }

    /// Queues `automation` behind the runs already queued; they run one at a time.
    public func enqueue(_ automation: Automation) -> StdPromise<AutomationRun> {
        let engine = self.engine
        let log = self.log
        let operation = StdPromiseOperation<AutomationRun>(on: .utility) { resolver in
            resolver.resolve(with: AutomationScheduler.perform(automation, engine: engine, log: log).upcast)
        }
        queue.addOperation(operation)
        return operation.promise
    }

    /// Runs `automation` after `delay` seconds, unless `cancelAll()` comes first.
    public func schedule(_ automation: Automation, after delay: TimeInterval) -> StdPromise<AutomationRun> {
        let engine = self.engine
        let log = self.log
        return StdPromise(fulfilled: automation)
            .delay(on: .utility, delay)
            .flatMap(on: .utility, token: token) { automation in
                AutomationScheduler.perform(automation, engine: engine, log: log).upcast
            }
            .requestCancelOnInvalidate(token)
    }

    /// Runs every automation whose trigger is at `hour:minute`; fulfils with the runs that worked.
    public func runTimeTriggered(hour: Int, minute: Int) -> Guaranteed<[AutomationRun]> {
        let due = automations.values
            .filter { $0.trigger == .time(hour: hour, minute: minute) }
            .sorted { $0.id < $1.id }
        let runs = due.map { automation in
            run(automation)
                .map(on: .immediate) { Optional($0) }
                .recover(on: .immediate) { _ in nil }
        }
        return when(fulfilled: runs).map(on: .immediate) { $0.compactMap { $0 } }
    }

    /// Cancels every scheduled run that has not started.
    public func cancelAll() {
        token.invalidate()
        queue.cancelAllOperations()
    }

    private static func perform(_ automation: Automation, engine: SceneEngine, log: EventLog?)
        -> Promise<AutomationRun, AutomationError> {
        guard automation.isEnabled else {
            return Promise(rejected: .disabled(automation.id))
        }
        guard let scene = engine.scene(id: automation.sceneID) else {
            return Promise(rejected: .sceneMissing(automation.sceneID))
        }
        let started = Date()
        return engine.activate(scene)
            .mapError(on: .immediate) { AutomationError.failed($0) }
            .map(on: .utility) { report in
                AutomationRun(automationID: automation.id, startedAt: started, report: report)
            }
            .always(on: .utility) { result in
                let outcome = result.value != nil ? "ok" : "\(String(describing: result.error))"
                log?.append(HubEvent(kind: .automationRan, message: "\(automation.name): \(outcome)"))
            }
    }
}
