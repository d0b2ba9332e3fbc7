// MUST NOT COMPILE (Swift 5 and 6): .nowOr(.main) in a custom-global-actor class.
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
        _ = p.then(on: .nowOr(.main)) { _ in
            print("then")
            self.count += 1 // REJECT
        }
    }
}
