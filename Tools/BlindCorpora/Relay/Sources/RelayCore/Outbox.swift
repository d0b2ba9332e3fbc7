import Foundation
import Tomorrowland

/// Messages on their way out.
final class Outbox {
    let transport: FakeTransport
    let journal: Journal
    private(set) var pending = 0
    private(set) var failures = 0
    private(set) var sent: [Receipt] = []
    private var inFlight: PromiseCancellable?

    init(transport: FakeTransport, journal: Journal) {
        self.transport = transport
        self.journal = journal
    }

    /// Sends one message. `pending` counts it until its callbacks have run.
    func send(_ text: String) -> Promise<Receipt, RelayError> {
        pending += 1
        journal.log("send \(text)")
        let promise = transport.send(text)
            .then(on: .queue(RelayQueues.outbox)) { receipt in
                self.journal.log("sent \(text) @\(RelayQueues.currentName())")
            }
            .catch(on: .utility) { error in
                self.journal.log("failed \(text) \(error) @\(RelayQueues.currentName())")
            }
            .onCancel(on: .immediate) {
                self.journal.log("send \(text) cancelled")
            }
            .always { result in
                self.pending -= 1
                if let receipt = result.value {
                    self.sent.append(receipt)
                } else if result.error != nil {
                    self.failures += 1
                }
                self.journal.log("settled \(text) @\(RelayQueues.currentName())")
            }
        inFlight = promise.cancellable
        return promise
    }

    /// Sends two messages, one after the other, then notes it.
    func sendPair(_ first: String, _ second: String) -> Promise<[Receipt], RelayError> {
        let one = send(first)
        let two = send(second)
        journal.log("pair queued, pending \(pending)")
        return when(fulfilled: [one, two])
    }

    /// Sends, and keeps the message as a draft receipt if the server said no.
    func sendOrKeep(_ text: String) -> Promise<Receipt, NoError> {
        send(text).recover(on: .immediate) { error in
            self.journal.log("kept \(text) after \(error)")
            return Receipt(messageID: -1, text: text)
        }
    }

    /// Sends with a server-side typo check, mapping the transport's error.
    func sendChecked(_ text: String) -> Promise<Receipt, RelayError> {
        journal.log("check \(text)")
        return send(text).mapError(on: .immediate) { error -> RelayError in
            error == .offline ? .rejected("offline: \(text)") : error
        }
    }

    /// Stops the last send, if it is still out.
    func cancelInFlight() {
        journal.log("cancel in flight")
        inFlight?.requestCancel()
    }
}
