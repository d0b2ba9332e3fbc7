import Foundation
import XCTest
import LedgerCore
import Tomorrowland

final class StatementTests: XCTestCase {
    private func seededStore() throws -> LedgerStore {
        let store = Fixtures.store()
        _ = try value(of: store.insert([
            Fixtures.transaction("dec", -1000, "Old", day: 20, month: Month(year: 2023, month: 12)),
            Fixtures.transaction("j1", -2500, "Market", day: 3),
            Fixtures.transaction("j2", 10_000, "Payroll \"Inc\"", day: 25),
            Fixtures.transaction("f1", -500, "Rail", day: 2, month: Fixtures.february),
        ]))
        return store
    }

    func testStatementWalksBalancesBackFromToday() throws {
        let builder = StatementBuilder(store: try seededStore())
        let statement = try value(of: builder.statement(for: "checking", month: Fixtures.january))
        // Today: 1000 - 10 - 25 + 100 - 5 = 1060
        XCTAssertEqual(statement.closing, Money(1065, .eur))
        XCTAssertEqual(statement.opening, Money(990, .eur))
        XCTAssertEqual(statement.lines.map(\.id), ["j1", "j2"])
    }

    func testRecentStatementsNewestFirst() throws {
        let builder = StatementBuilder(store: try seededStore())
        let statements = try value(of: builder.recentStatements(for: "checking", count: 3, endingIn: Fixtures.february))
        XCTAssertEqual(statements.map(\.month), [Fixtures.february, Fixtures.january, Month(year: 2023, month: 12)])
        XCTAssertEqual(statements[0].opening, statements[1].closing)
    }

    func testRememberedStatementsComeBackAtOnce() throws {
        let builder = StatementBuilder(store: try seededStore())
        let statement = try value(of: builder.statement(for: "checking", month: Fixtures.january))
        builder.remember(statement)
        XCTAssertEqual(builder.statement(for: "checking", month: Fixtures.january).result, .value(statement))
    }

    func testCSVExport() throws {
        let statement = try value(of: StatementBuilder(store: try seededStore()).statement(for: "checking", month: Fixtures.january))
        let file = try value(of: CSVStatementExporter().export(statement))
        XCTAssertEqual(file.name, "statement-checking-2024-01.csv")
        XCTAssertEqual(file.mimeType, "text/csv")
        XCTAssertEqual(file.text, [
            "date,payee,category,amount_minor",
            "2024-01-03,\"Market\",uncategorised,-2500",
            "2024-01-25,\"Payroll \"\"Inc\"\"\",uncategorised,10000",
            "",
        ].joined(separator: "\n"))
    }

    func testLargeCSVExportsGoThroughTheBackgroundPath() throws {
        let statement = try value(of: StatementBuilder(store: try seededStore()).statement(for: "checking", month: Fixtures.january))
        let exporter = CSVStatementExporter()
        exporter.inlineLimit = 0
        XCTAssertEqual(try value(of: exporter.export(statement)).text?.components(separatedBy: "\n").count, 4)
    }

    func testExportAllUsesTheSubclassFormatInOrder() throws {
        let builder = StatementBuilder(store: try seededStore())
        let statements = try value(of: builder.recentStatements(for: "checking", count: 2, endingIn: Fixtures.february))
        let csv = try value(of: CSVStatementExporter().exportAll(statements))
        XCTAssertEqual(csv.map(\.name), ["statement-checking-2024-02.csv", "statement-checking-2024-01.csv"])
        let text = try value(of: StatementExporter().exportAll(statements))
        XCTAssertEqual(text.map(\.mimeType), ["text/plain", "text/plain"])
        XCTAssertTrue(text[1].text?.hasPrefix("Statement Checking 2024-01\nOpening balance: 990.00 EUR") == true)
    }

    func testPDFExportIsAsync() async throws {
        let store = try seededStore()
        let statement = try await StatementBuilder(store: store).statement(for: "checking", month: Fixtures.january).awaitValue()
        let renderer = FakeRenderer()
        let file = try await PDFStatementExporter(renderer: renderer, store: store).export(statement)
        XCTAssertEqual(file.name, "statement-checking-2024-01.pdf")
        XCTAssertEqual(file.mimeType, "application/pdf")
        XCTAssertTrue(renderer.rendered.value[0].contains("<footer>Current balance: 1060.00 EUR</footer>"))
    }

    func testPDFExporterStillOffersThePlainTextPromise() throws {
        let statement = try value(of: StatementBuilder(store: try seededStore()).statement(for: "checking", month: Fixtures.january))
        let exporter: StatementExporter = PDFStatementExporter(renderer: FakeRenderer())
        let file = try value(of: exporter.export(statement))
        XCTAssertEqual(file.name, "statement-checking-2024-01.pdf")
        XCTAssertEqual(file.mimeType, "text/plain")
    }
}
