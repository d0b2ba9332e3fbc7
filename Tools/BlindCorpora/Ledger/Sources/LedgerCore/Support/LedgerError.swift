import Foundation
import Tomorrowland

/// Every failure the ledger core reports to feature code.
public enum LedgerError: Error, Equatable, Sendable {
    case accountNotFound(AccountID)
    case insufficientFunds(available: Money, requested: Money)
    case invalidAmount
    case sameAccount
    case rateUnavailable(CurrencyPair)
    case bank(BankAPIError)
    case storage(String)
    case confirmationExpired
    case confirmationCodeInvalid
    case fraudSuspected(score: Int)
    case timedOut
    case offline

    /// Whether the outbox should try again later.
    public var isRetryable: Bool {
        switch self {
        case .offline, .timedOut:
            return true
        case .bank(let error):
            return error.isTransient
        default:
            return false
        }
    }
}

/// What the bank's REST API can answer besides data.
public enum BankAPIError: Error, Equatable, Sendable {
    case http(status: Int)
    case malformedPage(Int)
    case rateLimited
    case unauthorized
    case transport(String)

    public var isTransient: Bool {
        switch self {
        case .rateLimited, .transport:
            return true
        case .http(let status):
            return status >= 500
        default:
            return false
        }
    }
}

public enum FraudError: Error, Equatable, Sendable {
    case providerUnavailable(String)
    case invalidResponse
}

/// The promise every ledger operation returns.
public typealias LedgerPromise<T> = Promise<T, LedgerError>

/// Bank API calls, before their errors are mapped to `LedgerError`.
public typealias BankPromise<T> = Promise<T, BankAPIError>

/// A promise that cannot fail (it may still be cancelled).
public typealias Guaranteed<T> = Promise<T, NoError>

/// Fraud screening results.
public typealias FraudPromise = Promise<FraudVerdict, FraudError>
