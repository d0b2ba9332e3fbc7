import Foundation
import XCTest
import Tomorrowland
import OrdersCore

final class PaymentCoordinatorTests: OrdersTestCase {
    let order = Order(id: "order-1", cart: standardCart, startedAt: Date(), status: .placed)

    // charge: state, counter and history before the chain; [weak self] on .queue(payments)

    func testChargeIsAuthorizingDuringTheCall() {
        paymentService.holdAuthorizations()
        let promise = payments.charge(order: order, amountCents: 1000, card: "4242")
        XCTAssertEqual(payments.state, .authorizing)
        XCTAssertEqual(payments.attempts, 1)
        XCTAssertEqual(payments.history.entries, ["charge order-1 1000"])
        XCTAssertEqual(paymentService.calls, ["authorize 1000 4242 via primary"])
        paymentService.releaseAuthorizations()
        let receipt = value(of: promise)
        XCTAssertEqual(receipt?.orderID, "order-1")
        XCTAssertEqual(receipt?.authorizationID, "auth-4242-1000")
        XCTAssertEqual(receipt?.amountCents, 1000)
        XCTAssertEqual(payments.state, .paid)
        XCTAssertEqual(payments.history.entries, ["charge order-1 1000", "authorized auth-4242-1000 on payments"])
        XCTAssertEqual(paymentService.captures, ["capture auth-4242-1000 for order-1"])
    }

    func testTwoChargesAuthorizeInCallOrder() {
        paymentService.holdAuthorizations()
        let first = payments.charge(order: order, amountCents: 100, card: "1111")
        let second = payments.charge(order: order, amountCents: 200, card: "2222")
        XCTAssertEqual(paymentService.calls, ["authorize 100 1111 via primary", "authorize 200 2222 via primary"])
        XCTAssertEqual(payments.attempts, 2)
        paymentService.releaseAuthorizations()
        XCTAssertEqual(value(of: first)?.amountCents, 100)
        XCTAssertEqual(value(of: second)?.amountCents, 200)
    }

    func testDeclinedChargeFails() {
        XCTAssertEqual(error(of: payments.charge(order: order, amountCents: 100, card: "4000-1")), .declined("card 4000-1 declined"))
        XCTAssertEqual(payments.state, .failed)
        XCTAssertEqual(paymentService.captures, [])
    }

    func testChargeOfNothingIsInvalid() {
        XCTAssertEqual(error(of: payments.charge(order: order, amountCents: 0, card: "4242")), .invalidAmount)
    }

    func testCancellingAChargeRightAfterTheCallReachesTheAuthorization() {
        paymentService.holdAuthorizations()
        let promise = payments.charge(order: order, amountCents: 100, card: "4242")
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(paymentService.cancelledCalls, ["authorize 100 4242 via primary"])
        XCTAssertEqual(payments.state, .authorizing)
    }

    // authorizeWithBackup: flatMapError returning another call

    func testBackupProcessorIsUsedWhenThePrimaryIsDown() {
        paymentService.unavailableProcessors = ["primary"]
        let authorization = value(of: payments.authorizeWithBackup(amountCents: 500, card: "4242"))
        XCTAssertEqual(authorization?.processor, "backup")
        XCTAssertEqual(paymentService.calls, ["authorize 500 4242 via primary", "authorize 500 4242 via backup"])
    }

    func testDeclineIsNotRetriedOnTheBackup() {
        XCTAssertEqual(error(of: payments.authorizeWithBackup(amountCents: 500, card: "4000")), .declined("card 4000 declined"))
        XCTAssertEqual(paymentService.calls, ["authorize 500 4000 via primary"])
    }

    func testBothProcessorsDown() {
        paymentService.unavailableProcessors = ["primary", "backup"]
        XCTAssertEqual(error(of: payments.authorizeWithBackup(amountCents: 500, card: "4242")), .serviceUnavailable)
    }

    func testCancellingDuringTheBackupReachesTheBackupCall() {
        paymentService.unavailableProcessors = ["primary"]
        paymentService.holdAuthorizations(processor: "backup")
        let promise = payments.authorizeWithBackup(amountCents: 500, card: "4242")
        waitUntil("the backup was asked") { paymentService.calls.count == 2 }
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(paymentService.cancelledCalls, ["authorize 500 4242 via backup"])
    }

    // authorizeOrGiveUp: StdPromise + timeout

    func testAuthorizeOrGiveUpValue() {
        XCTAssertEqual(value(of: payments.authorizeOrGiveUp(amountCents: 300, card: "4242", within: 10))?.amountCents, 300)
    }

    func testAuthorizeOrGiveUpPassesTheDeclineThrough() {
        let failure = error(of: payments.authorizeOrGiveUp(amountCents: 300, card: "4000", within: 10))
        XCTAssertEqual(failure as? PaymentError, .declined("card 4000 declined"))
    }

    func testAuthorizeOrGiveUpTimesOutAndTheCallIsCancelled() {
        paymentService.holdAuthorizations()
        let failure = error(of: payments.authorizeOrGiveUp(amountCents: 300, card: "4242", within: 0.05))
        guard case PromiseTimeoutError<Error>.timedOut? = failure as? PromiseTimeoutError<Error> else {
            return XCTFail("expected a timeout, got \(String(describing: failure))")
        }
        waitUntil("the abandoned call is cancelled") { paymentService.cancelledCalls == ["authorize 300 4242 via primary"] }
    }
}
