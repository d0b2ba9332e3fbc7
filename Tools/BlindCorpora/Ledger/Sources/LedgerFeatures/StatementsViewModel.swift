import Foundation
import LedgerCore
import Tomorrowland

extension PromiseContext {
    /// Exports write files; keep them off the queues the UI waits on.
    static let exports = PromiseContext.operationQueue(StatementsViewModel.exportQueue)
}

/// Statements of one account: which months exist, and exporting them.
@MainActor
public final class StatementsViewModel {
    nonisolated static let exportQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "com.example.ledger.exports"
        queue.maxConcurrentOperationCount = 2
        return queue
    }()

    public private(set) var months: [Month] = []
    public private(set) var exported: [ExportedFile] = []
    public private(set) var errorMessage: String?
    public private(set) var isLoadingMonths = false

    private let account: AccountID
    private let store: LedgerStoring
    private let builder: StatementBuilder
    private let exporter: StatementExporter

    public init(account: AccountID, store: LedgerStoring, exporter: StatementExporter = CSVStatementExporter()) {
        self.account = account
        self.store = store
        self.builder = StatementBuilder(store: store)
        self.exporter = exporter
    }

    /// The months with transactions, newest first. Loaded on first use and shared.
    public lazy var availableMonths = StdDelayedPromise<[Month]>(on: .main) { [weak self] resolver in
        guard let self = self else {
            resolver.cancel()
            return
        }
        self.isLoadingMonths = true
        resolver.resolve(with: self.store.transactions(for: self.account, in: nil).std.map(on: .utility) { transactions in
            Array(Set(transactions.map { Month(containing: $0.bookedAt) })).sorted(by: >)
        })
    }

    /// Shows the months list.
    public func showMonths() -> StdPromise<[Month]> {
        return availableMonths.promise.then { [weak self] months in
            self?.months = months
            self?.isLoadingMonths = false
        }
    }

    /// Builds and exports the statement of `month`.
    public func export(_ month: Month) -> StdPromise<ExportedFile> {
        errorMessage = nil
        return builder.statement(for: account, month: month).std
            .flatMap(on: .main) { [weak self] statement -> StdPromise<ExportedFile> in
                guard let self = self else { return StdPromise(with: .cancelled) }
                self.builder.remember(statement)
                return self.exporter.export(statement)
            }
            .tap(on: .exports) { result in
                LedgerLog.shared.record("export \(month): \(result.value?.name ?? "failed")")
            }
            .then { [weak self] file in
                self?.exported.append(file)
            }
            .catch { [weak self] error in
                self?.errorMessage = "Export failed: \(error)"
            }
    }
}
