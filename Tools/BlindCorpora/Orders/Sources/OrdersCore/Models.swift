import Foundation

public enum NetworkError: Error, Equatable {
    case offline, notFound(String), server(Int), decoding(String)
}

public enum PaymentError: Error, Equatable {
    case declined(String), invalidAmount, serviceUnavailable
}

public enum CheckoutError: Error, Equatable {
    case emptyCart, alreadyInProgress, menuUnavailable
    case network(NetworkError), payment(PaymentError)
    case outOfStock([String]), invalidCoupon(String)
}

/// Thrown by chains whose owner went away before the response arrived.
public struct OwnerGoneError: Error, Equatable {
    public let owner: String
}

public struct MenuItem: Equatable {
    public var id, name: String
    public var priceCents: Int

    public init(id: String, name: String, priceCents: Int) {
        (self.id, self.name, self.priceCents) = (id, name, priceCents)
    }
}

public struct Menu {
    public var restaurantID: Int
    public var items: [MenuItem]
    public var source: String  // "primary" or "mirror"
    public var parsedOn: String  // the queue tag it was parsed on (`OrderQueues.whereAmI()`)
}

public struct CartLine: Equatable {
    public var itemID: String
    public var quantity: Int

    public init(itemID: String, quantity: Int) {
        (self.itemID, self.quantity) = (itemID, quantity)
    }
}

public struct Cart: Equatable {
    public var lines: [CartLine]

    public init(lines: [CartLine] = []) { self.lines = lines }

    public var isEmpty: Bool { return lines.isEmpty }

    /// "burger*2;fries*1"
    public func encoded() -> String {
        return lines.map { "\($0.itemID)*\($0.quantity)" }.joined(separator: ";")
    }
}

public struct Quote: Equatable {
    public var subtotalCents, discountCents, deliveryCents, totalCents: Int
    public var computedOn: String
}

public enum OrderStatus: String, Equatable {
    case placed, cooking, ready, delivered
}

public struct Order: Equatable {
    public var id: String
    public var cart: Cart
    public var startedAt: Date
    public var status: OrderStatus

    public init(id: String, cart: Cart, startedAt: Date, status: OrderStatus) {
        (self.id, self.cart, self.startedAt, self.status) = (id, cart, startedAt, status)
    }
}

public struct Authorization: Equatable {
    public var id, processor: String
    public var amountCents: Int
}

public struct Receipt: Equatable {
    public var orderID, authorizationID: String
    public var amountCents: Int
}

/// A thread-safe, append-only list of strings that the models use to record what they did.
public final class EventLog {
    private let store = Guarded<[String]>([])

    public init() {}

    public func append(_ entry: String) { store.modify { $0.append(entry) } }
    public var entries: [String] { return store.value }
}

/// A value behind a lock; the models use it for state touched from several queues.
public final class Guarded<Value> {
    private let lock = NSLock()
    private var storage: Value

    public init(_ value: Value) { storage = value }

    public var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return storage }
        set { lock.lock(); storage = newValue; lock.unlock() }
    }

    @discardableResult
    public func modify<R>(_ body: (inout Value) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&storage)
    }
}
