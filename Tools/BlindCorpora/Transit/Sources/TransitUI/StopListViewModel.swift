import Foundation
import Tomorrowland
import TransitCore

/// The "stops near me" screen.
@MainActor
public final class StopListViewModel {
    private let service: StopProviding
    private let token = PromiseInvalidationToken()
    public private(set) var stops: [Stop] = []
    public private(set) var isLoading = false
    public private(set) var errorMessage: String?
    public private(set) var loadCount = 0
    public var radius: Double = 500

    public init(service: StopProviding) {
        self.service = service
    }

    /// Shows the stops near `location`. `isLoading` is true and the old error is gone when this returns.
    @discardableResult
    public func load(near location: Coordinate) -> StopsPromise {
        isLoading = true
        errorMessage = nil
        loadCount += 1
        return service.stops(near: location, radius: radius)
            .then(on: .main, token: token) { [weak self] stops in
                self?.stops = stops
            }
            .catch(on: .main, token: token) { [weak self] error in
                self?.errorMessage = StopListViewModel.message(for: error)
            }
            .always(on: .main) { [weak self] _ in
                self?.isLoading = false
            }
            .requestCancelOnInvalidate(token)
    }

    /// Drops whatever is loading: its callbacks are skipped and its requests cancelled.
    public func cancelLoading() {
        token.invalidate()
    }

    /// The names of the stops, decoded off the main queue; nil on error.
    public func stopNames(near location: Coordinate) -> Promise<[String]?, NoError> {
        service.stops(near: location, radius: radius)
            .map(on: .utility) { stops in stops.map { $0.name } }
            .recover(on: .immediate) { _ in nil }
    }

    public static func message(for error: TransitError) -> String {
        switch error {
        case .offline: return "You are offline."
        case .notFound(let what): return "Not found: \(what)"
        case .server(let status): return "Server error \(status)"
        case .timedOut: return "The server took too long."
        case .invalidRequest(let why): return "Invalid request: \(why)"
        case .decoding: return "Unreadable answer."
        case .noRoute: return "No route."
        case .insufficientFunds(let needed): return "Top up \(needed) cents."
        case .storage(let why): return "Could not save: \(why)"
        }
    }
}
