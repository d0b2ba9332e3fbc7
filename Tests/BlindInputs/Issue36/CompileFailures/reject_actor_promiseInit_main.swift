// MUST NOT COMPILE (Swift 5 and 6): a Promise(on: .main) body in an actor mutating its state.
import Dispatch
import Tomorrowland

actor Store {
    var state = 0

    func go() -> StdPromise<Int> {
        StdPromise<Int>(on: .main) { resolver in
            resolver.fulfill(with: 1)
            self.state = 1 // REJECT
        }
    }
}
