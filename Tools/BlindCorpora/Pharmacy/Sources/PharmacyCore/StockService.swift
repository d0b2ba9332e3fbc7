import Foundation
import Tomorrowland

/// The pharmacy's shelves. Its table of levels is only touched on its private serial queue.
public final class StockService {
    private let backend: PharmacyBackend
    private let journal: Journal
    private let stockQueue = QueueLabel.makeQueue("stock")
    private var levels: [String: Int] = [:]
    private var reservations = 0

    public init(backend: PharmacyBackend, journal: Journal) {
        self.backend = backend
        self.journal = journal
    }

    public var reservationCount: Int {
        return stockQueue.sync { reservations }
    }

    /// The level of a drug: already resolved when the shelf table knows it, else asked from the backend.
    public func level(of drug: String) -> StdPromise<Int> {
        let known = stockQueue.sync { levels[drug] }
        if let known = known {
            return StdPromise(fulfilled: known)
        }
        return backend.stockLevel(drug: drug).upcast.map(on: .queue(stockQueue)) { [weak self] level in
            self?.levels[drug] = level
            return level
        }
    }

    /// Calls `body` with the level and whether it ran at once: synchronously in the caller when the
    /// level is known, otherwise on the stock queue when it arrives.
    public func withLevel(of drug: String, _ body: @escaping (Int, Bool) -> Void) -> StdPromise<Int> {
        return level(of: drug).then(on: .nowOr(.queue(stockQueue))) { level in
            body(level, PromiseContext.isExecutingNow)
        }
    }

    /// Takes `quantity` of a drug off the shelf and gives the level left.
    public func reserve(_ quantity: Int, of drug: String) -> Promise<Int, PharmacyError> {
        journal.append("reserve \(quantity) \(drug)")
        return backend.stockLevel(drug: drug)
            .map(on: .queue(stockQueue)) { [weak self] remote -> Int in
                return self?.levels[drug] ?? remote
            }
            .flatMap(on: .queue(stockQueue)) { [weak self] available -> Promise<Int, PharmacyError> in
                guard let self = self else { return Promise(rejected: .backendUnavailable) }
                guard available >= quantity else {
                    return Promise(rejected: .outOfStock(drug: drug, requested: quantity, available: available))
                }
                self.levels[drug] = available - quantity
                self.reservations += 1
                return Promise(fulfilled: available - quantity)
            }
    }

    /// Orders `amount` of a drug from the wholesaler; it arrives after `delay` seconds.
    /// Cancellable until it arrives; rejects with `.timedOut` when it takes longer than `limit`.
    public func restock(_ drug: String, amount: Int, after delay: TimeInterval, limit: TimeInterval = 10) -> Promise<Int, PharmacyError> {
        let (promise, resolver) = Promise<Int, PharmacyError>.makeWithResolver()
        let delivery = DispatchWorkItem { [weak self] in
            guard let self = self else {
                resolver.reject(with: .backendUnavailable)
                return
            }
            let level = (self.levels[drug] ?? 0) + amount
            self.levels[drug] = level
            resolver.fulfill(with: level)
        }
        resolver.onRequestCancel(on: .queue(stockQueue)) { resolver in
            delivery.cancel()
            resolver.cancel()
        }
        stockQueue.asyncAfter(deadline: .now() + delay, execute: delivery)
        let journal = self.journal
        return promise
            .onCancel(on: .queue(stockQueue)) {
                journal.append("restock \(drug) cancelled")
            }
            .timeout(on: .queue(stockQueue), delay: limit)
            .mapError(on: .immediate) { error -> PharmacyError in
                switch error {
                case .timedOut: return .timedOut
                case .rejected(let error): return error
                }
            }
    }
}
