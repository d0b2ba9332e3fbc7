import Foundation
import LedgerCore
import Tomorrowland

/// A bank whose pages are set by the test. With `hold`, it never answers and records the
/// cancel request instead.
final class FakeBankClient: BankAPIClient, @unchecked Sendable {
    var pages: [String: TransactionPage] = [:]
    var failures: [String: BankAPIError] = [:]
    var hold = false
    let requests = Locked<[String]>([])
    let cancels = Locked<[String]>([])
    let requestQueues = Locked<[String]>([])

    func page(_ key: String?) -> String { key ?? "first" }

    func fetchAccounts() -> BankPromise<[RemoteAccount]> {
        return Promise(fulfilled: [])
    }

    func fetchTransactions(account: AccountID, page token: PageToken?) -> BankPromise<TransactionPage> {
        let key = page(token?.rawValue)
        requests.append(key)
        requestQueues.append(QueueProbe.current)
        if let error = failures[key] {
            return Promise(rejected: error)
        }
        if hold {
            let cancels = self.cancels
            return Promise(on: .immediate) { resolver in
                resolver.onRequestCancel(on: .immediate) { resolver in
                    cancels.append(key)
                    resolver.cancel()
                }
            }
        }
        let page = pages[key] ?? TransactionPage(transactions: [], next: nil)
        return Promise(on: .utility) { resolver in
            resolver.fulfill(with: page)
        }
    }
}

/// A `LedgerStoring` fake wrapping a real store, recording which queue `insert` was called on.
final class RecordingStore: LedgerStoring, @unchecked Sendable {
    let inner: LedgerStore
    let insertQueues = Locked<[String]>([])
    let inserted = Locked<[String]>([])

    init(_ inner: LedgerStore = Fixtures.store()) {
        self.inner = inner
    }

    func account(_ id: AccountID) -> LedgerPromise<Account> { inner.account(id) }
    func accounts() -> LedgerPromise<[Account]> { inner.accounts() }
    func transactions(for account: AccountID, in month: Month?) -> LedgerPromise<[Transaction]> {
        inner.transactions(for: account, in: month)
    }
    func insert(_ transactions: [Transaction]) -> LedgerPromise<Int> {
        insertQueues.append(QueueProbe.current)
        inserted.modify { $0 += transactions.map(\.id) }
        return inner.insert(transactions)
    }
    func post(_ entry: JournalEntry) -> LedgerPromise<Money> { inner.post(entry) }
}

/// The HTTP layer: answers from `responses` (by path and cursor) on a background queue.
final class FakeTransport: BankTransport, @unchecked Sendable {
    final class Task: BankTransportTask, @unchecked Sendable {
        let onCancel: () -> Void
        init(onCancel: @escaping () -> Void) { self.onCancel = onCancel }
        func cancel() { onCancel() }
    }

    var responses: [String: Data] = [:]
    var errors: [String: Swift.Error] = [:]
    var hold = false
    let sent = Locked<[BankRequest]>([])
    let cancelled = Locked<[String]>([])

    static func key(_ path: String, cursor: String? = nil) -> String {
        cursor.map { "\(path)?\($0)" } ?? path
    }

    func respond<T: Encodable>(to path: String, cursor: String? = nil, with value: T) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        responses[FakeTransport.key(path, cursor: cursor)] = try! encoder.encode(value)
    }

    func send(_ request: BankRequest, completion: @escaping @Sendable (Data?, Swift.Error?) -> Void) -> BankTransportTask {
        sent.modify { $0.append(request) }
        let key = FakeTransport.key(request.path, cursor: request.query["cursor"])
        if hold {
            let cancelled = self.cancelled
            return Task {
                cancelled.append(key)
                completion(nil, URLError(.cancelled))
            }
        }
        let data = responses[key]
        let error = errors[key]
        DispatchQueue.global().async {
            if let data = data {
                completion(data, nil)
            } else {
                completion(nil, error ?? BankAPIError.http(status: 404))
            }
        }
        return Task {}
    }
}

/// FX rates from a table, counting calls; with `hold`, never answers and records the cancel.
final class FakeFXProvider: FXRateProviding, @unchecked Sendable {
    var rates: [CurrencyPair: Double]
    var hold = false
    var failing = false
    let calls = Locked<[String]>([])
    let callQueues = Locked<[String]>([])
    let cancels = Locked<Int>(0)

    init(rates: [CurrencyPair: Double] = Fixtures.rates) {
        self.rates = rates
    }

    func latestRate(for pair: CurrencyPair) -> StdPromise<FXRate> {
        calls.append(pair.description)
        callQueues.append(QueueProbe.current)
        if failing {
            return StdPromise(rejected: BankAPIError.http(status: 503))
        }
        if hold {
            let cancels = self.cancels
            return StdPromise(on: .immediate) { resolver in
                resolver.onRequestCancel(on: .immediate) { resolver in
                    cancels.modify { $0 += 1 }
                    resolver.cancel()
                }
            }
        }
        return FixedRateProvider(rates: rates).latestRate(for: pair).delay(on: .utility, 0.01)
    }
}

/// A fraud provider with a fixed score, or one that never answers (`hold`).
final class FakeFraudProvider: FraudScreening, @unchecked Sendable {
    let score: Int
    let hold: Bool
    let name: String
    let screened = Locked<Int>(0)
    let cancels = Locked<Int>(0)

    init(name: String = "fake", score: Int = 10, hold: Bool = false) {
        self.name = name
        self.score = score
        self.hold = hold
    }

    func screen(_ request: TransferRequest) -> FraudPromise {
        screened.modify { $0 += 1 }
        let cancels = self.cancels, score = self.score, hold = self.hold, name = self.name
        return Promise(on: .utility) { resolver in
            resolver.onRequestCancel(on: .immediate) { resolver in
                cancels.modify { $0 += 1 }
                resolver.cancel()
            }
            if !hold {
                resolver.fulfill(with: FraudVerdict(score: score, provider: name))
            }
        }
    }
}

final class FakeRail: InstantPaymentRail, @unchecked Sendable {
    var hold = false
    var failure: LedgerError?
    let sent = Locked<[String]>([])
    let cancelled = Locked<[String]>([])

    func send(amount: Money, to account: AccountID, reference: String, completion: @escaping @Sendable (Result<String, LedgerError>) -> Void) {
        sent.append("\(amount) -> \(account)")
        if hold { return }
        let failure = self.failure
        DispatchQueue.global().async {
            completion(failure.map { .failure($0) } ?? .success("RAIL-\(reference)"))
        }
    }

    func cancel(reference: String) {
        cancelled.append(reference)
    }
}

/// Fails the first `failures` deliveries of each item with `error`, then delivers.
final class FakeOutboxSender: OutboxSending, @unchecked Sendable {
    var failures: Int
    var error: LedgerError
    /// When set, deliveries wait for `release()`.
    var holding = false
    let attempts = Locked<[String]>([])
    let delivered = Locked<[String]>([])
    private let held = Locked<[LedgerPromise<Void>.Resolver]>([])

    init(failures: Int = 0, error: LedgerError = .offline) {
        self.failures = failures
        self.error = error
    }

    func deliver(_ item: OutboxItem) -> LedgerPromise<Void> {
        let attempt = attempts.modify { attempts -> Int in
            attempts.append(item.payload)
            return attempts.filter { $0 == item.payload }.count
        }
        if attempt <= failures {
            return Promise(rejected: error)
        }
        let delivered = self.delivered
        if holding {
            let held = self.held
            return Promise(on: .immediate) { resolver in
                held.modify { $0.append(resolver) }
            }.then(on: .immediate) {
                delivered.append(item.payload)
            }
        }
        return Promise(on: .utility) { resolver in
            delivered.append(item.payload)
            resolver.fulfill(with: ())
        }
    }

    /// Completes every delivery that is waiting.
    func release() {
        let resolvers = held.modify { held -> [LedgerPromise<Void>.Resolver] in
            defer { held.removeAll() }
            return held
        }
        for resolver in resolvers {
            resolver.fulfill(with: ())
        }
    }
}

final class FakeVault: CredentialVault, @unchecked Sendable {
    var token: String?
    var error: Swift.Error?
    let reads = Locked<Int>(0)

    init(token: String? = nil, error: Swift.Error? = nil) {
        self.token = token
        self.error = error
    }

    func readToken(forBank bankID: String, completion: @escaping (String?, Swift.Error?) -> Void) {
        reads.modify { $0 += 1 }
        let token = self.token, error = self.error
        completion(token, error)
    }

    func storeToken(_ token: String, forBank bankID: String, completion: @escaping (Swift.Error?) -> Void) {
        self.token = token
        completion(nil)
    }
}

final class FakeRenderer: PDFRendering, @unchecked Sendable {
    let rendered = Locked<[String]>([])

    func renderPDF(html: String) async throws -> Data {
        rendered.append(html)
        return Data("%PDF \(html.count)".utf8)
    }
}

struct FakeRecords: RecordFetching {
    var records: [String: Data]

    func fetchRecord(kind: String, id: String) -> StdPromise<Data> {
        if let data = records["\(kind)/\(id)"] {
            return StdPromise(fulfilled: data)
        }
        return StdPromise(rejected: URLError(.fileDoesNotExist))
    }
}
