// `convert-calls` in synchronous XCTest methods (`TestBridges`): a test that waits for a promise
// through its result helper becomes an `async throws` test that awaits the async twin (exact
// text), the other readings of the helper are left with their reason, the converted tests
// compile in Swift 6 and 5 mode, and a second run changes nothing.

import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("convert-calls: tests that wait through a result helper")
struct TestBridgesTests {
    static let expectedTests = """
        final class ServiceTests: XCTestCase {
            let service = Service()

            @MainActor func testNames() async throws {
                let names = try? await service.names()
                XCTAssertEqual(names?.count, 2)
                XCTAssertEqual(names?.first, "a")
            }

            @MainActor func testFindAndCount() async throws {
                let find = try? await service.find(1)
                XCTAssertEqual(find, "item 1")
                let count = try? await service.count()
                XCTAssertEqual(count?.description, "1", "one request")
            }

            @MainActor func testMissingIsTyped() async throws {
                do {
                    _ = try await service.find(0)
                    XCTFail("expected an error")
                } catch let error as Failure {
                    XCTAssertEqual(error, .missing)
                }
                XCTAssertEqual(service.requests, ["find 0"])
            }

            @MainActor func testAnObserverAndALaterPromise() async throws {
                let later = service.find(2) as Promise<String, Failure>
                let seen = expectation(description: "seen")
                later.then(on: .immediate) { _ in seen.fulfill() }
                let find = try? await service.find(3)
                await fulfillment(of: [seen], timeout: 5)
                XCTAssertEqual(find, "item 3")
                XCTAssertEqual(later.result?.value, "item 2")
            }

            @MainActor func testThroughTheValueAndErrorHelpers() async throws {
                let names = try await service.names()
                XCTAssertEqual(names, ["a", "b"])
                let find = try await service.find(7)
                XCTAssertEqual(find.count, 6)
                do {
                    _ = try await service.find(-1)
                    XCTFail("expected an error")
                } catch let error as Failure {
                    XCTAssertEqual(error, .missing)
                }
            }

            func testCancelIsKept() {
        """

    @Test("converted as a Swift engineer would, the rest listed; it compiles, and a second run changes nothing", arguments: [6, 5])
    func converts(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Support.fixture("TestBridges.swift"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertCalls.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        let tests = try #require(text.range(of: "final class ServiceTests")).lowerBound
        let end = try #require(text.range(of: "func testCancelIsKept() {")).upperBound
        #expect(String(text[tests..<end]) == Self.expectedTests)
        // The helper and the service are as they were.
        #expect(text.contains("        wait(for: [done], timeout: timeout)\n        return box.value"))
        #expect(notes.contains("left `result(of: service.find(5))`: " + TestBridges.Reason.otherUse.text(helper: "result(of:)")), "\(notes)")
        #expect(notes.contains("left `result(of: service.find(6))`: " + TestBridges.Reason.errorMayBeNil.text(helper: "result(of:)")))
        #expect(notes.contains("left `result(of: service.nickname())`: " + TestBridges.Reason.optionalValue.text(helper: "result(of:)")))
        #expect(notes.contains("left `result(of: Loader().load())`: " + TestBridges.Reason.conformer.text(helper: "result(of:)")))
        // The kept promise is counted too, with its reason.
        #expect(notes.contains("left `result(of: promise)`: " + TestBridges.Reason.keptPromise.text(helper: "result(of:)")))
        #expect(notes.last?.hasPrefix("convert-calls: 8 call(s) converted, 5 left") == true, "\(notes)")
        try Support.expectCompiles([("TestBridges.swift", text)], swiftVersion: swiftVersion)

        // A second run finds nothing more to convert.
        try text.write(to: directory.appendingPathComponent("TestBridges.swift"), atomically: true, encoding: .utf8)
        let second = ConvertCalls.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        #expect(second.changes.isEmpty)
        #expect(second.notes.last?.message.hasPrefix("convert-calls: 0 call(s) converted, 6 left") == true, "\(second.notes)")
    }

    static let expectedHelperTests = """
        final class ClinicTests: XCTestCase {
            let clinic = Clinic()

            @MainActor func testSlots() async throws {
                let slots = try await clinic.slots(2)
                XCTAssertEqual(slots.count, 2)
                XCTAssertEqual(slots.first, 20)
            }

            @MainActor func testBookingAndItsSlot() async throws {
                let booking = try await clinic.booking(1)
                XCTAssertEqual(booking, Booking(id: 1, slot: 10))
                XCTAssertEqual(booking.slot, 10)
                let booking2 = try await clinic.booking(2)
                XCTAssertEqual(booking2.id, 2)
                _ = try await clinic.slots(3)
                XCTAssertEqual(clinic.requests, ["booking 1", "booking 2", "slots 3"])
            }

            @MainActor func testMissingBooking() async throws {
                do {
                    _ = try await clinic.booking(0)
                    XCTFail("expected an error")
                } catch let error as Fault {
                    XCTAssertEqual(error, .missing)
                }
                XCTAssertEqual(clinic.requests, ["booking 0"])
            }

            @MainActor func testMissingSlots() async throws {
                do {
                    _ = try await clinic.slots(-1)
                    XCTFail("expected an error")
                } catch let error as Fault {
                    XCTAssertEqual(error, .missing)
                }
            }

            @MainActor func testThroughTheResult() async throws {
                let slots = try? await clinic.slots(1)
                XCTAssertEqual(slots, [10])
            }

            func testAKeptPromise() {
        """

    @Test("helpers that wait on their own (`-> T?`, `-> E?`, `-> PromiseResult?`): converted, every call counted", arguments: [6, 5])
    func convertsStandaloneHelpers(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Support.fixture("TestHelpers.swift"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertCalls.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        let tests = try #require(text.range(of: "final class ClinicTests")).lowerBound
        let end = try #require(text.range(of: "func testAKeptPromise() {")).upperBound
        #expect(String(text[tests..<end]) == Self.expectedHelperTests)
        let left = { (call: String, reason: TestBridges.Reason, helper: String) in
            #expect(notes.contains("left `\(call)`: " + reason.text(helper: helper)), "\(notes)")
        }
        left("waitForValue(promise)", .keptPromise, "waitForValue(_:)")
        left("waitForValue(clinic.booking(5))", .optionalRead(name: "booking", use: "guard let booking else { return }"), "waitForValue(_:)")
        left("waitForValue(clinic.slots(6))", .optionalRead(name: "slots", use: "slots.map"), "waitForValue(_:)")
        left("awaitError(clinic.booking(-2))", .declarationMoved("let requests = clinic.requests"), "awaitError(_:)")
        left("waitForValue(clinic.nickname())", .nestedOptional, "waitForValue(_:)")
        // `peek` records no failure on an error: not a helper, its call not counted.
        #expect(!notes.contains { $0.contains("peek(") }, "\(notes)")
        // Nor a method that has a helper's name and another label.
        #expect(!notes.contains { $0.contains("waitForValue(for:") }, "\(notes)")
        #expect(notes.last?.hasPrefix("convert-calls: 7 call(s) converted, 5 left") == true, "\(notes)")
        try Support.expectCompiles([("TestHelpers.swift", text)], swiftVersion: swiftVersion)

        // A second run finds nothing more to convert.
        try text.write(to: directory.appendingPathComponent("TestHelpers.swift"), atomically: true, encoding: .utf8)
        let second = ConvertCalls.run(SourceSet.load(paths: [directory.path]), oracle: oracle)
        #expect(second.changes.isEmpty)
        #expect(second.notes.last?.message.hasPrefix("convert-calls: 0 call(s) converted, 5 left") == true, "\(second.notes)")
    }

    @Test("a result helper only observes the promise on .immediate and waits for an expectation")
    func recognisesHelpers() throws {
        let text = """
            import Tomorrowland
            import XCTest

            extension XCTestCase {
                func result<T, E>(of promise: Promise<T, E>) -> PromiseResult<T, E>? {
                    let done = expectation(description: "x")
                    var box: PromiseResult<T, E>?
                    promise.tap(on: .immediate) { box = $0; done.fulfill() }
                    wait(for: [done], timeout: 1)
                    return box
                }

                func cancelling<T, E>(_ promise: Promise<T, E>) -> PromiseResult<T, E>? {
                    let done = expectation(description: "x")
                    var box: PromiseResult<T, E>?
                    promise.tap(on: .immediate) { box = $0; done.fulfill() }
                    promise.requestCancel()
                    wait(for: [done], timeout: 1)
                    return box
                }

                func onMain<T, E>(_ promise: Promise<T, E>) -> PromiseResult<T, E>? {
                    let done = expectation(description: "x")
                    var box: PromiseResult<T, E>?
                    promise.tap(on: .main) { box = $0; done.fulfill() }
                    wait(for: [done], timeout: 1)
                    return box
                }

                func polled<T, E>(_ promise: Promise<T, E>) -> PromiseResult<T, E>? {
                    promise.result
                }
            }
            """
        let file = try #require(SourceSet.inMemory([("Helpers.swift", text)]).files.first)
        #expect(TestBridges.helpers(in: FunctionSite.all(in: file)) == ["result": .result])
    }

    @Test("helpers that wait on their own, by what their body does: a value or error helper records a failure otherwise")
    func recognisesStandaloneHelpers() throws {
        let source = try Support.fixture("TestHelpers.swift").text
        let file = try #require(SourceSet.inMemory([("TestHelpers.swift", source)]).files.first)
        let kinds = TestBridges.helpers(in: FunctionSite.all(in: file))
        #expect(kinds == ["waitForValue": .value(throwing: false), "awaitError": .error, "waitForResult": .result])
        // A plain `var`, a `guard case`, other names: the same helpers.
        let text = """
            import Tomorrowland
            import XCTest

            extension XCTestCase {
                func expectValue<T, E>(_ promise: Promise<T, E>) -> T? {
                    let done = expectation(description: "x")
                    var got: T?
                    promise.always(on: .immediate) { result in
                        guard case .value(let v) = result else {
                            XCTFail("no value")
                            done.fulfill()
                            return
                        }
                        got = v
                        done.fulfill()
                    }
                    waitForExpectations(timeout: 1)
                    return got
                }

                func silentError<T, E>(_ promise: Promise<T, E>) -> E? {
                    let done = expectation(description: "x")
                    var got: E?
                    promise.always(on: .immediate) { result in
                        switch result {
                        case .error(let e): got = e
                        default: break
                        }
                        done.fulfill()
                    }
                    waitForExpectations(timeout: 1)
                    return got
                }

                func cancelledValue<T, E>(_ promise: Promise<T, E>) -> T? {
                    let done = expectation(description: "x")
                    var got: T?
                    promise.always(on: .immediate) { result in
                        if case .value(let v) = result { got = v } else { XCTFail("no value") }
                        done.fulfill()
                    }
                    promise.requestCancel()
                    waitForExpectations(timeout: 1)
                    return got
                }
            }
            """
        let helpers = try #require(SourceSet.inMemory([("Helpers.swift", text)]).files.first)
        // `silentError` records no failure; `cancelledValue` cancels the promise it waits for.
        #expect(TestBridges.helpers(in: FunctionSite.all(in: helpers)) == ["expectValue": .value(throwing: false)])
    }
}
