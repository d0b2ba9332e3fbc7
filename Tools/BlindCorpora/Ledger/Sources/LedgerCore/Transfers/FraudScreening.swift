import Foundation
import Tomorrowland

public struct FraudVerdict: Hashable, Sendable {
    /// 0 (clean) to 100 (certainly fraud).
    public var score: Int
    public var provider: String

    public init(score: Int, provider: String) {
        self.score = score
        self.provider = provider
    }

    public var isBlocking: Bool { score >= 80 }

    public static let unscreened = FraudVerdict(score: 0, provider: "none")
}

/// Screens a transfer before the user is asked to confirm it.
public protocol FraudScreening: Sendable {
    func screen(_ request: TransferRequest) -> FraudPromise
}

/// Asks several providers at once and takes the first answer; a provider that does not
/// answer within `timeout` is treated as unavailable.
public final class FraudCheckService: FraudScreening {
    private let providers: [FraudScreening]
    public let timeout: TimeInterval

    public init(providers: [FraudScreening], timeout: TimeInterval = 3) {
        self.providers = providers
        self.timeout = timeout
    }

    public func screen(_ request: TransferRequest) -> FraudPromise {
        guard !providers.isEmpty else {
            return Promise(fulfilled: .unscreened)
        }
        let limit = timeout
        let answers = providers.enumerated().map { index, provider in
            provider.screen(request)
                .timeout(on: .utility, delay: limit)
                .mapError(on: .immediate) { error -> FraudError in
                    switch error {
                    case .timedOut:
                        return .providerUnavailable("provider \(index) timed out")
                    case .rejected(let inner):
                        return inner
                    }
                }
        }
        return when(first: answers, cancelRemaining: true)
    }
}

/// Lets everything through; used for transfers between the user's own accounts.
public struct TrustedScreening: FraudScreening {
    public init() {}

    public func screen(_ request: TransferRequest) -> FraudPromise {
        return Promise(fulfilled: .unscreened)
    }
}

/// A rule-of-thumb screen that runs on-device: large first-time payees score high.
public struct HeuristicScreening: FraudScreening {
    public var knownPayees: Set<AccountID>
    public var largeAmountMinor: Int64

    public init(knownPayees: Set<AccountID>, largeAmountMinor: Int64 = 500_000) {
        self.knownPayees = knownPayees
        self.largeAmountMinor = largeAmountMinor
    }

    public func screen(_ request: TransferRequest) -> FraudPromise {
        let known = knownPayees.contains(request.to)
        let large = request.amount.minorUnits >= largeAmountMinor
        return Promise(on: .utility) { resolver in
            var score = 10
            if !known { score += 40 }
            if large { score += 40 }
            resolver.fulfill(with: FraudVerdict(score: score, provider: "heuristic"))
        }
    }
}
