// MUST COMPILE (Swift 5 and 6): in a custom-global-actor class, no context / .auto / .immediate
// keep the actor (documented), and a .main callback that touches no actor state is fine.
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
        _ = p.then { _ in self.count += 1 }
        _ = p.then(on: .auto) { _ in self.count += 1 }
        _ = p.then(on: .immediate) { _ in self.count += 1 }
        _ = p.then(on: .main) { value in print(value) }
        _ = p.then(on: .nowOr(.main)) { value in print(value) }
    }
}
