// A closure on a named context that goes back to the main queue before it touches main-actor
// state: right in 1.x, and it compiles as it is. Only the closure that touches the state on the
// queue itself is listed.
import Foundation
import Tomorrowland

@MainActor
final class FirmwareScreen {
    var phase = 0

    func start(_ value: StdPromise<Int>) {
        _ = value.map(on: .utility) { number -> Int in
            DispatchQueue.main.async { self.phase = number }
            return number * 2
        }
        _ = value.map(on: .utility) { number -> Int in
            let total = number + self.phase
            DispatchQueue.main.async { self.phase = total }
            return total
        }
    }
}
