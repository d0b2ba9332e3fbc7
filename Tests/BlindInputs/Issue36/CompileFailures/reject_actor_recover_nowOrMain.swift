// MUST NOT COMPILE (Swift 5 and 6): recover(on: .nowOr(.main)) mutating actor state.
import Dispatch
import Tomorrowland

actor Store {
    var state = 0

    func go(_ p: StdPromise<Int>) -> Promise<Int, NoError> {
        p.recover(on: .nowOr(.main)) { _ -> Int in
            self.state = -1 // REJECT
            return 0
        }
    }
}
