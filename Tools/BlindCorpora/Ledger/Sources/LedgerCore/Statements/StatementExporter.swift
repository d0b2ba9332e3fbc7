import Foundation
import Tomorrowland

public enum ExportError: Error, Equatable {
    case encodingFailed
    case rendererUnavailable
}

/// Turns statements into files. The base class writes plain text; subclasses pick formats.
open class StatementExporter {
    public init() {}

    open var fileExtension: String { "txt" }

    /// Exports one statement on a background queue.
    open func export(_ statement: Statement) -> StdPromise<ExportedFile> {
        let name = StatementFormatter.fileName(for: statement, extension: fileExtension)
        return StdPromise<Statement>(fulfilled: statement)
            .map(on: .utility, StatementFormatter.plainText)
            .tryMap(on: .utility) { text in
                guard let data = text.data(using: .utf8) else { throw ExportError.encodingFailed }
                return ExportedFile(name: name, mimeType: "text/plain", contents: data)
            }
    }

    /// Exports several statements concurrently; the files come back in the same order.
    public func exportAll(_ statements: [Statement]) -> StdPromise<[ExportedFile]> {
        return when(fulfilled: statements.map { export($0) })
    }
}

/// CSV for spreadsheets. Small statements are formatted inline, large ones on a background queue.
public final class CSVStatementExporter: StatementExporter {
    public var inlineLimit = 50

    public override init() {}

    override public var fileExtension: String { "csv" }

    override public func export(_ statement: Statement) -> StdPromise<ExportedFile> {
        let name = StatementFormatter.fileName(for: statement, extension: fileExtension)
        let isSmall = statement.lines.count <= inlineLimit
        return StdPromise<Statement>(fulfilled: statement)
            .map(on: isSmall ? .immediate : .utility, StatementFormatter.csv)
            .tryMap(on: .utility) { csv in
                guard let data = csv.data(using: .utf8) else { throw ExportError.encodingFailed }
                return ExportedFile(name: name, mimeType: "text/csv", contents: data)
            }
    }
}

/// Renders HTML to PDF (WebKit in the app).
public protocol PDFRendering: AnyObject, Sendable {
    func renderPDF(html: String) async throws -> Data
}

/// PDF statements. The first feature written with async/await: its `export(_:)` is async.
/// Callers that need a promise still get the plain-text export of the superclass.
public final class PDFStatementExporter: StatementExporter {
    private let renderer: PDFRendering
    private let store: LedgerStoring?

    public init(renderer: PDFRendering, store: LedgerStoring? = nil) {
        self.renderer = renderer
        self.store = store
    }

    override public var fileExtension: String { "pdf" }

    /// Renders `statement` to PDF, with the account's current balance in the footer when a
    /// store is available.
    public func export(_ statement: Statement) async throws -> ExportedFile {
        var footer = ""
        if let store = store {
            let balance = try await store.account(statement.account.id).awaitValue().balance
            footer = "<footer>Current balance: \(balance)</footer>"
        }
        let body = StatementFormatter.plainText(statement)
            .split(separator: "\n")
            .map { "<p>\($0)</p>" }
            .joined()
        let pdf = try await renderer.renderPDF(html: "<html><body>\(body)\(footer)</body></html>")
        return ExportedFile(
            name: StatementFormatter.fileName(for: statement, extension: fileExtension),
            mimeType: "application/pdf",
            contents: pdf)
    }
}
