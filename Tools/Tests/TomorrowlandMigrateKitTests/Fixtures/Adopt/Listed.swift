// Closures on a named context or a context value that touch their actor's state: a data race
// in 1.x. `adopt` lists them and changes nothing; the compiler rejects them, in both modes.
import Foundation
import Tomorrowland

@MainActor
final class ProfileScreen {
    var name = ""
    var context: PromiseContext = .utility

    func show(_ item: Item) { name = item.name }
    nonisolated func pure(_ text: String) {}
    static func describe(_ item: Item) -> String { item.name }

    func load(_ promise: Promise<Item, Error>) {
        promise.then(on: .utility) { item in
            self.name = item.name
        }
        promise.then(on: context) { [weak self] item in
            self?.name = item.name
        }
        promise.then(on: .db) { item in self.name = item.name }
        promise.then(on: Contexts.main) { item in self.name = item.name }
        promise.then(on: .utility, show)
        promise.map(on: .utility, Self.describe).then(on: .userInitiated, self.pure)
        // Not listed: no context (or .main) keeps the caller's actor.
        promise.then { item in self.name = item.name }
        promise.then(on: .main) { item in self.name = item.name }
    }
}

actor Counter {
    var total = 0

    func add(_ promise: Promise<Int, Error>, fast: Bool) {
        promise.then(on: fast ? .immediate : .utility) { value in
            self.total += value
        }
    }
}
