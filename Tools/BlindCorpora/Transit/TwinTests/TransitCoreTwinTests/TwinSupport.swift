import Foundation
import TransitCore
import XCTest

/// Awaits `body` and checks that it throws `expected`.
func assertThrows<T>(_ expected: TransitError, file: StaticString = #filePath, line: UInt = #line,
                     _ body: () async throws -> T) async {
    do {
        let value = try await body()
        XCTFail("expected \(expected), got \(value)", file: file, line: line)
    } catch let error as TransitError {
        XCTAssertEqual(error, expected, file: file, line: line)
    } catch {
        XCTFail("expected \(expected), got \(error)", file: file, line: line)
    }
}

/// Waits (without blocking) until `condition` holds; false if it never did.
func eventuallyAsync(timeout: TimeInterval = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return true
}

enum TwinPlaces {
    static let nearMarket = Coordinate(latitude: 0.0021, longitude: 0)
    static let nearCentral = Coordinate(latitude: 0.0001, longitude: 0)
    static let nearUniversity = Coordinate(latitude: 0.0301, longitude: 0.0301)
    static let nearAirport = Coordinate(latitude: 0.2, longitude: 0.2)
}
