import Foundation
import XCTest
@testable import RelayCore

// The twin tests' own copy of the corpus's test world (RelayCoreTests has the same).

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
