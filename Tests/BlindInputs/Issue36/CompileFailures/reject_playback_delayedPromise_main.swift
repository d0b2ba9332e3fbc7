// MUST NOT COMPILE (Swift 5 and 6): a DelayedPromise(on: .main) body in a custom-global-actor class.
import Dispatch
import Tomorrowland

@globalActor
actor PlaybackActor {
    static let shared = PlaybackActor()
}

@PlaybackActor
final class Player {
    var count = 0

    func go() -> StdDelayedPromise<Int> {
        StdDelayedPromise<Int>(on: .main) { resolver in
            resolver.fulfill(with: 1)
            self.count += 1 // REJECT
        }
    }
}
