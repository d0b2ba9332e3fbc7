// Callers written before the twins existed. The ones in async code whose type nothing pins
// down would pick a twin once it exists (and then miss an `await`): the tool must rewrite
// them; the compile test proves it did.

import Foundation
import TomorrowlandAsync

func syncCallers(api: UserAPI) {
    let user = api.fetchUser(id: 1)
    _ = user.then(on: .immediate) { _ in }
    _ = api.load(1)
    api.userCount().then(on: .immediate) { _ in }
}

func asyncCallers(api: UserAPI) async throws -> Int {
    let user = api.fetchUser(id: 1)                       // would pick the twin
    let count = api.userCount()                           // would pick the twin
    _ = api.load("abc")                                   // would pick the twin
    let token = try UserAPI.token(named: "a").result      // `.result` could be the value's
    let pinned: StdPromise<Int> = api.load(2)             // explicit type: pinned
    let both = when(fulfilled: [api.load(3), api.load(4)])
    let config = loadConfiguration()                      // would pick the twin
    _ = (user, count, token, pinned, both, config)
    return try await api.load(5).value                    // `.value` could be the value's
}

func taskCallers(api: UserAPI) {
    Task {
        let promise = api.load(6)                          // Task closures are async
        _ = promise
    }
}

@MainActor
func mainActorCaller(model: ProfileViewModel) async {
    let refresh = model.refresh()                         // would pick the twin
    model.title = (try? await refresh.value) ?? ""
}

func pinnedAsyncCallers(api: UserAPI) async {
    var existing: StdPromise<Int> = api.load(7)           // explicit type: pinned
    existing = api.load(8)                                // the variable's type: pinned
    let coerced = api.load(9) as StdPromise<Int>          // already coerced
    _ = (existing, coerced)
}

func singleExpressionBodies(api: UserAPI) async throws -> [Int] {
    let promises = [1, 2].map { api.load($0) }            // a closure's implicit return
    let task = Task { api.load(11) }                      // an async closure's implicit return
    _ = task
    return try await when(fulfilled: promises).value
}

func relay(api: UserAPI) async -> StdPromise<Int> { api.load(10) }  // the declared return type pins it
