// Inventory: code whose meaning only the compiler can tell the tool. Overloads of one name
// called from async code, a protocol whose error is an `Error & Sendable` associated type with a
// generic conformer, an `inout` function, calls on a function's result, and a method reached
// through a class hierarchy.

import Foundation
import Tomorrowland

/// Errors of the inventory: `Error` through a refined protocol, and through a typealias.
public protocol InventoryFailure: Error {}

/// Why a stock lookup failed.
public enum StockError: InventoryFailure, Equatable {
    case unknownItem(String)
}

/// The name the stock API uses for its error.
public typealias StockFailure = StockError

/// The stock of an item, by name.
public func stockLevel(_ item: String) -> Promise<Int, StockFailure> {
    item.isEmpty ? Promise(rejected: .unknownItem(item)) : Promise(fulfilled: item.count * 10)
}

/// The stock of an item, by catalog number (the same name, another parameter type).
public func stockLevel(_ number: Int) -> StdPromise<Int> {
    StdPromise(fulfilled: number * 100)
}

/// A price list whose error type each conformer chooses.
public protocol Catalog: Sendable {
    /// What a lookup fails with.
    associatedtype Failure: Error & Sendable

    /// The price of `item`, in cents.
    func price(of item: String) -> Promise<Int, Failure>
}

/// A catalog in memory, generic over its error.
public struct MemoryCatalog<Failure: Error & Sendable>: Catalog {
    let prices: [String: Int]
    let missing: Failure

    public init(prices: [String: Int], missing: Failure) {
        self.prices = prices
        self.missing = missing
    }

    public func price(of item: String) -> Promise<Int, Failure> {
        prices[item].map { Promise(fulfilled: $0) } ?? Promise(rejected: missing)
    }
}

/// The shop's catalog.
public func makeCatalog() -> MemoryCatalog<StockError> {
    MemoryCatalog(prices: ["apples": 120, "pears": 90], missing: .unknownItem("?"))
}

/// Keeps the first `n` entries; resolves with how many it removed.
public func prune(_ entries: inout [String], keeping n: Int) -> StdPromise<Int> {
    let removed = max(0, entries.count - n)
    entries = Array(entries.prefix(n))
    return StdPromise(fulfilled: removed)
}

/// A warehouse; subclasses inherit `load` and may override `restock`.
open class Warehouse {
    public init() {}

    /// How many of `item` are on the shelves.
    open func load(_ item: String) -> Promise<Int, NoError> {
        Promise(fulfilled: item.count)
    }

    /// Orders more of `item`; resolves with the new count.
    open func restock(_ item: String) -> StdPromise<Int> {
        StdPromise(fulfilled: 10)
    }
}

/// A cold store: restocks in larger batches.
public final class ColdWarehouse: Warehouse {
    public override func restock(_ item: String) -> StdPromise<Int> {
        StdPromise(fulfilled: 50)
    }
}

/// Already async, still reading promises: every call below keeps the promise it returns.
public func inventorySummary() async throws -> String {
    var entries = ["apples", "pears", "plums"]
    let byName = stockLevel("apples")
    let byNumber = stockLevel(7)
    let price = makeCatalog().price(of: "pears")
    let removed = prune(&entries, keeping: 2)
    let warehouse: Warehouse = ColdWarehouse()
    let loaded = ColdWarehouse().load("plums")
    let restocked = warehouse.restock("plums")
    let counts = try await [byName.value, byNumber.value, price.value, removed.value, loaded.value, restocked.value]
    return counts.map(String.init).joined(separator: ",") + " " + entries.joined(separator: ",")
}
