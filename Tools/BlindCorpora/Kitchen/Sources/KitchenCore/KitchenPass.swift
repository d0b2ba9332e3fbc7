import Foundation
import Tomorrowland

/// Runs an order through the kitchen: stock, stations, ticket.
///
/// Not thread-safe: the pass is driven from the main queue, and `inFlight`/`log` are only
/// touched there (by the caller, and by `.main` callbacks).
public final class KitchenPass {
    public let inventory: InventoryStore
    public let printer: TicketPrinter
    private var stations: [Station: StationWorker]
    public private(set) var inFlight = 0
    public private(set) var log: [String] = []
    /// Orders being fired, so that a void can stop them.
    private var firing: [String: PromiseCancellable] = [:]

    public init(inventory: InventoryStore, printer: TicketPrinter, stations: [StationWorker]) {
        self.inventory = inventory
        self.printer = printer
        self.stations = Dictionary(uniqueKeysWithValues: stations.map { ($0.station, $0) })
    }

    public func worker(for station: Station) -> StationWorker? {
        return stations[station]
    }

    /// Reserves the stock, cooks every line on its station and prints the ticket. A failure
    /// at a station cancels the other lines and gives the stock back.
    public func fire(_ order: Order) -> StdPromise<Ticket> {
        inFlight += 1
        log.append("fire \(order.id)")
        var reservation: Reservation?
        let ticket = inventory.reserve(for: order)
            .mapError(on: .immediate) { error -> KitchenError in
                switch error {
                case .shortage(let sku, _): return .outOfStock(sku)
                case .emptyOrder: return .unknownItem(order.id)
                }
            }
            .flatMap(on: .pass) { [weak self] held -> Promise<[CookedItem], KitchenError> in
                reservation = held
                guard let self = self else { return Promise(with: .cancelled) }
                return self.cookAll(order.items)
            }
            .upcast
            .flatMap(on: .pass) { cooked in
                self.printer.printTicket(for: order, cooked: cooked)
            }
            .tap(on: .pass) { result in
                if result.value == nil, let held = reservation {
                    self.inventory.release(held)
                }
            }
            .always(on: .main) { [weak self] result in
                guard let self = self else { return }
                self.inFlight -= 1
                self.firing[order.id] = nil
                switch result {
                case .value(let ticket): self.log.append("ticket \(ticket.number) \(order.id)")
                case .error(let error): self.log.append("failed \(order.id): \(error)")
                case .cancelled: self.log.append("voided \(order.id)")
                }
            }
        firing[order.id] = ticket.cancellable
        return ticket
    }

    /// Every line on its station, all at once; the first failure cancels the rest.
    func cookAll(_ items: [OrderItem]) -> Promise<[CookedItem], KitchenError> {
        let cooks = items.map { item -> Promise<CookedItem, KitchenError> in
            guard let worker = stations[item.station] else {
                return Promise(rejected: .stationDown(item.station))
            }
            return worker.cook(item)
        }
        return when(fulfilled: cooks, cancelOnFailure: true)
    }

    /// Voids an order that is being fired.
    public func void(_ orderID: String) {
        firing[orderID]?.requestCancel()
    }

    /// Fires a rush of orders; the result counts the tickets printed.
    public func fireAll(_ orders: [Order]) -> Promise<Int, NoError> {
        let tickets = orders.map { order in
            fire(order).map(on: .immediate) { _ in 1 }.recover(on: .immediate) { _ in 0 }
        }
        return when(fulfilled: tickets).map(on: .immediate) { $0.reduce(0, +) }
    }

    /// A ticket that must be out within `limit` seconds, or the expo calls it late.
    public func fire(_ order: Order, within limit: TimeInterval) -> StdPromise<Ticket> {
        return fire(order)
            .timeout(on: .pass, delay: limit)
            .mapError(on: .immediate) { error -> Swift.Error in
                if let timeout = error as? PromiseTimeoutError<Swift.Error>, case .timedOut = timeout {
                    return KitchenError.timedOut
                }
                return error
            }
            .onCancel(on: .main) { [weak self] in
                self?.log.append("late \(order.id) cancelled")
            }
    }
}
