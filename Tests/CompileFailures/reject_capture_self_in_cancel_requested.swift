// The README's resource de-duplication on a non-Sendable loader: `cancelRequested` is a
// main-actor closure (`.main`), but `self` is not Sendable, so it cannot be sent there.
import Foundation
import Tomorrowland

final class ResourceLoader {
    var resourceLoads: [URL: StdPromise<Data>] = [:]

    func loadResource(_ request: StdPromise<Data>, at url: URL) -> StdPromise<Data> {
        let promise = request.propagatingCancellation(on: .main, cancelRequested: { promise in
            self.resourceLoads[url] = nil // expected-error: sending 'self' risks causing data races
        })
        resourceLoads[url] = promise
        return promise.makeChild()
    }
}
