// 1.x style: a callback mutating a captured local `var` (fine in Swift 5 mode, a data race).
import Tomorrowland

func count(_ promises: [Promise<Int, String>]) -> Int {
    var total = 0
    for promise in promises {
        _ = promise.then { value in
            total += value // expected-error: mutation of captured var 'total' in concurrently-executing code
        }
    }
    return total
}
