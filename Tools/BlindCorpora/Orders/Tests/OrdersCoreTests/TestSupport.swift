import Foundation
import XCTest
import Tomorrowland
import OrdersCore

let menuBody = "burger=Burger:550;fries=Fries:250;shake=Shake:450"
let pricesBody = "burger=600;fries=250;shake=450"
let standardCart = Cart(lines: [CartLine(itemID: "burger", quantity: 2), CartLine(itemID: "fries", quantity: 1)])

/// A value behind a lock, for test callbacks.
final class Box<T> {
    private let lock = NSLock()
    private var storage: T
    init(_ value: T) { storage = value }
    var value: T {
        get { lock.lock(); defer { lock.unlock() }; return storage }
        set { lock.lock(); storage = newValue; lock.unlock() }
    }
}

/// A server stubbed with every route the tests use.
func makeServer() -> FakeServer {
    let server = FakeServer()
    server.stub("menu/1", body: menuBody)
    server.stub("menu/2", body: "pizza=Pizza:900")
    server.stub("mirror/menu/1", body: "burger=Burger:500")
    server.stub("prices", body: pricesBody)
    server.stub("cart", body: "burger*2;fries*1")
    server.stub("coupon/SAVE10", body: "percent=10")
    server.stub("coupon/HUGE", body: "percent=90")
    server.stub("orders", body: "order-17")
    server.stub("orders/order-17/status", body: "cooking")
    server.stub("history/u1", body: "burger*1;fries*2")
    server.stub("stock", body: "burger,fries,shake")
    server.stub("eta/order-17", body: "25")
    server.stub("courier/order-17", body: "10")
    server.stub("kitchen/tickets", bodies: ["ticket-1", "ticket-2", "ticket-3"])
    server.stub("kitchen/slots", body: "A3")
    server.stub("kitchen/slots/release", body: "ok")
    server.stub("telemetry", body: "ok")
    return server
}

/// Registers a nonisolated `.immediate` observer that records the tag of the queue the promise
/// resolved on (for `.immediate`, the resolving thread's queue).
func recordResolvingQueue<V, E>(of promise: Promise<V, E>, into box: Box<String?>) {
    promise.tap(on: .immediate) { _ in
        box.value = OrderQueues.whereAmI()
    }
}

class OrdersTestCase: XCTestCase {
    var server: FakeServer!
    var api: OrdersAPI!
    var paymentService: FakePaymentService!
    var payments: PaymentCoordinator!
    var log: EventLog!

    override func setUp() {
        super.setUp()
        OrderQueues.install()
        server = makeServer()
        api = OrdersAPI(server: server)
        paymentService = FakePaymentService()
        payments = PaymentCoordinator(service: paymentService)
        log = EventLog()
    }

    override func tearDown() {
        server = nil
        api = nil
        paymentService = nil
        payments = nil
        log = nil
        super.tearDown()
    }

    /// Waits (up to `timeout`, pumping the main queue) for the promise to resolve.
    func result<V, E>(of promise: Promise<V, E>, timeout: TimeInterval = 15,
                      file: StaticString = #filePath, line: UInt = #line) -> PromiseResult<V, E>? {
        let done = expectation(description: "promise resolved")
        let box = Box<PromiseResult<V, E>?>(nil)
        promise.tap(on: .immediate) { result in
            box.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        if box.value == nil {
            XCTFail("promise did not resolve", file: file, line: line)
        }
        return box.value
    }

    func value<V, E>(of promise: Promise<V, E>, file: StaticString = #filePath, line: UInt = #line) -> V? {
        let result = self.result(of: promise, file: file, line: line)
        guard case .value(let value)? = result else {
            XCTFail("expected a value, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return value
    }

    func error<V, E>(of promise: Promise<V, E>, file: StaticString = #filePath, line: UInt = #line) -> E? {
        let result = self.result(of: promise, file: file, line: line)
        guard case .error(let error)? = result else {
            XCTFail("expected an error, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return error
    }

    func assertCancelled<V, E>(_ promise: Promise<V, E>, file: StaticString = #filePath, line: UInt = #line) {
        let result = self.result(of: promise, file: file, line: line)
        XCTAssertEqual(result?.isCancelled, true, "expected cancelled, got \(String(describing: result))",
                       file: file, line: line)
    }

    /// Pumps the main run loop until `condition` holds (fails after `timeout`).
    func waitUntil(_ description: String, timeout: TimeInterval = 15,
                   file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out waiting until \(description)", file: file, line: line)
                return
            }
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
    }
}
