// MUST NOT COMPILE (Swift 5 and 6): calling an actor-isolated method from a .main tap callback.
import Dispatch
import Tomorrowland

actor Store {
    var state = 0

    func bump() {
        state += 1
    }

    func go(_ p: StdPromise<Int>) {
        _ = p.tap(on: .main) { _ in
            print("tap")
            self.bump() // REJECT
        }
    }
}
