// MUST NOT COMPILE (Swift 5 and 6): reading actor state in a .main flatMap callback.
import Dispatch
import Tomorrowland

actor Store {
    var state = 0

    func go(_ p: StdPromise<Int>) -> StdPromise<Int> {
        p.flatMap(on: .main) { v -> StdPromise<Int> in
            var total = v
            total += self.state // REJECT
            return StdPromise<Int>(fulfilled: total)
        }
    }
}
