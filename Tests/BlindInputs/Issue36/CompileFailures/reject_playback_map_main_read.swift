// MUST NOT COMPILE (Swift 5 and 6): reading PlaybackActor state in a .main map callback.
import Dispatch
import Tomorrowland

@globalActor
actor PlaybackActor {
    static let shared = PlaybackActor()
}

@PlaybackActor
final class Player {
    var count = 0

    func go(_ p: StdPromise<Int>) -> StdPromise<Int> {
        p.map(on: .main) { v -> Int in
            var total = v
            total += self.count // REJECT
            return total
        }
    }
}
