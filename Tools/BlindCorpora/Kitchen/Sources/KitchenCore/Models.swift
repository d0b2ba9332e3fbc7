import Foundation

/// Where a dish is cooked.
public enum Station: String, CaseIterable, Codable {
    case grill
    case fryer
    case cold
}

/// Where an order came from.
public enum OrderChannel: Equatable, Codable {
    case table(Int)
    case delivery(platform: String)
}

/// One line of an order.
public struct OrderItem: Equatable, Codable {
    public var sku: String
    public var name: String
    public var station: Station
    public var quantity: Int

    public init(sku: String, name: String, station: Station, quantity: Int = 1) {
        self.sku = sku
        self.name = name
        self.station = station
        self.quantity = quantity
    }
}

/// An order as the kitchen sees it.
public struct Order: Equatable, Codable {
    public var id: String
    public var channel: OrderChannel
    public var items: [OrderItem]
    public var note: String?

    public init(id: String, channel: OrderChannel, items: [OrderItem], note: String? = nil) {
        self.id = id
        self.channel = channel
        self.items = items
        self.note = note
    }

    public var isDelivery: Bool {
        if case .delivery = channel { return true }
        return false
    }
}

/// A plate that left a station.
public struct CookedItem: Equatable {
    public var item: OrderItem
    public var station: Station
    public var seconds: Int

    public init(item: OrderItem, station: Station, seconds: Int) {
        self.item = item
        self.station = station
        self.seconds = seconds
    }
}

/// The paper ticket the pass prints for an order.
public struct Ticket: Equatable {
    public var orderID: String
    public var lines: [String]
    public var number: Int

    public init(orderID: String, lines: [String], number: Int) {
        self.orderID = orderID
        self.lines = lines
        self.number = number
    }
}

/// A courier picking up a delivery order.
public struct Courier: Equatable {
    public var id: String
    public var name: String
    public var etaMinutes: Int

    public init(id: String, name: String, etaMinutes: Int) {
        self.id = id
        self.name = name
        self.etaMinutes = etaMinutes
    }
}

/// A hold on stock for one order.
public struct Reservation: Equatable {
    public var orderID: String
    public var skus: [String: Int]
}

/// What can go wrong in the kitchen.
public enum KitchenError: Error, Equatable {
    case unknownItem(String)
    case stationDown(Station)
    case outOfStock(String)
    case printerJammed
    case platformRejected(String)
    case noCourier
    case timedOut
}

/// Errors of the inventory store, typed so that callers can tell a shortage from a bad request.
public enum InventoryError: Error, Equatable {
    case shortage(sku: String, missing: Int)
    case emptyOrder
}
