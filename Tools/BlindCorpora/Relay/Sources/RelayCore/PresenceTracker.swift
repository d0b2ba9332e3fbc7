import Foundation
import Tomorrowland

/// Who is online. An actor: syncs may come from any thread.
actor PresenceTracker {
    let transport: FakeTransport
    let journal: Journal
    private(set) var inFlight = 0
    private(set) var statuses: [String: Presence] = [:]
    private(set) var failedSyncs = 0

    init(transport: FakeTransport, journal: Journal) {
        self.transport = transport
        self.journal = journal
    }

    func sync(_ user: String) -> StdPromise<Presence> {
        inFlight += 1
        journal.log("sync \(user)")
        return transport.presence(of: user)
            .then { presence in
                self.statuses[user] = presence
                self.journal.log("synced \(user)")
            }
            .catch { error in
                self.failedSyncs += 1
                self.journal.log("sync \(user) failed")
            }
            .always { _ in
                self.inFlight -= 1
            }
    }

    /// Two syncs in a row, then a note of how many are out.
    func syncPair(_ first: String, _ second: String) -> StdPromise<[Presence]> {
        let one = sync(first)
        let two = sync(second)
        journal.log("pair in flight \(inFlight)")
        return when(fulfilled: [one, two])
    }

    /// Online or not, as a promise that cannot fail.
    func isOnline(_ user: String) -> Promise<Bool, NoError> {
        journal.log("ask \(user)")
        return sync(user)
            .map(on: .immediate) { presence in presence == .online }
            .recover(on: .immediate) { _ in false }
    }

    func status(of user: String) -> Presence? {
        statuses[user]
    }
}
