// The fixture `convert-calls` runs on: functions with the twins `add-async-twins` and
// `add-promise-twins` wrote, and async callers that still await the promises, in every shape the
// command converts or leaves.

import Tomorrowland
import TomorrowlandAsync

enum Failure: Error, Equatable { case missing }

/// A setting whose own `value` member made `setting().value` ambiguous (hence the pin).
struct Setting: Sendable, Equatable {
    var value: Int
}

final class Store: Sendable {
    func find(_ id: Int) -> Promise<String, Failure> {
        id > 0 ? Promise(fulfilled: "item \(id)") : Promise(rejected: .missing)
    }

    /// Async twin of `find(_:)` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func find(_ id: Int) async throws -> String {
        try await (find(id) as Promise<String, Failure>).value
    }

    func count() -> Promise<Int, NoError> {
        Promise(fulfilled: 3)
    }

    /// Async twin of `count()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func count() async throws(CancellationError) -> Int {
        try await (count() as Promise<Int, NoError>).value
    }

    func setting() -> StdPromise<Setting> {
        StdPromise(fulfilled: Setting(value: 5))
    }

    /// Async twin of `setting()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func setting() async throws -> Setting {
        try await (setting() as StdPromise<Setting>).value
    }

    func poll(token: PromiseInvalidationToken) -> TokenPromise<Int, NoError> {
        Promise<Int, NoError>(fulfilled: 1).withToken(token)
    }

    /// Async twin of `poll(token:)` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func poll(token: PromiseInvalidationToken) async throws(CancellationError) -> Int {
        try await (poll(token: token) as TokenPromise<Int, NoError>).inner.value
    }
}

// tomorrowland-migrate: promise-twin
func total() async throws -> Int {
    42
}

/// Promise twin of `total()` (added by tomorrowland-migrate): runs it in a new Task.
func total() -> StdPromise<Int> {
    StdPromise { try await total() }
}

// tomorrowland-migrate: promise-twin
func strict() async throws(Failure) -> Int {
    7
}

/// Promise twin of `strict()` (added by tomorrowland-migrate): runs it in a new Task.
func strict() -> Promise<Int, Failure> {
    Promise { () async throws(Failure) -> Int in try await strict() }
}

func callers(store: Store, token: PromiseInvalidationToken) async throws -> [String] {
    let found = try await (store.find(1) as Promise<String, Failure>).value
    let count = try await store.count().value
    let level = try await (store.setting() as StdPromise<Setting>).value.value
    let sum = try await total().value
    let polled = try await (store.poll(token: token) as TokenPromise<Int, NoError>).inner.value
    let typed = try await strict().value
    let result = await store.find(2).resolvedResult
    let eager = try await store.find(3).value(onTaskCancel: .stopWaiting)
    let kept = store.find(4) as Promise<String, Failure>
    let later = try await kept.value
    var missing = false
    do {
        _ = try await (store.find(0)
            as Promise<String, Failure>).value
    } catch Failure.missing {
        missing = true
    }
    let detached = Task { try await store.find(5).value }
    let fifth = try await detached.value
    return [found, "\(count + level + sum + polled + typed)", "\(result)", eager, later, "\(missing)", fifth]
}

func switches(store: Store) async -> [String] {
    var lines: [String] = []
    switch await (store.find(0) as Promise<String, Failure>).resolvedResult {
    case .value(let item):
        lines.append(item)
    case .error(let error):
        lines.append("\(error)")
    case .cancelled:
        lines.append("cancelled")
    }
    switch await store.count().resolvedResult {
    case let .value(count):
        lines.append("\(count)")
    case .error:
        lines.append("never")
    case .cancelled:
        lines.append("cancelled")
    }
    switch await store.find(1).resolvedResult {
    case .error(let error):
        lines.append("\(error)")
    case .value(let item):
        lines.append(item)
    case .cancelled:
        lines.append("cancelled")
    }
    switch await store.setting().resolvedResult {
    case .value(let setting):
        lines.append("\(setting.value)")
    case .error(let error):
        lines.append("\(error)")
    case .cancelled:
        lines.append("cancelled")
    }
    return lines
}

func number(in item: String) throws(Failure) -> Int {
    guard let number = Int(item.dropFirst(5)) else { throw .missing }
    return number
}

/// The `.value` case throws Failure itself: in a do block, `catch let error as Failure` would
/// catch it and return -1 instead of throwing.
func parsed(store: Store) async throws -> Int {
    switch await (store.find(6) as Promise<String, Failure>).resolvedResult {
    case .value(let item):
        return try number(in: item + "x") + [1].map { try? number(in: "item \($0)") }.count
    case .error:
        return -1
    case .cancelled:
        return 0
    }
}
