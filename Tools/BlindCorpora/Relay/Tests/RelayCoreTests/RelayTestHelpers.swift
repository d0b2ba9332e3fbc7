import Foundation
import XCTest
import Tomorrowland
@testable import RelayCore

/// Holds what a callback saw, for the test thread to read after `wait`.
final class Seen<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?

    func set(_ value: T) {
        lock.lock()
        stored = value
        lock.unlock()
    }

    var value: T? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

/// A transport, a journal and every component on them.
struct World {
    let journal = Journal()
    let transport: FakeTransport
    let inbox: Inbox
    let outbox: Outbox
    let contacts: ContactsCache

    init(mode: FakeTransport.Mode = .synchronous) {
        transport = FakeTransport(mode: mode, journal: journal)
        transport.mailbox = [
            Message(id: 1, from: "ann", text: "hi"),
            Message(id: 2, from: "bob", text: "lunch?"),
        ]
        transport.directory = [
            "ann": Contact(id: "ann", name: "Ann Lee"),
            "bob": Contact(id: "bob", name: "Bob Stone"),
        ]
        transport.presences = ["ann": .online, "bob": .away]
        inbox = Inbox(transport: transport, journal: journal)
        outbox = Outbox(transport: transport, journal: journal)
        contacts = ContactsCache(transport: transport, journal: journal)
    }
}

extension XCTestCase {
    /// Waits for the promise and returns its result, or nil (and a failure) on timeout.
    func awaitResult<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 10,
                           file: StaticString = #filePath, line: UInt = #line) -> PromiseResult<T, E>? {
        let resolved = expectation(description: "promise resolved")
        let seen = Seen<PromiseResult<T, E>>()
        promise.always(on: .immediate) { result in
            seen.set(result)
            resolved.fulfill()
        }
        wait(for: [resolved], timeout: timeout)
        return seen.value
    }

    /// The promise's value, or nil and a failure if it rejected or was cancelled.
    func awaitValue<T, E>(_ promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> T? {
        let result = awaitResult(promise, file: file, line: line)
        guard let value = result?.value else {
            XCTFail("expected a value, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return value
    }

    /// The promise's error, or nil and a failure if it fulfilled or was cancelled.
    func awaitError<T, E>(_ promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> E? {
        let result = awaitResult(promise, file: file, line: line)
        guard let error = result?.error else {
            XCTFail("expected an error, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return error
    }
}

/// Fails unless `first` appears in the journal before `second`.
func XCTAssertBefore(_ entries: [String], _ first: String, _ second: String,
                     file: StaticString = #filePath, line: UInt = #line) {
    guard let a = entries.firstIndex(of: first) else {
        return XCTFail("\"\(first)\" missing from \(entries)", file: file, line: line)
    }
    guard let b = entries.firstIndex(of: second) else {
        return XCTFail("\"\(second)\" missing from \(entries)", file: file, line: line)
    }
    XCTAssertLessThan(a, b, "\"\(first)\" should come before \"\(second)\" in \(entries)", file: file, line: line)
}
