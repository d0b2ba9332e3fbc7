import Foundation
import XCTest
import Tomorrowland
@testable import ClinicCore

final class InvoiceServiceTests: XCTestCase {
    let booking = Booking(id: 11, slot: Slot(id: 3, practitionerID: "d2", startMinute: 600, durationMinutes: 60), patientID: "p1", status: .confirmed)

    func testInvoiceScalesThePriceToTheSlot() {
        let service = InvoiceService(server: makeServer(), callbackContext: .immediate)
        let invoice = waitForValue(service.invoice(for: booking))
        XCTAssertEqual(invoice, Invoice(id: "INV-11", bookingID: 11, amountCents: 40_000, isPaid: false))
        XCTAssertEqual(service.issued.map(\.id), ["INV-11"])
    }

    func testCancelledBookingGetsNoInvoice() {
        let service = InvoiceService(server: makeServer())
        var cancelledBooking = booking
        cancelledBooking.status = .cancelled
        let promise = service.invoice(for: cancelledBooking)
        guard case .error(.invalid(let reason))? = promise.result else {
            return XCTFail("expected an immediate invalid error, got \(String(describing: promise.result))")
        }
        XCTAssertEqual(reason, "booking 11 is cancelled")
    }

    func testInvoiceIsComputedOnTheBillingQueue() {
        let service = InvoiceService(server: makeServer())
        let exp = expectation(description: "invoice")
        service.invoice(for: booking).then(on: .immediate) { _ in
            XCTAssertEqual(ClinicQueues.current, "clinic.billing")
            exp.fulfill()
        }
        waitForExpectations(timeout: 5)
    }

    func testSettleReportsOnTheMainQueue() {
        let service = InvoiceService(server: makeServer(), callbackContext: .main)
        let settled = expectation(description: "settled")
        service.settle(booking) { result in
            XCTAssertTrue(Thread.isMainThread || DispatchQueue.getSpecific(key: mainKey) == "main")
            switch result {
            case .success(let invoice):
                XCTAssertTrue(invoice.isPaid)
                XCTAssertEqual(invoice.amountCents, 40_000)
            case .failure(let error):
                XCTFail("settle failed: \(error)")
            }
            settled.fulfill()
        }
        wait(for: [settled], timeout: 5)
    }

    func testSettleReportsADeclinedCard() {
        let service = InvoiceService(server: makeServer(), callbackContext: .immediate)
        service.cardLimitCents = 10_000
        let declined = expectation(description: "declined")
        service.settle(booking) { result in
            if case .failure(let error) = result {
                XCTAssertEqual(error, .paymentDeclined(cents: 40_000))
            } else {
                XCTFail("expected a declined card")
            }
            declined.fulfill()
        }
        waitForExpectations(timeout: 5)
    }

    func testUrgentPaymentReportsOnTheResolvingThread() {
        let service = InvoiceService(server: makeServer())
        let invoice = Invoice(id: "INV-1", bookingID: 1, amountCents: 100, isPaid: false)
        let paid = waitForValue(service.pay(invoice, urgent: true))
        XCTAssertEqual(paid?.isPaid, true)
        let paidLater = waitForValue(service.pay(invoice, urgent: false))
        XCTAssertEqual(paidLater?.isPaid, true)
    }

    func testOutstandingTotalAddsEveryInvoice() {
        let service = InvoiceService(server: makeServer())
        var second = booking
        second.id = 12
        second.slot = Slot(id: 4, practitionerID: "d3", startMinute: 420, durationMinutes: 30)
        XCTAssertEqual(waitForValue(service.outstandingTotal(of: [booking, second])), 45_000)
    }

    func testOutstandingTotalIsZeroWhenAnInvoiceFails() {
        let service = InvoiceService(server: makeServer())
        var unpriced = booking
        unpriced.slot.practitionerID = "d9"
        XCTAssertEqual(waitForValue(service.outstandingTotal(of: [booking, unpriced])), 0)
    }

    func testRefundOfAResolvedInvoiceIsComputedAtOnce() {
        let service = InvoiceService(server: makeServer())
        let paid = Invoice(id: "INV-2", bookingID: 2, amountCents: 700, isPaid: true)
        let refund = service.refundAmount(for: Promise(fulfilled: paid))
        XCTAssertEqual(refund.result?.value, 700)
        let unpaid = service.refundAmount(for: Promise(fulfilled: Invoice(id: "INV-3", bookingID: 3, amountCents: 5, isPaid: false)))
        XCTAssertEqual(unpaid.result?.error, .invalid("unpaid"))
    }

    func testSeveralInvoicesAwaitedWithOneWait() {
        let service = InvoiceService(server: makeServer())
        var other = booking
        other.id = 13
        let first = expectation(description: "first")
        let second = expectation(description: "second")
        service.invoice(for: booking).then { invoice in
            XCTAssertEqual(invoice.id, "INV-11")
            first.fulfill()
        }
        service.invoice(for: other).then { invoice in
            XCTAssertEqual(invoice.id, "INV-13")
            second.fulfill()
        }
        wait(for: [first, second], timeout: 5)
        XCTAssertEqual(Set(service.issued.map(\.id)), ["INV-11", "INV-13"])
    }
}

/// Tags the main queue so that tests can check they run on it by queue, not by thread.
let mainKey: DispatchSpecificKey<String> = {
    let key = DispatchSpecificKey<String>()
    DispatchQueue.main.setSpecific(key: key, value: "main")
    return key
}()
