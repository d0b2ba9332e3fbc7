import Foundation

/// Every failure a clinic service reports.
enum ClinicError: Error, Equatable {
    case notFound(String)
    case slotTaken(Int)
    case offline
    case invalid(String)
    case timedOut
    case paymentDeclined(cents: Int)
    case waitingListEmpty
}

struct Patient: Equatable {
    var id: String
    var name: String
    var email: String?
}

struct Practitioner: Equatable {
    var id: String
    var name: String
    var specialty: String
}

struct Slot: Equatable {
    var id: Int
    var practitionerID: String
    var startMinute: Int
    var durationMinutes: Int
}

enum BookingStatus: Equatable {
    case confirmed
    case cancelled
}

struct Booking: Equatable {
    var id: Int
    var slot: Slot
    var patientID: String
    var status: BookingStatus
}

struct Reminder: Equatable {
    var bookingID: Int
    var message: String
}

struct LabResult: Equatable {
    var id: String
    var patientID: String
    var test: String
    var value: Double
    var isFinal: Bool
}

struct Invoice: Equatable {
    var id: String
    var bookingID: Int
    var amountCents: Int
    var isPaid: Bool
}

/// The queues the services run their callbacks on, each tagged with a queue-specific key so
/// that code (and tests) can tell which one they are on.
enum ClinicQueues {
    static let nameKey = DispatchSpecificKey<String>()

    static let records: DispatchQueue = tagged("clinic.records")
    static let billing: DispatchQueue = tagged("clinic.billing")
    static let labs: DispatchQueue = tagged("clinic.labs")
    static let reminders: DispatchQueue = tagged("clinic.reminders")

    static func tagged(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label)
        queue.setSpecific(key: nameKey, value: label)
        return queue
    }

    /// The label of the tagged queue the caller runs on, if any.
    static var current: String? {
        DispatchQueue.getSpecific(key: nameKey)
    }
}
