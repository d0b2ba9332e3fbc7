import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore

/// Thrown by `value(of:)` when the promise did not fulfil, so that a test stops there.
struct NoValue: Error {
    let description: String
}

extension XCTestCase {
    /// Waits for the promise and gives its result; nil (and a failure) if it did not resolve.
    func result<Value, Failure>(of promise: Promise<Value, Failure>, timeout: TimeInterval = 10,
                                file: StaticString = #file, line: UInt = #line) -> PromiseResult<Value, Failure>? {
        let resolved = expectation(description: "promise resolved")
        var result: PromiseResult<Value, Failure>?
        promise.always(on: .immediate) { outcome in
            result = outcome
            resolved.fulfill()
        }
        wait(for: [resolved], timeout: timeout)
        if result == nil {
            XCTFail("promise did not resolve within \(timeout) s", file: file, line: line)
        }
        return result
    }

    /// Waits for the promise and gives its value; records a failure and throws otherwise.
    func value<Value, Failure>(of promise: Promise<Value, Failure>, timeout: TimeInterval = 10,
                               file: StaticString = #file, line: UInt = #line) throws -> Value {
        let outcome = result(of: promise, timeout: timeout, file: file, line: line)
        guard case .value(let value)? = outcome else {
            XCTFail("expected a value, got \(String(describing: outcome))", file: file, line: line)
            throw NoValue(description: String(describing: outcome))
        }
        return value
    }

    /// Waits for the promise and gives its error; nil (and a failure) if it did not reject.
    func error<Value, Failure>(of promise: Promise<Value, Failure>, timeout: TimeInterval = 10,
                               file: StaticString = #file, line: UInt = #line) -> Failure? {
        let outcome = result(of: promise, timeout: timeout, file: file, line: line)
        guard case .error(let error)? = outcome else {
            XCTFail("expected an error, got \(String(describing: outcome))", file: file, line: line)
            return nil
        }
        return error
    }

    /// Runs `body` on the queue and waits for everything it enqueued there before it.
    func flush(_ queues: DispatchQueue...) {
        for queue in queues {
            queue.sync {}
        }
    }
}

/// The training-mode menu and kitchen most tests use.
enum Fixtures {
    static let burger = OrderItem(sku: "BRG", name: "Burger", station: .grill)
    static let fries = OrderItem(sku: "FRY", name: "Fries", station: .fryer)
    static let salad = OrderItem(sku: "SLD", name: "Caesar", station: .cold)
    static let menu = [burger, fries, salad]

    static let couriers = [
        Courier(id: "c1", name: "Ana", etaMinutes: 12),
        Courier(id: "c2", name: "Bo", etaMinutes: 20),
    ]

    static func order(_ id: String, _ items: [OrderItem], channel: OrderChannel = .table(4), note: String? = nil) -> Order {
        return Order(id: id, channel: channel, items: items, note: note)
    }

    static func stock() -> [String: Int] {
        return ["BRG": 10, "FRY": 10, "SLD": 2]
    }

    static func pass(inventory: InventoryStore = InventoryStore(stock: stock()),
                     printer: TicketPrinter = TicketPrinter()) -> KitchenPass {
        let grill = GrillStation(context: .queue(DispatchQueue(label: "test.grill")))
        let fryer = FryerStation(context: .queue(DispatchQueue(label: "test.fryer")))
        let cold = StationWorker(station: .cold, context: .utility)
        return KitchenPass(inventory: inventory, printer: printer, stations: [grill, fryer, cold])
    }
}
