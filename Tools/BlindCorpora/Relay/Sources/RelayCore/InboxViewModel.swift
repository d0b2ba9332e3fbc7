import Foundation
import Tomorrowland

/// The inbox screen's state. Lives on the main actor, like the UI.
@MainActor
final class InboxViewModel {
    let inbox: Inbox
    let contacts: ContactsCache
    let journal: Journal
    /// Where screen updates are delivered.
    let delivery: PromiseContext = .main
    private(set) var rows: [String] = []
    private(set) var isLoading = false
    private(set) var loads = 0
    private(set) var errorText: String?
    private(set) var title = ""

    init(inbox: Inbox, contacts: ContactsCache, journal: Journal) {
        self.inbox = inbox
        self.contacts = contacts
        self.journal = journal
    }

    func load() -> Promise<[String], RelayError> {
        isLoading = true
        loads += 1
        journal.log("vm load \(loads)")
        return inbox.refresh()
            .map(on: .utility) { messages in
                messages.map { "\($0.from): \($0.text)" }
            }
            .then { rows in
                self.rows = rows
                self.journal.log("vm rows \(rows.count)")
            }
            .catch(on: .main) { error in
                self.errorText = "\(error)"
                self.journal.log("vm error \(error)")
            }
            .always { _ in
                self.isLoading = false
                self.journal.log("vm idle")
            }
    }

    func showSender(_ id: String) -> Promise<String, RelayError> {
        journal.log("vm sender \(id)")
        return contacts.displayName(id).then(on: delivery) { name in
            self.title = name
            self.journal.log("vm title \(name)")
        }
    }

    /// Loads the rows and the sender's name together, then notes that both are on their way.
    func openConversation(with id: String) -> Promise<String, RelayError> {
        let rows = load()
        let sender = showSender(id)
        journal.log("vm open \(id), loading \(isLoading)")
        return when(fulfilled: rows, sender).map(on: .immediate) { _, name in
            name
        }
    }
}
