// A `Promise` whose value is a non-Sendable class is not Sendable: it cannot be sent into a
// `Task` while the caller keeps using it.
import Tomorrowland

final class Document {
    var title = ""
}

func open(_ document: Promise<Document, String>) {
    Task { // expected-error: risks causing data races
        _ = document.result
    }
    document.requestCancel()
}
