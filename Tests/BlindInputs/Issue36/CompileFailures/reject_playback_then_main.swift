// MUST NOT COMPILE (Swift 5 and 6): a .main callback in a custom-global-actor class runs on
// the main queue, so mutating PlaybackActor state there would be a data race.
import Dispatch
import Tomorrowland

@globalActor
actor PlaybackActor {
    static let shared = PlaybackActor()
}

@PlaybackActor
final class Player {
    var count = 0

    func go(_ p: StdPromise<Int>) {
        _ = p.then(on: .main) { _ in
            print("then")
            self.count += 1 // REJECT
        }
    }
}
