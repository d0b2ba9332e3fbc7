import Foundation
import LedgerCore
import Tomorrowland

/// "Import from bank" on an account screen.
@MainActor
public final class ImportViewModel {
    public enum Status: Equatable {
        case idle
        case importing(AccountID)
        case finished(ImportSummary)
        case failed(String)
    }

    public private(set) var status: Status = .idle
    public private(set) var history: [String] = []
    private let promiseToken = PromiseInvalidationToken()
    private let makeImporter: () -> TransactionImporter

    public init(makeImporter: @escaping () -> TransactionImporter) {
        self.makeImporter = makeImporter
    }

    /// Starts an import; one already running is cancelled and its callbacks silenced.
    public func startImport(_ account: AccountID) {
        promiseToken.invalidate()
        status = .importing(account)
        history.append("start \(account)")
        makeImporter().importAll(into: account)
            .withToken(promiseToken)
            .then { [weak self] summary in
                self?.history.append("finished \(summary.inserted)/\(summary.fetched)")
                self?.status = .finished(summary)
            }
            .catch { [weak self] error in
                self?.history.append("failed")
                self?.status = .failed("\(error)")
            }
    }

    /// Imports only the last `days` days.
    public func quickImport(_ account: AccountID, days: Int) -> LedgerPromise<ImportSummary> {
        let since = Date().addingTimeInterval(-Double(days) * 86_400)
        history.append("quick \(account)")
        return makeImporter().importRecent(into: account, since: since)
            .withToken(promiseToken)
            .mapResult(on: .main, onComplete: { [weak self] result in
                if case .value(let summary) = result {
                    self?.status = .finished(summary)
                }
                return result
            })
            .inner
    }

    public func cancelImport() {
        promiseToken.invalidate()
        status = .idle
        history.append("cancelled")
    }
}
