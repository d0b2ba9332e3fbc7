import Foundation
import Tomorrowland

/// What can go wrong at the pharmacy. Every service rejects with this type.
public enum PharmacyError: Error, Equatable, Sendable {
    case notFound(String)
    case outOfStock(drug: String, requested: Int, available: Int)
    case noRefillsLeft(String)
    case backendUnavailable
    case timedOut
}

public struct Prescription: Equatable, Sendable {
    public var id: String
    public var patient: String
    public var drug: String
    public var quantity: Int
    public var refillsLeft: Int

    public init(id: String, patient: String, drug: String, quantity: Int, refillsLeft: Int) {
        self.id = id
        self.patient = patient
        self.drug = drug
        self.quantity = quantity
        self.refillsLeft = refillsLeft
    }
}

/// An append-only log of what the services did, in order. Thread-safe.
public final class Journal {
    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}

    public func append(_ line: String) {
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

/// Names the pharmacy's queues, so code can tell which one it is running on.
public enum QueueLabel {
    public static let key = DispatchSpecificKey<String>()

    /// The label of the current queue, or nil when it has none.
    public static var current: String? {
        return DispatchQueue.getSpecific(key: key)
    }

    static func makeQueue(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: "pharmacy.\(label)")
        queue.setSpecific(key: key, value: label)
        return queue
    }
}

/// The queue the label printer is driven from.
let labelPrinterQueue = QueueLabel.makeQueue("labels")

extension PromiseContext {
    /// Callbacks that talk to the label printer.
    static let labels = PromiseContext.queue(labelPrinterQueue)
}
