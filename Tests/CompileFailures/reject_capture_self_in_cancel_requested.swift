// The README's resource de-duplication on a non-Sendable loader: `cancelRequested` runs on
// `.main`, but `self` is not Sendable.
import Foundation
import Tomorrowland

final class ResourceLoader {
    var resourceLoads: [URL: StdPromise<Data>] = [:]

    func loadResource(_ request: StdPromise<Data>, at url: URL) -> StdPromise<Data> {
        let promise = request.propagatingCancellation(on: .main, cancelRequested: { promise in
            self.resourceLoads[url] = nil // expected-error: capture of 'self' with non-Sendable type 'ResourceLoader'
        })
        resourceLoads[url] = promise
        return promise.makeChild()
    }
}
