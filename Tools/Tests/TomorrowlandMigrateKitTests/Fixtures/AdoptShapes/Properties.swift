// Stored `PromiseContext` properties given to closures that use an actor's state (issue 37).
// A value's closure is nonisolated, so these do not compile as 1.x wrote them. `adopt` gives a
// property whose every value is `.main`-like the type `PromiseContext.Main`, one whose every
// value is `.auto`/`.immediate`-like `PromiseContext.CallerIsolated`, and lists the others.
import Foundation
import Tomorrowland

/// Top-level, `.nowOr(.main)`: `PromiseContext.Main`.
let uiDelivery: PromiseContext = .nowOr(.main)

func describe(_ context: PromiseContext) -> String { "\(context)" }

@MainActor
final class DeliveryScreen {
    var title = ""
    var shown: [String] = []
    /// `.main`: `PromiseContext.Main`.
    private let delivery: PromiseContext = .main
    /// `.main`, later `.nowOr(.main)`, written without a type: `PromiseContext.Main`.
    private var refresh = PromiseContext.main
    /// Static, a custom context holding `.main`: `PromiseContext.Main`.
    static let fallback = PromiseContext.screen
    /// `.main` and `.immediate`: no one kind holds both (listed).
    private var mixed: PromiseContext = .main
    /// Whatever the caller passed (listed).
    private let injected: PromiseContext

    init(injected: PromiseContext = .main) {
        self.injected = injected
    }

    func show(_ name: StdPromise<String>) {
        name.then(on: delivery) { self.title = $0 }
        name.then(on: self.refresh) { [weak self] in self?.shown.append($0) }
        name.then(on: Self.fallback) { self.title = $0 }
        name.then(on: uiDelivery) { self.shown.append($0) }
        // These want a `PromiseContext`: they get the value the property holds.
        _ = name.delay(on: delivery, 0.01)
        shown.append(describe(refresh))
        name.then(on: mixed) { self.title = $0 }
        name.then(on: injected) { self.title = $0 }
    }

    func reset(fast: Bool) {
        refresh = .nowOr(.main)
        mixed = fast ? .immediate : .main
    }
}

/// Public API: listed, not retyped.
public final class PublicScreen {
    public let delivery: PromiseContext = .main
}

@MainActor
final class PublicScreenUser {
    var title = ""
    let screen = PublicScreen()

    func show(_ name: StdPromise<String>) {
        name.then(on: screen.delivery) { self.title = $0 }
    }
}

actor Tally {
    var total = 0
    /// `.immediate`: `PromiseContext.CallerIsolated`, whose closure keeps the actor.
    let context: PromiseContext = .immediate

    func add(_ value: StdPromise<Int>) {
        value.then(on: context) { self.total += $0 }
        // `uiDelivery` is the main queue: a main-actor closure there touches the actor's state (listed).
        value.then(on: uiDelivery) { self.total += $0 }
        value.then(on: PromiseContext.screen) { self.total += $0 } // an app's context: a value (listed)
    }
}

/// At the end, so that its twin, which adopt writes after it, moves no line above.
extension PromiseContext {
    static let screen = PromiseContext.main
}
