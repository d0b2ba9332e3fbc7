// The original suite's PromiseResult and NoError tests: accessors, transforms, Equatable,
// Hashable, Codable (the keyed format), Swift.Result conversions.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class PromiseResultTests: XCTestCase {
    func testAccessors() {
        let value = PromiseResult<Int, String>.value(42)
        let error = PromiseResult<Int, String>.error("foo")
        let cancelled = PromiseResult<Int, String>.cancelled
        XCTAssertEqual(value.value, 42)
        XCTAssertNil(value.error)
        XCTAssertFalse(value.isCancelled)
        XCTAssertNil(error.value)
        XCTAssertEqual(error.error, "foo")
        XCTAssertFalse(error.isCancelled)
        XCTAssertNil(cancelled.value)
        XCTAssertNil(cancelled.error)
        XCTAssertTrue(cancelled.isCancelled)
    }

    func testMap() {
        XCTAssertEqual(PromiseResult<Int, String>.value(2).map({ $0 * 2 }), .value(4))
        XCTAssertEqual(PromiseResult<Int, String>.error("e").map({ $0 * 2 }), .error("e"))
        XCTAssertEqual(PromiseResult<Int, String>.cancelled.map({ $0 * 2 }), .cancelled)
        XCTAssertThrowsError(try PromiseResult<Int, String>.value(2).map({ _ -> Int in throw TestError(1) }))
    }

    func testMapError() {
        XCTAssertEqual(PromiseResult<Int, String>.error("abc").mapError({ $0.count }), .error(3))
        XCTAssertEqual(PromiseResult<Int, String>.value(1).mapError({ $0.count }), .value(1))
        XCTAssertEqual(PromiseResult<Int, String>.cancelled.mapError({ $0.count }), .cancelled)
    }

    func testFlatMap() {
        XCTAssertEqual(PromiseResult<Int, String>.value(2).flatMap({ PromiseResult<String, String>.error("x\($0)") }), .error("x2"))
        XCTAssertEqual(PromiseResult<Int, String>.value(2).flatMap({ _ in PromiseResult<String, String>.cancelled }), .cancelled)
        XCTAssertEqual(PromiseResult<Int, String>.error("e").flatMap({ PromiseResult<String, String>.value("\($0)") }), .error("e"))
    }

    func testFlatMapError() {
        XCTAssertEqual(PromiseResult<Int, String>.error("abc").flatMapError({ PromiseResult<Int, Int>.value($0.count) }), .value(3))
        XCTAssertEqual(PromiseResult<Int, String>.value(5).flatMapError({ PromiseResult<Int, Int>.error($0.count) }), .value(5))
        XCTAssertEqual(PromiseResult<Int, String>.cancelled.flatMapError({ PromiseResult<Int, Int>.error($0.count) }), .cancelled)
    }

    func testEquatableAndHashable() {
        XCTAssertEqual(PromiseResult<Int, String>.value(1), .value(1))
        XCTAssertNotEqual(PromiseResult<Int, String>.value(1), .value(2))
        XCTAssertNotEqual(PromiseResult<Int, String>.value(1), .cancelled)
        XCTAssertTrue(PromiseResult<Int, String>.error("a") != .error("b"))
        XCTAssertEqual(PromiseResult<Int, String>.cancelled, .cancelled)
        let set: Set<PromiseResult<Int, String>> = [.value(1), .value(1), .error("a"), .cancelled, .cancelled]
        XCTAssertEqual(set.count, 3)
    }

    func testCodableRoundTrip() throws {
        let results: [PromiseResult<Int, String>] = [.value(42), .error("foo"), .cancelled]
        let data = try JSONEncoder().encode(results)
        let decoded = try JSONDecoder().decode([PromiseResult<Int, String>].self, from: data)
        XCTAssertEqual(decoded, results)
    }

    func testCodableFormat() throws {
        func json(_ result: PromiseResult<Int, String>) throws -> [String: Any] {
            let data = try JSONEncoder().encode(result)
            return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        }
        let value = try json(.value(42))
        XCTAssertEqual(value["value"] as? Int, 42)
        XCTAssertTrue(value["error"] is NSNull)
        let error = try json(.error("foo"))
        XCTAssertEqual(error["error"] as? String, "foo")
        XCTAssertTrue(error["value"] is NSNull)
        let cancelled = try json(.cancelled)
        XCTAssertTrue(cancelled["value"] is NSNull)
        XCTAssertTrue(cancelled["error"] is NSNull)
        XCTAssertEqual(Set(cancelled.keys), ["value", "error"])

        let decoded = try JSONDecoder().decode(PromiseResult<Int, String>.self, from: Data(#"{"error":"bar"}"#.utf8))
        XCTAssertEqual(decoded, .error("bar"))
        let decodedCancel = try JSONDecoder().decode(PromiseResult<Int, String>.self, from: Data(#"{}"#.utf8))
        XCTAssertEqual(decodedCancel, .cancelled)
    }

    func testSwiftResultConversion() {
        XCTAssertEqual(PromiseResult(Result<Int, TestError>.success(1)), .value(1))
        XCTAssertEqual(PromiseResult(Result<Int, TestError>.failure(TestError(2))), .error(TestError(2)))
    }

    func testNoError() throws {
        XCTAssertThrowsError(try JSONDecoder().decode(NoError.self, from: Data("{}".utf8))) { (error) in
            guard case DecodingError.dataCorrupted = error else {
                return XCTFail("expected dataCorrupted, got \(error)")
            }
        }
        let result = PromiseResult<Int, NoError>.value(3)
        let data = try JSONEncoder().encode(result)
        XCTAssertEqual(try JSONDecoder().decode(PromiseResult<Int, NoError>.self, from: data), result)
    }
}
