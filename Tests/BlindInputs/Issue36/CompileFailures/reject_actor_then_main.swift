// MUST NOT COMPILE (Swift 5 and 6): in an actor, a .main callback runs on the main queue, so
// mutating the actor's state there would be a data race.
import Dispatch
import Tomorrowland

actor Store {
    var state = 0

    func go(_ p: StdPromise<Int>) {
        _ = p.then(on: .main) { _ in
            print("then")
            self.state = 1 // REJECT
        }
    }
}
