import Foundation
import Tomorrowland
import TransitCore

/// The trip planner screen. A new search cancels the one in flight.
@MainActor
public final class TripPlannerViewModel {
    public enum Status: Equatable, Sendable {
        case idle
        case searching
        case found(String)
        case failed(String)
    }

    private let planner: TripPlanner
    /// The search in flight; a cancellable, not a promise, so it does not block cancellation.
    private var current: PromiseCancellable?
    public private(set) var status: Status = .idle
    public private(set) var itinerary: Itinerary?
    public private(set) var searches = 0

    public init(planner: TripPlanner) {
        self.planner = planner
    }

    @discardableResult
    public func plan(from origin: Coordinate, to destination: Coordinate, departingAfter minute: Int) -> TransitPromise<String> {
        current?.requestCancel()
        searches += 1
        status = .searching
        let search = planner.plan(from: origin, to: destination, departingAfter: minute)
        current = search.cancellable
        return search
            .then { [weak self] itinerary in
                self?.itinerary = itinerary
            }
            .map(on: .utility) { itinerary in ItineraryFormatter.summary(itinerary) }
            .then { [weak self] summary in
                self?.status = .found(summary)
            }
            .catch { [weak self] error in
                self?.status = .failed(StopListViewModel.message(for: error))
            }
            .onCancel { [weak self] in
                self?.status = .idle
            }
    }

    public func cancel() {
        current?.requestCancel()
        current = nil
    }
}

/// The ticket wallet screen.
@MainActor
public final class WalletViewModel {
    private let wallet: TicketWallet
    private let token = PromiseInvalidationToken()
    /// Balance updates are applied as soon as they arrive.
    private let updateContext: PromiseContext = .immediate
    public private(set) var balanceText = ""
    public private(set) var tickets: [Ticket] = []
    public private(set) var message: String?
    public private(set) var isBusy = false

    public init(wallet: TicketWallet) {
        self.wallet = wallet
    }

    /// Balance and tickets together.
    @discardableResult
    public func reload() -> Promise<(Int, [Ticket]), NoError> {
        when(fulfilled: wallet.balance(), wallet.allTickets())
            .then(on: updateContext, token: token) { [weak self] balance, tickets in
                self?.balanceText = WalletViewModel.format(cents: balance)
                self?.tickets = tickets
            }
    }

    /// Buys a ticket, then shows the new balance. `isBusy` is set before this returns.
    @discardableResult
    public func buy(_ kind: FareKind) -> TransitPromise<Ticket> {
        isBusy = true
        message = nil
        return wallet.purchase(kind, token: token)
            .then(on: .main) { [weak self] ticket in
                self?.message = "Bought \(ticket.kind.rawValue) ticket \(ticket.id)"
                self?.reload()
            }
            .catch(on: .main) { [weak self] error in
                self?.message = StopListViewModel.message(for: error)
            }
            .always(on: .main) { [weak self] _ in
                self?.isBusy = false
            }
            .inner
    }

    /// Leaving the screen: silence callbacks and cancel purchases in flight.
    public func leave() {
        token.invalidate()
    }

    nonisolated public static func format(cents: Int) -> String {
        String(format: "€%d.%02d", cents / 100, cents % 100)
    }
}

/// A map of a route's vehicles, kept current by a polling feed.
@MainActor
public final class VehicleMapViewModel {
    private let tracker: VehicleTracker
    private var feed: PollingFeed<[VehiclePosition]>?
    public private(set) var vehicles: [VehiclePosition] = []
    public private(set) var updates = 0
    public private(set) var alertHeadline: String?

    public init(tracker: VehicleTracker) {
        self.tracker = tracker
    }

    public func show(routeID: String, interval: TimeInterval) {
        feed?.stop()
        let feed = tracker.feed(routeID: routeID, interval: interval)
        self.feed = feed
        feed.start { [weak self] positions in
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self?.vehicles = positions
                    self?.updates += 1
                }
            }
        }
    }

    public func hide() {
        feed?.stop()
        feed = nil
    }

    /// Shows the route's headline alert, if any, on the main queue.
    @discardableResult
    public func loadHeadline(routeID: String, from alerts: AlertService) -> Promise<String?, NoError> {
        alerts.headline(routeID: routeID).then(on: .nowOr(.main)) { [weak self] headline in
            self?.alertHeadline = headline
        }
    }
}
