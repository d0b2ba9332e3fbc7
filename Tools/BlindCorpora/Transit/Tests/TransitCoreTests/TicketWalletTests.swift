import Foundation
import Tomorrowland
import TransitCore
import XCTest

final class TicketWalletTests: XCTestCase {
    func testStartingBalance() {
        let wallet = TicketWallet(server: FakeTransitServer())
        XCTAssertEqual(resolved(wallet.balance())?.value, 1_000)
        XCTAssertEqual(resolved(wallet.allTickets())?.value, [])
    }

    func testPurchaseDebitsOnTheLedgerQueue() {
        let wallet = TicketWallet(server: FakeTransitServer())
        let ticket = resolved(wallet.purchase(.single))?.value
        XCTAssertEqual(ticket, Ticket(id: "T1", kind: .single, priceCents: 250))
        XCTAssertEqual(resolved(wallet.balance())?.value, 750)
        XCTAssertEqual(wallet.trace.entries, ["debit@transit.ledger"])
    }

    func testInsufficientFunds() {
        let wallet = TicketWallet(server: FakeTransitServer(), balanceCents: 100)
        XCTAssertEqual(resolved(wallet.purchase(.week)), .error(.insufficientFunds(needed: 2_400)))
        XCTAssertEqual(resolved(wallet.balance())?.value, 100)
    }

    func testTopUp() {
        let wallet = TicketWallet(server: FakeTransitServer())
        XCTAssertEqual(resolved(wallet.topUp(cents: 500))?.value, 1_500)
        XCTAssertEqual(wallet.topUp(cents: 0).result, .error(.invalidRequest("top-up must be positive")))
    }

    func testActivateOnce() {
        let wallet = TicketWallet(server: FakeTransitServer())
        _ = resolved(wallet.purchase(.day))
        XCTAssertEqual(resolved(wallet.activate(ticketID: "T1"))?.value?.isActivated, true)
        XCTAssertEqual(resolved(wallet.activate(ticketID: "T1")), .error(.invalidRequest("T1 is already active")))
        XCTAssertEqual(resolved(wallet.activate(ticketID: "T7")), .error(.notFound("T7")))
    }

    func testPurchaseAllBuysOneAfterTheOther() {
        let server = FakeTransitServer()
        let wallet = TicketWallet(server: server)
        let promise = wallet.purchaseAll([.single, .day])
        // The first purchase starts in the call; the second waits for it.
        XCTAssertEqual(server.requestLog, ["fares/single"])
        let tickets = resolved(promise)?.value
        XCTAssertEqual(tickets?.map { $0.id }, ["T1", "T2"])
        XCTAssertEqual(server.requestLog, ["fares/single", "fares/day"])
        XCTAssertEqual(resolved(wallet.balance())?.value, 50)
    }

    func testPurchaseAllStopsAtTheFirstFailure() {
        let server = FakeTransitServer()
        let wallet = TicketWallet(server: server)
        XCTAssertEqual(resolved(wallet.purchaseAll([.week, .single])), .error(.insufficientFunds(needed: 1_500)))
        XCTAssertEqual(server.requestLog, ["fares/week"])
    }

    func testCancelPendingPurchases() {
        let server = FakeTransitServer()
        server.hang("fares/")
        let wallet = TicketWallet(server: server)
        let promise = wallet.purchase(.day)
        wallet.cancelPendingPurchases()
        XCTAssertEqual(resolved(promise)?.isCancelled, true)
        XCTAssertEqual(server.cancelledRequests, ["fares/day"])
        XCTAssertEqual(resolved(wallet.balance())?.value, 1_000)
    }

    func testWalletTokenCanBeReusedAfterCancelling() {
        let server = FakeTransitServer()
        let wallet = TicketWallet(server: server)
        wallet.cancelPendingPurchases()
        XCTAssertEqual(resolved(wallet.purchase(.single))?.value?.id, "T1")
    }

    func testInvalidatedTokenSilencesTheCallback() {
        let server = FakeTransitServer()
        server.setLatency(0.2, for: "fares/")
        let wallet = TicketWallet(server: server)
        let token = PromiseInvalidationToken()
        let calls = Counter()
        let observed = wallet.purchase(.single, token: token).then(on: .immediate) { _ in calls.increment() }.inner
        token.invalidate()
        _ = resolved(observed)
        spin(0.1)
        XCTAssertEqual(calls.value, 0)
    }
}
