// `TokenPromise` callbacks are `@Sendable` too.
import Tomorrowland

final class Label {
    var text = ""
}

func show(_ message: Promise<String, String>, in label: Label, token: PromiseInvalidationToken) {
    _ = message.withToken(token).then { text in
        label.text = text // expected-error: capture of 'label' with non-Sendable type 'Label'
    }
}
