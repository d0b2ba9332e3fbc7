// `PromiseResult` and `TokenPromise` are conditionally Sendable as well.
import Tomorrowland

final class Thumbnail {
    var bytes: [UInt8] = []
}

func inspect(_ result: PromiseResult<Thumbnail, String>, _ wrapped: TokenPromise<Thumbnail, String>, on ready: Promise<Int, String>) {
    _ = ready.then(on: .utility) { _ in
        _ = result.value // expected-error: capture of 'result' with non-Sendable type 'PromiseResult<Thumbnail, String>'
        _ = wrapped.inner // expected-error: capture of 'wrapped' with non-Sendable type 'TokenPromise<Thumbnail, String>'
    }
}
