// A non-Sendable class instance captured by a callback that runs on another context.
import Tomorrowland

final class ImageCache {
    var sizes: [String: Int] = [:]
}

func remember(_ size: Promise<Int, String>, in cache: ImageCache) {
    _ = size.then(on: .utility) { value in
        cache.sizes["latest"] = value // expected-error: capture of 'cache' with non-Sendable type 'ImageCache'
    }
}
