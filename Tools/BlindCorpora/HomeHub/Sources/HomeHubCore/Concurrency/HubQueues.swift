import Foundation
import Tomorrowland

/// Names of the hub's serial queues. Each queue carries its tag as a queue-specific value, so
/// debug assertions (and tests) can tell which queue they are on.
public enum HubQueueTag: String, Sendable {
    case main
    case state
    case radio
    case firmware
    case eventLog
    case sync
}

/// The key under which each hub queue stores its `HubQueueTag`.
public let hubQueueKey = DispatchSpecificKey<HubQueueTag>()

/// The hub's serial queues.
public enum HubQueues {
    /// Owns the device table.
    public static let state = makeQueue("com.homehub.state", tag: .state)
    /// Talks to the radios (Zigbee, BLE, LAN). One exchange at a time.
    public static let radio = makeQueue("com.homehub.radio", tag: .radio, qos: .userInitiated)
    /// Streams firmware images.
    public static let firmware = makeQueue("com.homehub.firmware", tag: .firmware, qos: .utility)
    /// Writes the event log.
    public static let eventLog = makeQueue("com.homehub.eventlog", tag: .eventLog, qos: .background)
    /// Serialises cloud sync.
    public static let sync = makeQueue("com.homehub.sync", tag: .sync, qos: .utility)

    /// The tag of the queue the caller runs on, if it is one of the hub's (or the tagged main queue).
    public static var current: HubQueueTag? {
        DispatchQueue.getSpecific(key: hubQueueKey)
    }

    /// Tags the main queue too, so `current` answers `.main` there. Call once at launch.
    public static func tagMainQueue() {
        DispatchQueue.main.setSpecific(key: hubQueueKey, value: .main)
    }

    private static func makeQueue(_ label: String, tag: HubQueueTag, qos: DispatchQoS = .default) -> DispatchQueue {
        let queue = DispatchQueue(label: label, qos: qos)
        queue.setSpecific(key: hubQueueKey, value: tag)
        return queue
    }
}

extension PromiseContext {
    /// Callbacks that read or write the device table.
    public static let hubState = PromiseContext.queue(HubQueues.state)
    /// Callbacks that talk to the radios.
    public static let radio = PromiseContext.queue(HubQueues.radio)
    /// Firmware streaming.
    public static let firmware = PromiseContext.queue(HubQueues.firmware)
    /// Cloud sync bookkeeping.
    public static let sync = PromiseContext.queue(HubQueues.sync)
    /// Where the UI layer wants its callbacks: the main queue.
    public static let ui = PromiseContext.main
}

/// A value behind a lock, for state shared between promise callbacks on different queues.
public final class HubLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @discardableResult
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    public var snapshot: Value {
        withLock { $0 }
    }
}

#if DEBUG
/// Traps when not running on `tag`'s queue. Compiled out of release builds.
func assertOnQueue(_ tag: HubQueueTag, file: StaticString = #file, line: UInt = #line) {
    let current = HubQueues.current
    assert(current == tag, "expected to run on \(tag), running on \(String(describing: current))", file: file, line: line)
}
#else
@inline(__always)
func assertOnQueue(_ tag: HubQueueTag, file: StaticString = #file, line: UInt = #line) {}
#endif
