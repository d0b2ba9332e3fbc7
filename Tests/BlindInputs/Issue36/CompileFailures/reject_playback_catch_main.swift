// MUST NOT COMPILE (Swift 5 and 6): catch(on: .main) mutating PlaybackActor state.
import Dispatch
import Tomorrowland

@globalActor
actor PlaybackActor {
    static let shared = PlaybackActor()
}

@PlaybackActor
final class Player {
    var failures = 0

    func go(_ p: StdPromise<Int>) {
        _ = p.catch(on: .main) { _ in
            print("catch")
            self.failures += 1 // REJECT
        }
    }
}
