import Foundation
import Tomorrowland

/// The actor the dispensing robot's code runs on.
@globalActor
public actor DispensingActor {
    public static let shared = DispensingActor()
}

/// The dispensing robot: takes stock off the shelf, prints a label and shows it on the counter screen.
@DispensingActor
public final class DispensingStation {
    private let stock: StockService
    private let journal: Journal
    public private(set) var dispensed: [String] = []
    public private(set) var lastLabel: String?
    public private(set) var labelQueueName: String?

    public init(stock: StockService, journal: Journal) {
        self.stock = stock
        self.journal = journal
    }

    /// Dispenses a prescription; fulfils with the printed label.
    public func dispense(_ prescription: Prescription) -> Promise<String, PharmacyError> {
        dispensed.append(prescription.id)
        let journal = self.journal
        return stock.reserve(prescription.quantity, of: prescription.drug)
            .map(on: .labels) { left in
                self.labelQueueName = QueueLabel.current
                let label = "\(prescription.patient): \(prescription.quantity) x \(prescription.drug) (\(left) left)"
                self.lastLabel = label
                return label
            }
            .then(on: .main) { label in
                journal.append("screen: \(label) [\(self.dispensed.count) today]")
            }
    }
}
