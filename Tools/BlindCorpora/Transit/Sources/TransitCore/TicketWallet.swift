import Foundation
import Tomorrowland

/// The ticket wallet. The balance and the tickets are only touched on the ledger queue (every
/// access is a callback on `ledgerContext`), which keeps purchases from racing.
public final class TicketWallet: @unchecked Sendable {
    private let server: FakeTransitServer
    private let ledgerContext: PromiseContext = .queue(TransitQueues.ledger)
    private var balanceCents: Int
    private var tickets: [Ticket] = []
    private var nextTicketNumber = 1
    /// Purchases in flight register here; `cancelPendingPurchases()` cancels them.
    private var purchaseToken = PromiseInvalidationToken(invalidateOnDeinit: false)
    /// Where each ledger step ran, for diagnostics.
    public let trace = EventLog()

    public init(server: FakeTransitServer, balanceCents: Int = 1_000) {
        self.server = server
        self.balanceCents = balanceCents
    }

    /// The price of a fare, straight from the server.
    public static func fareQuote(_ kind: FareKind, server: FakeTransitServer) -> TransitPromise<Int> {
        server.request("fares/\(kind.rawValue)") { () -> Result<Int, TransitError> in
            server.fares[kind].map { .success($0) } ?? .failure(.notFound(kind.rawValue))
        }
    }

    public func balance() -> Promise<Int, NoError> {
        Promise(on: ledgerContext) { resolver in
            resolver.fulfill(with: self.balanceCents)
        }
    }

    public func allTickets() -> Promise<[Ticket], NoError> {
        Promise(on: ledgerContext) { resolver in
            resolver.fulfill(with: self.tickets)
        }
    }

    @discardableResult
    public func topUp(cents: Int) -> TransitPromise<Int> {
        guard cents > 0 else { return TransitPromise(rejected: .invalidRequest("top-up must be positive")) }
        return server.request("wallet/topup/\(cents)") { .success(cents) }
            .map(on: ledgerContext) { amount in
                self.balanceCents += amount
                return self.balanceCents
            }
    }

    /// Gets the fare, then debits it and issues the ticket on the ledger queue.
    public func purchase(_ kind: FareKind) -> TransitPromise<Ticket> {
        let server = self.server
        return server.request("fares/\(kind.rawValue)") { () -> Result<Int, TransitError> in
            server.fares[kind].map { .success($0) } ?? .failure(.notFound(kind.rawValue))
        }
        .flatMap(on: ledgerContext) { price -> TransitPromise<Ticket> in
            self.trace.append("debit@\(TransitQueues.currentLabel() ?? "unnamed")")
            guard self.balanceCents >= price else {
                return TransitPromise(rejected: .insufficientFunds(needed: price - self.balanceCents))
            }
            self.balanceCents -= price
            let ticket = Ticket(id: "T\(self.nextTicketNumber)", kind: kind, priceCents: price)
            self.nextTicketNumber += 1
            self.tickets.append(ticket)
            return TransitPromise(fulfilled: ticket)
        }
        .requestCancelOnInvalidate(purchaseToken)
    }

    /// A purchase whose callbacks are silenced (and whose request is cancelled) when `token` is invalidated.
    public func purchase(_ kind: FareKind, token: PromiseInvalidationToken) -> TokenPromise<Ticket, TransitError> {
        purchase(kind).withToken(token)
    }

    public func cancelPendingPurchases() {
        purchaseToken.invalidate()
    }

    /// Activates a ticket; a ticket can be activated once.
    public func activate(ticketID: String) -> TransitPromise<Ticket> {
        TransitPromise(on: ledgerContext) { resolver in
            guard let index = self.tickets.firstIndex(where: { $0.id == ticketID }) else {
                resolver.reject(with: .notFound(ticketID))
                return
            }
            guard !self.tickets[index].isActivated else {
                resolver.reject(with: .invalidRequest("\(ticketID) is already active"))
                return
            }
            self.tickets[index].isActivated = true
            resolver.fulfill(with: self.tickets[index])
        }
    }

    /// Buys several tickets one after the other (each waits for the previous one), stopping at the first failure.
    public func purchaseAll(_ kinds: [FareKind]) -> TransitPromise<[Ticket]> {
        var chain = TransitPromise<[Ticket]>(fulfilled: [])
        for kind in kinds {
            chain = chain.flatMap(on: .immediate) { [weak self] bought -> TransitPromise<[Ticket]> in
                guard let self = self else { return TransitPromise(rejected: .invalidRequest("wallet released")) }
                return self.purchase(kind).map(on: .immediate) { bought + [$0] }
            }
        }
        return chain
    }
}

extension Promise where Error == NoError {
    /// The same promise with the app's error type (it never fails).
    public var asTransit: TransitPromise<Value> {
        mapError(on: .immediate) { error -> TransitError in switch error {} }
    }
}
