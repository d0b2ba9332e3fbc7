// MUST COMPILE (Swift 5 and 6): in @MainActor code, callbacks given .main / .nowOr(.main) (and
// no context) use main-actor state directly.
import Dispatch
import Tomorrowland

@MainActor
final class Screen {
    var count = 0

    func go(_ p: StdPromise<Int>) {
        _ = p.then(on: .main) { _ in self.count += 1 }
        _ = p.then(on: .nowOr(.main)) { _ in self.count += 1 }
        _ = p.then { _ in self.count += 1 }
        _ = p.map(on: .main) { v -> Int in v + self.count }
        _ = p.flatMap(on: .main) { v -> StdPromise<Int> in StdPromise<Int>(fulfilled: v + self.count) }
        _ = p.catch(on: .main) { _ in self.count -= 1 }
        _ = p.recover(on: .main) { _ -> Int in self.count }
        _ = p.always(on: .main) { _ in self.count += 1 }
        _ = p.tap(on: .main) { _ in self.count += 1 }
        _ = StdPromise<Int>(on: .main) { resolver in resolver.fulfill(with: self.count) }
        _ = StdDelayedPromise<Int>(on: .main) { resolver in resolver.fulfill(with: self.count) }
    }
}
