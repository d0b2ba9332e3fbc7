// `Promise<Value, Error>` is only Sendable when `Value` and `Error` are: capturing a
// promise of a non-Sendable class inside another promise's callback is diagnosed.
import Tomorrowland

final class Thumbnail {
    var bytes: [UInt8] = []
}

func whenReady(_ ready: Promise<Void, String>, thumbnail: Promise<Thumbnail, String>) {
    _ = ready.then(on: .utility) {
        thumbnail.requestCancel() // expected-error: capture of 'thumbnail' with non-Sendable type 'Promise<Thumbnail, String>'
    }
}
