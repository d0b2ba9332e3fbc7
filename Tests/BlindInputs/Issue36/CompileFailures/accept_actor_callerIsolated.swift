// MUST COMPILE (Swift 5 and 6): in an actor, no context keeps the actor (documented); a .main
// callback may read a nonisolated let of Sendable type.
import Dispatch
import Tomorrowland

actor Store {
    var state = 0
    let name = "store"

    func go(_ p: StdPromise<Int>) {
        _ = p.then { _ in self.state = 1 }
        _ = p.always { _ in self.state += 1 }
        _ = p.then(on: .main) { _ in print(self.name) }
        _ = p.then(on: .nowOr(.main)) { value in print(value) }
    }
}
