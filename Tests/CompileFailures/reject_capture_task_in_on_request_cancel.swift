// The README's URLSession wrapper, with a non-Sendable task object captured by the cancel
// handler (`.immediate` runs on whatever thread requests cancellation).
import Tomorrowland

final class DataTask {
    var isCancelled = false
    func cancel() { isCancelled = true }
}

func fetch(_ task: DataTask) -> Promise<Int, String> {
    return Promise(on: .immediate) { resolver in
        resolver.onRequestCancel(on: .immediate) { _ in
            task.cancel() // expected-error: capture of 'task' with non-Sendable type 'DataTask'
        }
    }
}
