// MUST NOT COMPILE (Swift 5 and 6): .nowOr(.main) in an actor, mutating its state.
import Dispatch
import Tomorrowland

actor Store {
    var state = 0

    func go(_ p: StdPromise<Int>) {
        _ = p.then(on: .nowOr(.main)) { _ in
            print("then")
            self.state = 1 // REJECT
        }
    }
}
