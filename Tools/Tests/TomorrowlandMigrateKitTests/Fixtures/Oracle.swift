// What the syntax cannot tell and the compiler can: the fixture the oracle tests run
// `add-async-twins` on, with the compiler's facts and its proof. Every function here that
// returns a promise can have an async twin except the variadic one (a limit of the language).

import Tomorrowland

/// An error reached through a refined protocol, and one through a typealias.
protocol AppError: Error {}
enum StoreError: AppError { case missing }
typealias StoreFailure = StoreError

/// Badges, overloaded by parameter type: each call names exactly one of them.
func badge(_ count: Int) -> Promise<String, StoreFailure> {
    count < 0 ? Promise(rejected: .missing) : Promise(fulfilled: "\(count)")
}

func badge(_ name: String) -> StdPromise<String> {
    StdPromise(fulfilled: name.uppercased())
}

/// A repository whose error is an associated type, `Error & Sendable`.
protocol Repository: Sendable {
    associatedtype Failure: Error & Sendable
    func find(_ id: Int) -> Promise<String, Failure>
}

/// A generic conformer.
struct MemoryRepository<Failure: Error & Sendable>: Repository {
    func find(_ id: Int) -> Promise<String, Failure> {
        Promise(fulfilled: "item\(id)")
    }
}

func makeStore() -> MemoryRepository<StoreError> { MemoryRepository() }

/// An `inout` parameter: the twin passes it on.
func prune(_ xs: inout [Int], keeping n: Int) -> StdPromise<Int> {
    let removed = max(0, xs.count - n)
    xs = Array(xs.prefix(n))
    return StdPromise(fulfilled: removed)
}

/// A class hierarchy: the subclass inherits `load`, and overrides `refresh`.
class Loader: @unchecked Sendable {
    func load(_ key: String) -> Tomorrowland.Promise<Int, NoError> { Promise(fulfilled: key.count) }
    func refresh() -> StdPromise<Int> { StdPromise(fulfilled: 1) }
}

final class CachingLoader: Loader, @unchecked Sendable {
    override func refresh() -> StdPromise<Int> { StdPromise(fulfilled: 2) }
}

/// A generic typealias of a promise: only the compiler sees the promise behind it.
typealias Loading<T> = Promise<T, StoreError>

func loadCount() -> Loading<Int> { Promise(fulfilled: 3) }

/// A 1.x habit: a `String` error. `.value` needs an Error: the compiler rejects the twin.
func legacyCode() -> Promise<Int, String> { Promise(fulfilled: 4) }

/// `show` as a value names the free function, not the method: only the compiler can tell.
struct Screen {
    func show(_ count: Int) -> StdPromise<Int> { StdPromise(fulfilled: count) }
}

func show(_ text: String) -> String { text }

let shown: [String] = ["a"].map(show)

/// Variadic: cannot be forwarded (a limit of the language).
func sum(_ values: Int...) -> StdPromise<Int> { StdPromise(fulfilled: values.reduce(0, +)) }

/// Async code calling all of the above without awaiting: each call keeps its promise.
func callers() async -> [String] {
    var xs = [1, 2, 3]
    let first = badge(1)
    let second = badge("b")
    let found = makeStore().find(7)
    let removed = prune(&xs, keeping: 1)
    let loader: Loader = CachingLoader()
    let loaded = CachingLoader().load("abc")
    let refreshed = loader.refresh()
    let total = sum(1, 2)
    let count = loadCount()
    // The annotation looks like a pin, but `Any` takes the twin's String too: only the
    // compiler's proof sees that this call would change.
    let anything: Any = badge(2)
    let qualified = Fixture.badge(3)
    _ = (first, second, found, removed, loaded, refreshed, total, count, anything, qualified)
    return ["\(xs)"]
}
