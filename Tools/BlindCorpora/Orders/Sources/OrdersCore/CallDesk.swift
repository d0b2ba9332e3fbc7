import Foundation
import Tomorrowland

/// The bookkeeping both fakes share: every call is logged the moment it is made, answered by a
/// dispatch timer after `latency` unless its key is held, and a cancel request on a call still
/// in flight is logged and cancels the call's promise.
final class CallDesk<Value, Failure> {
    private struct Call {
        var description, key: String
        var timer: DispatchSourceTimer?
        var answer: () -> Void
    }

    private let lock = NSLock()
    private let queue: DispatchQueue
    private var inFlight: [Int: Call] = [:]
    private var held: Set<String> = []
    private var nextID = 0
    private var callLog: [String] = []
    private var cancelLog: [String] = []
    var latency: TimeInterval = 0.005

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    var calls: [String] { lock.lock(); defer { lock.unlock() }; return callLog }
    var cancelled: [String] { lock.lock(); defer { lock.unlock() }; return cancelLog }
    var inFlightCount: Int { lock.lock(); defer { lock.unlock() }; return inFlight.count }

    func start(_ description: String, key: String,
               answer: @escaping (Promise<Value, Failure>.Resolver) -> Void) -> Promise<Value, Failure> {
        return Promise(on: .immediate) { resolver in
            self.lock.lock()
            self.nextID += 1
            let id = self.nextID
            self.callLog.append(description)
            self.inFlight[id] = Call(description: description, key: key, timer: nil, answer: { answer(resolver) })
            if !self.held.contains(key) {
                let timer = DispatchSource.makeTimerSource(queue: self.queue)
                timer.setEventHandler { [weak self] in self?.fire(id) }
                timer.schedule(deadline: .now() + self.latency)
                self.inFlight[id]?.timer = timer
                timer.resume()
            }
            self.lock.unlock()
            resolver.onRequestCancel(on: .immediate) { [weak self] resolver in
                if self?.cancel(id) == true {
                    resolver.cancel()
                }
            }
        }
    }

    func hold(_ key: String) {
        lock.lock(); held.insert(key); lock.unlock()
    }

    /// Stops holding `key` and answers its calls in flight, oldest first.
    func release(_ key: String) {
        lock.lock()
        held.remove(key)
        let ids = inFlight.filter { $0.value.key == key && $0.value.timer == nil }.map { $0.key }.sorted()
        lock.unlock()
        ids.forEach(fire)
    }

    private func fire(_ id: Int) {
        lock.lock()
        let call = inFlight.removeValue(forKey: id)
        lock.unlock()
        call?.answer()
    }

    private func cancel(_ id: Int) -> Bool {
        lock.lock()
        let call = inFlight.removeValue(forKey: id)
        if let call = call {
            cancelLog.append(call.description)
        }
        lock.unlock()
        call?.timer?.cancel()
        return call != nil
    }
}
