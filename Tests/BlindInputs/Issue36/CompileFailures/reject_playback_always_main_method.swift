// MUST NOT COMPILE (Swift 5 and 6): calling a PlaybackActor-isolated method from a .main callback.
import Dispatch
import Tomorrowland

@globalActor
actor PlaybackActor {
    static let shared = PlaybackActor()
}

@PlaybackActor
final class Player {
    var count = 0

    func bump() {
        count += 1
    }

    func go(_ p: StdPromise<Int>) {
        _ = p.always(on: .main) { _ in
            print("always")
            self.bump() // REJECT
        }
    }
}
