// PromiseResult (accessors, transforms, Equatable, Hashable, Codable) and NoError.

import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class PromiseResultTests: XCTestCase {
    typealias R = PromiseResult<Int, String>

    func testAccessors() {
        XCTAssertEqual(R.value(1).value, 1)
        XCTAssertNil(R.value(1).error)
        XCTAssertFalse(R.value(1).isCancelled)
        XCTAssertEqual(R.error("e").error, "e")
        XCTAssertNil(R.error("e").value)
        XCTAssertTrue(R.cancelled.isCancelled)
        XCTAssertNil(R.cancelled.value)
        XCTAssertNil(R.cancelled.error)
    }

    func testTransforms() throws {
        XCTAssertEqual(R.value(2).map { $0 * 2 }, .value(4))
        XCTAssertEqual(R.error("e").map { $0 * 2 }, .error("e"))
        XCTAssertEqual(R.cancelled.map { $0 * 2 }, .cancelled)
        XCTAssertEqual(R.error("e").mapError { $0.count }, PromiseResult<Int, Int>.error(1))
        XCTAssertEqual(R.value(1).mapError { $0.count }, PromiseResult<Int, Int>.value(1))
        XCTAssertEqual(R.value(2).flatMap { _ in R.error("x") }, .error("x"))
        XCTAssertEqual(R.error("e").flatMap { R.value($0) }, .error("e"))
        XCTAssertEqual(R.error("e").flatMapError { _ in PromiseResult<Int, Int>.value(9) }, .value(9))
        XCTAssertEqual(R.cancelled.flatMapError { _ in PromiseResult<Int, Int>.value(9) }, .cancelled)
        XCTAssertThrowsError(try R.value(1).map { _ -> Int in throw TestError() })
        XCTAssertEqual(PromiseResult(Result<Int, TestError>.success(3)), .value(3))
        XCTAssertEqual(PromiseResult(Result<Int, TestError>.failure(TestError(3))), .error(TestError(3)))
    }

    func testEquatableAndHashable() {
        let all: [R] = [.value(1), .value(2), .error("1"), .error("2"), .cancelled]
        for (i, a) in all.enumerated() {
            for (j, b) in all.enumerated() {
                XCTAssertEqual(a == b, i == j)
                XCTAssertEqual(a != b, i != j)
            }
        }
        XCTAssertEqual(Set(all + all).count, all.count)
        XCTAssertEqual(R.value(1).hashValue, R.value(1).hashValue)
        XCTAssertNotEqual(PromiseResult<Int, Int>.value(1), PromiseResult<Int, Int>.error(1))
    }

    func testCodableWritesBothKeysWithExplicitNil() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json(_ r: PromiseResult<Int, String>) throws -> String {
            String(decoding: try encoder.encode(r), as: UTF8.self)
        }
        XCTAssertEqual(try json(.value(1)), #"{"error":null,"value":1}"#)
        XCTAssertEqual(try json(.error("e")), #"{"error":"e","value":null}"#)
        XCTAssertEqual(try json(.cancelled), #"{"error":null,"value":null}"#)
        let decoder = JSONDecoder()
        for result: R in [.value(1), .error("e"), .cancelled] {
            XCTAssertEqual(try decoder.decode(R.self, from: try encoder.encode(result)), result)
        }
        XCTAssertEqual(try decoder.decode(R.self, from: Data("{}".utf8)), .cancelled)
        XCTAssertThrowsError(try decoder.decode(R.self, from: Data(#"{"value":"not an int"}"#.utf8)))
    }

    func testNoErrorResultCodable() throws {
        let encoded = try JSONEncoder().encode(PromiseResult<Int, NoError>.value(5))
        XCTAssertEqual(try JSONDecoder().decode(PromiseResult<Int, NoError>.self, from: encoded), .value(5))
        let cancelled = try JSONEncoder().encode(PromiseResult<Int, NoError>.cancelled)
        XCTAssertEqual(try JSONDecoder().decode(PromiseResult<Int, NoError>.self, from: cancelled), .cancelled)
    }

    func testNoErrorDecodingThrows() {
        XCTAssertThrowsError(try JSONDecoder().decode([NoError].self, from: Data(#"[{}]"#.utf8))) { error in
            guard case DecodingError.dataCorrupted = error else {
                return XCTFail("expected dataCorrupted, got \(error)")
            }
        }
        XCTAssertThrowsError(try JSONDecoder().decode(PromiseResult<Int, NoError>.self, from: Data(#"{"value":null,"error":{}}"#.utf8)))
    }
}
