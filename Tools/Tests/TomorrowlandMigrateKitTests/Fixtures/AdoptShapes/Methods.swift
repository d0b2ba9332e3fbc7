// Actor-isolated methods passed by name as the callback (issue 37): with a named context or a
// context value, the callback runs off the method's actor, as in 1.x (a data race). `adopt`
// lists each; Swift 6 mode rejects the main-actor ones, and compiles an actor's.
import Foundation
import Tomorrowland

func loadNumber() -> StdPromise<Int> { StdPromise(fulfilled: 3) }

enum Formatters {
    @MainActor static func title(_ number: Int) -> String { "#\(number)" }
    static func plain(_ number: Int) -> String { "\(number)" }
}

@MainActor func render(_ number: Int) {}

final class Service {
    let context: PromiseContext = .utility

    func run() {
        _ = loadNumber().map(on: .utility, Formatters.title) // listed
        _ = loadNumber().then(on: context, render) // listed
        _ = loadNumber().map(on: .utility, Formatters.plain) // nonisolated: not listed
        _ = loadNumber().map(on: .main, Formatters.title) // `.main`: not listed
    }
}

@MainActor
final class Badge {
    var text = ""

    nonisolated func refresh() {
        _ = loadNumber().map(on: .userInitiated, Self.describe) // listed: declared in an extension
        _ = loadNumber().map(on: .userInitiated, Badge.describe) // listed
    }
}

actor Store {
    var last = 0

    func record(_ number: Int) { last = number }

    func save() {
        _ = loadNumber().then(on: .utility, record) // listed: runs off the actor
        _ = loadNumber().then(on: .main, self.record) // listed: runs on the main actor
    }
}

/// An instance method of a main-actor class, through a parameter of that type.
final class Presenter {
    func present(_ badge: Badge) {
        _ = loadNumber().map(on: .utility, badge.label) // listed
    }
}
