// 1.x-style client code that uses the contexts of Contexts.swift: in a @MainActor class, an
// actor and plain classes. It compiles only after `adopt`.
import Foundation
import Tomorrowland

final class Database: @unchecked Sendable {
    private var rows: [Int: Item] = [:]

    func insert(_ item: Item) -> Promise<Void, Error> {
        Promise(on: .db) { resolver in
            self.rows[item.id] = item
            resolver.fulfill(with: ())
        }
    }

    func item(_ id: Int) -> Promise<Item, Error> {
        Promise<Void, Error>(fulfilled: ()).flatMap(on: .db) { _ -> Promise<Item, Error> in
            guard let item = self.rows[id] else { return Promise(rejected: LoadError.missing) }
            return Promise(fulfilled: item)
        }
    }

    func count() -> Promise<Int, NoError> {
        Promise(on: .dbIfReady) { resolver in resolver.fulfill(with: self.rows.count) }
    }

    func later(_ id: Int) -> DelayedPromise<Item, Error> {
        DelayedPromise(on: .db) { resolver in
            if let item = self.rows[id] { resolver.fulfill(with: item) } else { resolver.reject(with: LoadError.missing) }
        }
    }

    func operation(_ id: Int, fast: Bool) -> PromiseOperation<Int, Error> {
        PromiseOperation(on: fast ? .immediate : .exports) { resolver in resolver.fulfill(with: id) }
    }

    func delayed(_ id: Int) -> DelayedPromise<Int, Error> {
        DelayedPromise(on: id % 2 == 0 ? .utility : .immediate) { resolver in resolver.fulfill(with: id) }
    }

    func export(_ items: [Item]) -> Promise<Int, Error> {
        Promise(on: .serial("export", qos: .utility)) { resolver in
            resolver.onRequestCancel(on: .db) { resolver in resolver.cancel() }
            resolver.fulfill(with: items.count)
        }
    }
}

@MainActor
final class ItemViewController {
    var title = ""
    var image: Data?
    var isFast = false
    var transformContext: PromiseContext = .utility
    let database = Database()
    let token = PromiseInvalidationToken()

    func show(_ item: Item) { title = item.name }
    func handle(_ error: Error) { title = "\(error)" }
    nonisolated static func uppercase(_ item: Item) -> String { item.name.uppercased() }

    func load(_ id: Int) {
        database.item(id).map(on: .imageDecoding) { item -> Data in
            Data(item.name.utf8)
        }.then(on: .main) { [weak self] data in
            self?.image = data
        }
        database.item(id).then(on: .ui) { [weak self] item in
            self?.title = item.name
        }
        database.item(id).then(on: .main, show).catch(on: .main, handle)
        database.item(id).map(on: .utility, Self.uppercase).then { [weak self] in self?.title = $0 }
        database.item(id).map(on: isFast ? .immediate : .utility) { $0.name }.then { [weak self] in self?.title = $0 }
        database.item(id).map(on: transformContext) { $0.name }.then { [weak self] in self?.title = $0 }
        database.item(id).then(on: .sync) { [weak self] item in self?.title = item.name }
        database.item(id).then(on: .uiIfReady) { [weak self] item in self?.title = item.name }
        database.item(id).then(on: .nowOr(.ui)) { [weak self] item in self?.title = item.name }
        database.item(id).map(on: .chosen) { $0.id }.then { _ in }
        database.item(id).map(on: .current) { $0.id }.then { _ in }
        database.item(id).map(on: .warm) { $0.id }.then(on: .cold) { _ in }
        database.item(id).map(on: .platform) { $0.id }.then(on: .logging) { _ in }
        database.item(id).map(on: .nowOr(.db)) { $0.id }.then { _ in }
        database.item(id).map(on: Contexts.network) { $0.id }.then { _ in }
        database.item(id).map(on: isFast ? .db : .utility) { $0.id }.then { _ in }
        database.item(id).map(on: isFast ? .db : .main) { $0.id }.then { _ in }
        database.item(id).map(on: isFast ? .main : transformContext) { $0.id }.then { _ in }
        database.item(id).map(on: (isFast ? .main : .background)) { $0.id }.then { _ in }
        database.item(id).map(on: isFast ? .main : isFast ? .immediate : .queue(decodingQueue)) { $0.id }.then { _ in }
        database.item(id).map(on: isFast ? .nowOr(.main) : .userInitiated) { $0.id }.then { _ in }
        database.item(id).map(on: .nowOr(isFast ? .main : .utility)) { $0.id }.then { _ in }
        database.item(id).withToken(token).then(on: isFast ? .main : .db) { _ in }.catch(on: .db) { _ in }
        let (made, resolver) = StdPromise<Int>.makeWithResolver()
        resolver.onRequestCancel(on: isFast ? .immediate : .db) { resolver in resolver.cancel() }
        _ = made.delay(on: isFast ? .main : .db, 0.1).timeout(on: .nowOr(.db), delay: 1)
        database.item(id).tap(on: .analytics) { result in print(result) }
        database.item(id).timeout(on: .db, delay: 5).then { _ in }
        database.item(id).delay(on: .exports, 0.01).then { _ in }
        database.item(id).always(on: .analytics) { _ in }
        database.item(id).onCancel(on: .db) {}
        database.item(id).recover(on: .db) { _ in Item(id: 0, name: "") }.then { _ in }
        Promise<Int, Error>(on: .analytics, fulfilled: 1, after: 0.1).then { _ in }
        database.item(id).withToken(token).map(on: .db) { $0.id }.then { _ in }
        _ = database.later(id).promise.then(on: .db) { _ in }
    }

    func reload(on context: PromiseContext = .utility) {
        database.item(1).map(on: context) { $0.name }.then { [weak self] in self?.title = $0 }
    }

    /// What a user writes once the compiler rejects `.db` and `.ui`: values. A value holding
    /// `.main` runs on the main queue, as `.main` does, so `.main` it becomes.
    func spelledOut(_ id: Int) {
        database.item(id).map(on: PromiseContext.db) { $0.name }.then(on: PromiseContext.ui) { [weak self] in self?.title = $0 }
        database.item(id).then(on: PromiseContext.main) { item in self.show(item) }
        database.item(id).then(on: PromiseContext.nowOr(.main)) { item in self.show(item) }
        database.item(id).then(on: PromiseContext.uiIfReady) { item in self.show(item) }
        database.item(id).then(on: PromiseContext.main) { _ in }
    }
}

actor SessionStore {
    var token = ""
    let database = Database()

    func refresh(fast: Bool) {
        database.item(1).map(on: .db) { $0.name }.then { name in self.token = name }
        database.item(1).then(on: fast ? .main : .utility) { _ in }
        database.item(1).tryMap(on: fast ? .immediate : .db) { $0.name }.then { name in self.token = name }
    }
}

final class Service: Sendable {
    func fetch(_ fast: Bool) -> Promise<Item, Error> {
        Promise(on: fast ? .immediate : .utility) { resolver in resolver.fulfill(with: Item(id: 1, name: "a")) }
    }

    func names(_ promise: Promise<Item, Error>) -> Promise<String, Error> {
        promise.map(on: .db, Service.name)
    }

    static func name(_ item: Item) -> String { item.name }
}

extension Promise {
    func onDatabase(_ body: @escaping @Sendable (Value) -> Void) -> Promise<Value, Error> {
        then(on: .db, body)
    }
}

/// Callback methods referenced without a call: ambiguous until given a type.
struct Registrar {
    let pending: StdPromise<Item>

    func references(_ promise: Promise<Item, LoadError>, tokenPromise: TokenPromise<Int, NoError>) {
        let then = promise.then(on:token:_:)
        let catcher = promise.catch
        let always = tokenPromise.always(on:_:)
        let recover = pending.recover
        let onCancel = self.pending.onCancel(on:token:_:)
        _ = (then, catcher, always, recover, onCancel)
        _ = then(.db, nil) { _ in }
    }
}
