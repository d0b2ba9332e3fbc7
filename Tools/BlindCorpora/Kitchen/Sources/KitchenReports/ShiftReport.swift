import Foundation
import KitchenCore
import Tomorrowland

/// What the closing manager reads at the end of a shift.
public struct ShiftSummary: Equatable {
    public var ticketsPrinted: Int
    public var ordersFailed: Int
    public var lowStock: [String]
    public var couriersBooked: Int
}

/// Assembles the end-of-shift report from the pass, the inventory and the courier desk.
public final class ShiftReporter {
    private let pass: KitchenPass
    private let dispatch: CourierDispatch
    /// SKUs the manager watches, with the level under which they count as low.
    public var watchList: [String: Int] = [:]
    /// Where the report is put together; the report is cheap, so by default it runs at once.
    public var context: PromiseContext = .immediate

    public init(pass: KitchenPass, dispatch: CourierDispatch) {
        self.pass = pass
        self.dispatch = dispatch
    }

    /// Fires the shift's last orders and reports once they are all done, failed or not.
    public func closeShift(lastOrders: [Order]) -> Promise<ShiftSummary, NoError> {
        let results = lastOrders.map { order in
            pass.fire(order).mapResult(on: .immediate) { result -> PromiseResult<Bool, NoError> in
                .value(result.value != nil)
            }
        }
        let inventory = pass.inventory
        let watchList = self.watchList
        return when(fulfilled: results)
            .map(on: context) { printed -> ShiftSummary in
                let low = watchList.filter { inventory.level(of: $0.key) < $0.value }.map { $0.key }.sorted()
                return ShiftSummary(ticketsPrinted: printed.filter { $0 }.count,
                                    ordersFailed: printed.filter { !$0 }.count,
                                    lowStock: low,
                                    couriersBooked: 0)
            }
    }

    /// The summary with the courier desk's count added, for delivery-heavy nights.
    public func closeShift(lastOrders: [Order], deliveries: [Order]) -> StdPromise<ShiftSummary> {
        let dispatch = self.dispatch
        let couriers = deliveries.map { order in
            StdPromise<Courier>(on: .utility) { resolver in
                Task {
                    let courier = await dispatch.requestCourier(for: order)
                    resolver.resolve(with: courier)
                }
            }
        }
        return closeShift(lastOrders: lastOrders)
            .upcast
            .flatMapResult(on: .immediate) { result -> StdPromise<ShiftSummary> in
                guard var summary = result.value else {
                    return Promise(with: .cancelled)
                }
                return when(fulfilled: couriers).map(on: .immediate) { booked in
                    summary.couriersBooked = booked.count
                    return summary
                }
            }
    }
}
