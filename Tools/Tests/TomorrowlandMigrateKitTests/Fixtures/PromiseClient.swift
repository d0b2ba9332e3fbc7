// Old promise-style callers of the functions in AsyncAPI.swift, plus async callers: both
// must resolve to the right overload once the promise twins exist.

import Foundation
import TomorrowlandAsync

func promiseCallers(store: Store) -> StdPromise<Int> {
    let promise = store.value(for: "abc")                 // sync code: the promise twin
    let typed: StdPromise<Int> = promise
    let version: Promise<Int, NoError> = Store.version()
    let unlock: Promise<String, StoreError> = store.unlock(42)
    let generic: StdPromise<[Int]> = store.generic(1)
    let touched: Promise<Void, NoError> = store.touch()
    _ = (version, unlock, generic, touched)
    return typed.map(on: .immediate) { $0 + 1 }
}

@MainActor
func mainActorPromiseCaller(screen: Screen) -> Promise<String, NoError> {
    screen.render("x")
}

func actorPromiseCaller(counter: Counter) -> Promise<Int, NoError> {
    counter.increment()
}

func asyncCallers(store: Store, counter: Counter) async throws {
    let value = try await store.value(for: "abc")         // async code: the original
    let plain: Int = value
    let version: Int = await Store.version()
    let count: Int = await counter.increment(by: 2)
    _ = (plain, version, count)
}
