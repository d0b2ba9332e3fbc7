import Foundation
import Tomorrowland

/// Contacts, looked up once and then served from memory.
final class ContactsCache {
    let transport: FakeTransport
    let journal: Journal
    private var cache: [String: Contact] = [:]
    private(set) var lookups = 0
    private(set) var hits = 0

    init(transport: FakeTransport, journal: Journal) {
        self.transport = transport
        self.journal = journal
    }

    func contact(_ id: String) -> Promise<Contact, RelayError> {
        lookups += 1
        if let cached = cache[id] {
            hits += 1
            journal.log("contact \(id) hit")
            return Promise(fulfilled: cached)
        }
        journal.log("contact \(id) miss")
        return transport.lookup(id).then(on: .nowOr(.main)) { contact in
            self.cache[id] = contact
            self.journal.log("contact \(id) stored")
        }
    }

    /// The name to show: upper-cased, at once when the contact is cached.
    func displayName(_ id: String) -> Promise<String, RelayError> {
        contact(id).map(on: .immediate) { contact in
            self.journal.log("name \(id)")
            return contact.name.uppercased()
        }
    }

    /// The name, or "Unknown" when the lookup fails.
    func displayNameOrUnknown(_ id: String) -> Promise<String, NoError> {
        displayName(id).recover(on: .immediate) { error in
            self.journal.log("unknown \(id)")
            return "Unknown"
        }
    }

    /// Looks up several contacts at once.
    func warm(_ ids: [String]) -> Promise<[Contact], RelayError> {
        journal.log("warm \(ids.count)")
        let all = ids.map { contact($0) }
        journal.log("warm issued, lookups \(lookups)")
        return when(fulfilled: all)
    }

    func forget(_ id: String) {
        cache[id] = nil
    }
}
