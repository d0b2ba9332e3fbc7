import Foundation
import XCTest
import Tomorrowland
@testable import RelayCore

final class FakeTransportTests: XCTestCase {
    func testSynchronousAnswerIsThereWhenTheCallReturns() {
        let world = World()
        XCTAssertEqual(world.transport.send("x").result?.value, Receipt(messageID: 101, text: "x"))
        XCTAssertEqual(world.transport.lookup("zed").result?.error, .notFound("zed"))
    }

    func testDelayedAnswerComesLaterFromTheNetworkQueue() {
        let world = World(mode: .delayed(0.05))
        let lookup = world.transport.lookup("ann")
        XCTAssertNil(lookup.result)
        XCTAssertEqual(awaitValue(lookup)?.name, "Ann Lee")
        XCTAssertEqual(world.transport.cancelledRequests, 0)
    }
}
