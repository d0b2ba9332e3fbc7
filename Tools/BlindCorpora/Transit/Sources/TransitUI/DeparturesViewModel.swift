import Foundation
import Tomorrowland
import TransitCore

/// A stop's departure board, refreshed every `refreshInterval` seconds while visible.
@MainActor
public final class DeparturesViewModel {
    public struct Row: Equatable, Sendable {
        public let title: String
        public let time: String
        public let isDelayed: Bool

        public init(title: String, time: String, isDelayed: Bool) {
            self.title = title
            self.time = time
            self.isDelayed = isDelayed
        }
    }

    private let service: DepartureService
    public let stopID: String
    /// Where results are delivered to the screen.
    let delivery: PromiseContext = .main
    private var refreshToken = PromiseInvalidationToken()
    public private(set) var rows: [Row] = []
    public private(set) var refreshCount = 0
    public private(set) var lastError: TransitError?
    public private(set) var isRefreshing = false
    public var refreshInterval: TimeInterval = 30

    public init(service: DepartureService, stopID: String) {
        self.service = service
        self.stopID = stopID
    }

    /// Loads the board once.
    @discardableResult
    public func refresh() -> TransitPromise<[Row]> {
        isRefreshing = true
        return service.liveDepartures(stopID: stopID, limit: 4)
            .map(on: .transitDecode) { departures in departures.map(DeparturesViewModel.row(for:)) }
            .then(on: delivery) { rows in
                self.rows = rows
                self.refreshCount += 1
                self.lastError = nil
            }
            .catch(on: delivery) { error in
                self.lastError = error
            }
            .always(on: .main) { [weak self] _ in
                self?.isRefreshing = false
            }
    }

    /// Refreshes now and then every `refreshInterval` seconds until `stopAutoRefresh()`.
    public func startAutoRefresh() {
        let token = refreshToken
        _ = refresh()
            .mapResult(on: .immediate) { _ -> PromiseResult<Void, NoError> in .value(()) }
            .delay(on: .main, refreshInterval)
            .then(on: .main, token: token) { [weak self] in
                self?.startAutoRefresh()
            }
    }

    public func stopAutoRefresh() {
        refreshToken.invalidate()
        refreshToken = PromiseInvalidationToken()
    }

    nonisolated static func row(for departure: Departure) -> Row {
        Row(title: "\(departure.routeID) \(departure.headsign)",
            time: ItineraryFormatter.clock(departure.expectedMinute),
            isDelayed: departure.delayMinutes > 0)
    }
}
