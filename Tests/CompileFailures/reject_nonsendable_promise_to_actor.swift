// Passing a non-Sendable `Promise` to an actor and then using it again is a data race.
import Tomorrowland

final class Document {
    var title = ""
}

actor DocumentStore {
    var pending: [Promise<Document, String>] = []
    func track(_ promise: Promise<Document, String>) {
        pending.append(promise)
    }
}

func track(_ store: DocumentStore) async {
    let promise = Promise<Document, String>(fulfilled: Document())
    await store.track(promise) // expected-error: sending 'promise' risks causing data races
    promise.requestCancel()
}
