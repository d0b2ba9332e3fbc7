// Closures stored for later (issue 37): in a stored property's initializer (a `lazy var`'s
// too), Swift 6 mode does not give a closure that keeps the caller's actor the type's actor.
// `adopt` marks such a closure `@MainActor` in a main-actor type and lists it in an actor.
import Foundation
import Tomorrowland

func loadCount() -> StdPromise<Int> { StdPromise(fulfilled: 3) }

@MainActor
final class MonthsModel {
    static var hits = 0
    var count = 0
    var isLoading = false

    /// `.main`: a main-actor closure already; compiles as it is.
    lazy var months = StdDelayedPromise<[Int]>(on: .main) { [weak self] resolver in
        guard let self = self else {
            resolver.cancel()
            return
        }
        self.isLoading = true
        resolver.resolve(with: loadCount().map(on: .utility) { [$0] })
    }

    /// `.auto`: marked `@MainActor`.
    lazy var cached = StdDelayedPromise<Int>(on: .auto) { [weak self] resolver in
        self?.count += 1
        resolver.fulfill(with: 1)
    }

    /// No context: marked `@MainActor`.
    lazy var refreshed = loadCount().then { [weak self] value in self?.count = value }

    /// No signature: `{ @MainActor in … }`.
    lazy var counted = loadCount().then(on: .immediate) { self.count = $0 }

    /// A stored (not lazy) property: the type's static state.
    let warmup = StdDelayedPromise<Int>(on: .immediate) { resolver in
        MonthsModel.hits += 1
        resolver.fulfill(with: 0)
    }

    /// Static: the type's static state, spelled without the type.
    static let shared = StdDelayedPromise<Int>(on: .auto) { resolver in
        hits += 1
        resolver.fulfill(with: 0)
    }

    /// Inside a closure called at once.
    lazy var built: StdDelayedPromise<Int> = {
        StdDelayedPromise<Int>(on: .auto) { [weak self] resolver in
            self?.isLoading = false
            resolver.fulfill(with: 2)
        }
    }()

    /// A named context: the closure runs on that queue (listed, as in a method).
    lazy var background = StdDelayedPromise<Int>(on: .utility) { [weak self] resolver in
        self?.count = 1
        resolver.fulfill(with: 1)
    }

    /// Uses nothing of the type: left alone.
    lazy var plain = StdDelayedPromise<Int>(on: .auto) { resolver in resolver.fulfill(with: 4) }
}

actor Ledger {
    var entries = 0

    /// In an actor: listed (no attribute gives a closure an actor's isolation).
    lazy var loaded = StdDelayedPromise<Int>(on: .auto) { resolver in
        self.entries += 1
        resolver.fulfill(with: 1)
    }
}
