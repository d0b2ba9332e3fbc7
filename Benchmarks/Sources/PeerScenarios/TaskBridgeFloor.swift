// The floor of (f): the least a promise backed by a Task must do, written by hand. `Task+cell`: a one-shot
// cell that the Task fills and an awaiter reads; the awaiter takes the filled value without
// suspending, or suspends on an unsafe continuation inside a cancellation handler that cancels
// the Task (what awaiting a promise must do: a cancelled awaiter asks the work to stop).
// `Task+handler`: the awaiter awaits the Task's own value inside such a handler (no cell, no
// continuation: the runtime's future wait), the floor for an awaiter that can reach the Task.

import ScenarioKit
import Synchronization

/// A value delivered once by a Task, awaited by one Task. Guarded by a `Mutex` (one atomic
/// RMW to lock, one to unlock when uncontended).
final class OneShotCell: Sendable {
    private enum State { case empty, waiting(UnsafeContinuation<Int, Never>), filled(Int) }
    private let state = Mutex(State.empty)

    /// Called once by the Task.
    func fill(_ value: Int) {
        let waiter: UnsafeContinuation<Int, Never>? = state.withLock { state in
            if case .waiting(let continuation) = state { state = .filled(value); return continuation }
            state = .filled(value)
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// The value, at once if it is there; otherwise suspends until `fill`. Cancelling the
    /// awaiting Task cancels `task`.
    func value(cancelling task: Task<Void, Never>) async -> Int {
        if case .filled(let value) = state.withLock({ $0 }) { return value }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let filled: Int? = state.withLock { state in
                    if case .filled(let value) = state { return value }
                    state = .waiting(continuation)
                    return nil
                }
                if let filled { continuation.resume(returning: filled) }
            }
        } onCancel: {
            task.cancel()
        }
    }
}

let taskBridgeFloorScenarios: [Scenario] = [
    Scenario("f", "Task+cell", "floor: Task { cell.fill(await trivial()) } + await cell.value (Mutex cell, cancellable continuation)", async: { n in
        for i in 0..<n {
            let cell = OneShotCell()
            let task = Task { cell.fill(await trivialAsync(i)) }
            tally &+= await cell.value(cancelling: task)
        }
        return checked(n)
    }),
    Scenario("f", "Task+handler", "floor if the awaiter awaits the Task itself: withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }", async: { n in
        for i in 0..<n {
            let task = Task { await trivialAsync(i) }
            tally &+= await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        }
        return checked(n)
    }),
]
