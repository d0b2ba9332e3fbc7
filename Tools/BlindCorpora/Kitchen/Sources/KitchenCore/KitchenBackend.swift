import Foundation
import Tomorrowland

/// The kitchen's connection to the restaurant's server (menu, stock, delivery platforms,
/// couriers). The app ships with the HTTP one; this in-memory one is what the kitchen runs
/// in training mode and in tests.
///
/// Thread safety: `@unchecked Sendable` is safe because every stored property below is read
/// and written only while `lock` is held, and requests are answered on the global queues.
public final class KitchenBackend: @unchecked Sendable {
    private let lock = NSLock()
    private var menu: [String: OrderItem]
    private var pendingOrders: [String: [Order]] = [:]
    private var couriers: [Courier]
    private var failures: [String: KitchenError] = [:]
    private var _cancelledRequests: [String] = []
    private var _requestCount = 0

    /// How long each request takes. Tests that cancel a request in flight make this long.
    public var latency: TimeInterval {
        get { lock.lock(); defer { lock.unlock() }; return _latency }
        set { lock.lock(); _latency = newValue; lock.unlock() }
    }
    private var _latency: TimeInterval

    public init(menu: [OrderItem], couriers: [Courier] = [], latency: TimeInterval = 0.01) {
        self.menu = Dictionary(uniqueKeysWithValues: menu.map { ($0.sku, $0) })
        self.couriers = couriers
        self._latency = latency
    }

    /// Requests whose cancel request reached the server call, by name.
    public var cancelledRequests: [String] {
        lock.lock(); defer { lock.unlock() }
        return _cancelledRequests
    }

    /// How many requests were started.
    public var requestCount: Int {
        lock.lock(); defer { lock.unlock() }
        return _requestCount
    }

    /// Makes the next request named `name` fail with `error`.
    public func failNext(_ name: String, with error: KitchenError) {
        lock.lock(); failures[name] = error; lock.unlock()
    }

    /// Queues orders that a delivery platform will hand out on its next poll.
    public func enqueue(_ orders: [Order], on platform: String) {
        lock.lock(); pendingOrders[platform, default: []] += orders; lock.unlock()
    }

    public func fetchMenu() -> StdPromise<[String: OrderItem]> {
        request("menu") { backend in backend.menu }
    }

    public func pollOrders(platform: String) -> StdPromise<[Order]> {
        request("orders.\(platform)") { backend in
            let orders = backend.pendingOrders[platform] ?? []
            backend.pendingOrders[platform] = []
            return orders
        }
    }

    public func confirm(orderID: String, platform: String) -> StdPromise<Void> {
        request("confirm.\(platform)") { _ in () }
    }

    public func findCourier(near orderID: String) -> StdPromise<Courier> {
        request("courier") { backend in
            guard !backend.couriers.isEmpty else { throw KitchenError.noCourier }
            return backend.couriers.removeFirst()
        }
    }

    /// One server round trip. The answer is computed under the lock when the latency is over;
    /// a cancel request before that drops the call.
    private func request<T>(_ name: String, _ answer: @escaping (KitchenBackend) throws -> T) -> StdPromise<T> {
        lock.lock()
        _requestCount += 1
        let failure = failures.removeValue(forKey: name)
        let delay = _latency
        lock.unlock()
        return Promise(on: .utility) { resolver in
            let work = DispatchWorkItem { [weak self] in
                guard let self = self else { return resolver.cancel() }
                if let failure = failure {
                    resolver.reject(with: failure)
                    return
                }
                self.lock.lock()
                defer { self.lock.unlock() }
                do {
                    resolver.fulfill(with: try answer(self))
                } catch {
                    resolver.reject(with: error)
                }
            }
            resolver.onRequestCancel(on: .immediate) { resolver in
                work.cancel()
                self.lock.lock()
                self._cancelledRequests.append(name)
                self.lock.unlock()
                resolver.cancel()
            }
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay, execute: work)
        }
    }
}
