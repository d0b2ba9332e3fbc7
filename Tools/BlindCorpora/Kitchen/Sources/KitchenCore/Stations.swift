import Foundation
import Tomorrowland

/// A station of the line. The base class cooks everything in one step; the grill and the
/// fryer override `cook(_:)` for their own steps.
///
/// Not thread-safe: `cookedCount` is bumped on the station's context, which is serial for
/// every station we configure.
public class StationWorker {
    public let station: Station
    /// Where this station's work runs.
    public let context: PromiseContext
    public private(set) var cookedCount = 0
    public var isDown = false

    public init(station: Station, context: PromiseContext) {
        self.station = station
        self.context = context
    }

    /// Seconds an item takes at this station.
    public func cookTime(for item: OrderItem) -> Int {
        return 60 * item.quantity
    }

    /// Cooks one line of an order.
    public func cook(_ item: OrderItem) -> Promise<CookedItem, KitchenError> {
        guard !isDown else {
            return Promise(rejected: .stationDown(station))
        }
        guard item.station == station else {
            return Promise(rejected: .unknownItem(item.sku))
        }
        let seconds = cookTime(for: item)
        return Promise(on: context) { resolver in
            self.cookedCount += 1
            resolver.fulfill(with: CookedItem(item: item, station: self.station, seconds: seconds))
        }
    }
}

/// The grill rests meat before it goes to the pass.
public final class GrillStation: StationWorker {
    /// Resting time, scaled down in training mode.
    public var restingTime: TimeInterval

    public init(context: PromiseContext, restingTime: TimeInterval = 0.01) {
        self.restingTime = restingTime
        super.init(station: .grill, context: context)
    }

    public override func cookTime(for item: OrderItem) -> Int {
        return 240 * item.quantity
    }

    public override func cook(_ item: OrderItem) -> Promise<CookedItem, KitchenError> {
        return super.cook(item)
            .delay(on: context, restingTime)
            .map(on: .immediate) { cooked in
                var rested = cooked
                rested.seconds += 120
                return rested
            }
    }
}

/// The fryer refuses work while its oil is being changed.
public final class FryerStation: StationWorker {
    public private(set) var oilChanges = 0
    private var changingOil: Promise<Void, NoError>?

    public init(context: PromiseContext) {
        super.init(station: .fryer, context: context)
    }

    /// Starts an oil change; items cooked meanwhile wait for it.
    public func changeOil(duration: TimeInterval) -> Promise<Void, NoError> {
        oilChanges += 1
        let change = Promise<Void, NoError>(on: context, fulfilled: (), after: duration)
        changingOil = change
        return change.always(on: context) { [weak self] _ in
            self?.changingOil = nil
        }
    }

    public override func cook(_ item: OrderItem) -> Promise<CookedItem, KitchenError> {
        guard let oil = changingOil else {
            return super.cook(item)
        }
        return oil
            .mapError(on: .immediate) { never -> KitchenError in switch never {} }
            .flatMap(on: context) { _ in super.cook(item) }
    }
}
