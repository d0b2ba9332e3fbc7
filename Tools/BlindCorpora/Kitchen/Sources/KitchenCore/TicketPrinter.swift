import Foundation
import Tomorrowland

/// The thermal printer at the pass.
///
/// `@unchecked Sendable` is safe: `nextNumber`, `jammed` and `printed` are only read and
/// written on `KitchenQueues.printer`, a serial queue (every print job runs there, and the
/// public accessors go through `sync`).
public final class TicketPrinter: @unchecked Sendable {
    private let queue = KitchenQueues.printer
    private var nextNumber = 1
    private var jammed = false
    private var printed: [Ticket] = []
    /// How long the print head takes per line.
    public var lineTime: TimeInterval = 0

    /// The printer's self-test, run once before the first ticket of the shift.
    private lazy var warmUp = DelayedPromise<Void, Swift.Error>(on: .printing) { resolver in
        self.warmUpCount += 1
        resolver.fulfill(with: ())
    }
    public private(set) var warmUpCount = 0

    public init() {}

    /// Makes the next print job fail, as when the paper runs out.
    public func jam() {
        queue.sync { jammed = true }
    }

    public var printedTickets: [Ticket] {
        return queue.sync { printed }
    }

    /// Prints the ticket for a cooked order; cancelling stops the print job.
    public func printTicket(for order: Order, cooked: [CookedItem]) -> StdPromise<Ticket> {
        let warmUp = queue.sync { self.warmUp.promise }
        return warmUp.flatMap(on: .printing) { _ in
            Promise(on: .printing) { resolver in
                if self.jammed {
                    self.jammed = false
                    resolver.reject(with: KitchenError.printerJammed)
                    return
                }
                var lines = ["#\(self.nextNumber) \(order.id)"]
                lines += cooked.map { "\($0.item.quantity)x \($0.item.name) [\($0.station.rawValue)]" }
                if let note = order.note {
                    lines.append("NOTE: \(note)")
                }
                let ticket = Ticket(orderID: order.id, lines: lines, number: self.nextNumber)
                let job = DispatchWorkItem {
                    self.nextNumber += 1
                    self.printed.append(ticket)
                    resolver.fulfill(with: ticket)
                }
                resolver.onRequestCancel(on: .printing) { resolver in
                    job.cancel()
                    resolver.cancel()
                }
                self.queue.asyncAfter(deadline: .now() + self.lineTime * Double(lines.count), execute: job)
            }
        }
    }
}
