import Foundation
import Tomorrowland

/// Errors of the fleet services.
public enum FleetError: Error, Equatable, Sendable {
    case unknownVehicle(Int)
    case noDriverAvailable
    case routeUnavailable(String)
    case telemetryOffline
    case timedOut
}

/// The fleet's serial queues, each tagged with a queue-specific label.
public enum FleetQueues {
    public static let key = DispatchSpecificKey<String>()

    public static func make(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: "fleet.\(label)")
        queue.setSpecific(key: key, value: label)
        return queue
    }

    public static let telemetry = make("telemetry")
    public static let dispatch = make("dispatch")

    /// The label of the fleet queue the caller runs on, if any.
    public static var current: String? {
        DispatchQueue.getSpecific(key: key)
    }
}

extension PromiseContext {
    /// Telemetry work runs here.
    public static let telemetry = PromiseContext.queue(FleetQueues.telemetry)
    /// Dispatch bookkeeping runs here.
    public static let dispatching = PromiseContext.queue(FleetQueues.dispatch)
    /// Screen updates run here.
    public static let screen = PromiseContext.main
}

/// A thread-safe journal of what happened, in order.
public final class Journal: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}

    public func log(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    public var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
