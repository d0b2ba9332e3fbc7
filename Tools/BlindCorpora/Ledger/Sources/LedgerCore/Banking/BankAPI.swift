import Foundation
import Tomorrowland

/// An opaque cursor the bank hands out with each page.
public struct PageToken: RawRepresentable, Hashable, Codable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A transaction as the bank reports it.
public struct RemoteTransaction: Hashable, Codable, Sendable {
    public var id: String
    public var amountMinor: Int64
    public var currency: Currency
    public var bookedAt: Date
    public var counterparty: String
    public var reference: String

    public init(id: String, amountMinor: Int64, currency: Currency, bookedAt: Date, counterparty: String, reference: String = "") {
        self.id = id
        self.amountMinor = amountMinor
        self.currency = currency
        self.bookedAt = bookedAt
        self.counterparty = counterparty
        self.reference = reference
    }

    public func asTransaction(in account: AccountID) -> Transaction {
        Transaction(
            id: "bank-\(id)", accountID: account,
            amount: Money(minorUnits: amountMinor, currency: currency),
            bookedAt: bookedAt, payee: counterparty, memo: reference)
    }
}

/// One page of the bank's transaction list.
public struct TransactionPage: Hashable, Codable, Sendable {
    public var transactions: [RemoteTransaction]
    public var next: PageToken?

    public init(transactions: [RemoteTransaction], next: PageToken?) {
        self.transactions = transactions
        self.next = next
    }
}

public struct RemoteAccount: Hashable, Codable, Sendable {
    public var id: String
    public var name: String
    public var currency: Currency
}

/// The bank's REST API.
public protocol BankAPIClient: AnyObject, Sendable {
    /// Lists the accounts the user linked.
    func fetchAccounts() -> BankPromise<[RemoteAccount]>

    /// One page of transactions; `page == nil` asks for the first page (newest first).
    func fetchTransactions(account: AccountID, page: PageToken?) -> BankPromise<TransactionPage>
}

// MARK: - Transport

public struct BankRequest: Hashable, Sendable {
    public var path: String
    public var query: [String: String]

    public init(path: String, query: [String: String] = [:]) {
        self.path = path
        self.query = query
    }
}

/// A running request, which can be cancelled.
public protocol BankTransportTask: AnyObject, Sendable {
    func cancel()
}

/// The HTTP layer (URLSession in the app, a fake in tests). Calls `completion` exactly once,
/// on any thread; a cancelled task completes with `URLError(.cancelled)`.
public protocol BankTransport: AnyObject, Sendable {
    func send(_ request: BankRequest, completion: @escaping @Sendable (Data?, Swift.Error?) -> Void) -> BankTransportTask
}

/// `BankAPIClient` over a `BankTransport` speaking JSON.
public final class HTTPBankClient: BankAPIClient, @unchecked Sendable {
    private let transport: BankTransport
    public var pageSize = 100

    public init(transport: BankTransport) {
        self.transport = transport
    }

    public func fetchAccounts() -> BankPromise<[RemoteAccount]> {
        return send(BankRequest(path: "/v2/accounts"))
            .flatMap(on: .utility) { data in HTTPBankClient.decode([RemoteAccount].self, from: data, page: 0) }
    }

    public func fetchTransactions(account: AccountID, page: PageToken?) -> BankPromise<TransactionPage> {
        var query = ["limit": String(pageSize)]
        if let page = page {
            query["cursor"] = page.rawValue
        }
        let pageNumber = page == nil ? 0 : 1
        return send(BankRequest(path: "/v2/accounts/\(account.rawValue)/transactions", query: query))
            .flatMap(on: .utility) { data in HTTPBankClient.decode(TransactionPage.self, from: data, page: pageNumber) }
    }

    /// Sends a request; requesting cancellation of the promise cancels the HTTP task.
    private func send(_ request: BankRequest) -> BankPromise<Data> {
        let transport = self.transport
        return Promise(on: .immediate) { resolver in
            let task = transport.send(request) { data, error in
                if let data = data {
                    resolver.fulfill(with: data)
                } else if let error = error as? BankAPIError {
                    resolver.reject(with: error)
                } else if let error = error as? URLError, error.code == .cancelled {
                    resolver.cancel()
                } else {
                    resolver.reject(with: .transport(error.map { String(describing: $0) } ?? "no data"))
                }
            }
            resolver.onRequestCancel(on: .immediate) { _ in
                task.cancel()
            }
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data, page: Int) -> BankPromise<T> {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return Promise(fulfilled: try decoder.decode(T.self, from: data))
        } catch {
            return Promise(rejected: .malformedPage(page))
        }
    }
}
