// Written against the twins (added after the tool ran): overload resolution both ways.
// Each check would fail to compile if a call were ambiguous or resolved the other way.

import Foundation
import TomorrowlandAsync

func syncClient(api: UserAPI) -> Promise<User, FetchError> {
    let promise = api.fetchUser(id: 1)                    // sync code: the promise
    let typed: Promise<User, FetchError> = promise
    _ = UserAPI.token(named: "x").map(on: .immediate) { $0.count }
    return typed
}

func asyncClient(api: UserAPI, token: PromiseInvalidationToken) async throws {
    let user = try await api.fetchUser(id: 1)             // async code: the value
    let name: String = user.name
    let count: Int = try await api.userCount()
    let session: String = try await UserAPI.token(named: "x")
    let first: Int = try await api.firstElement(of: [1, 2], or: FetchError.missing)
    let loaded: Int = try await api.load(1) + api.load("ab")
    let validated: Int = try await api.validated(3)
    let reported: Int = try await api.progressReporting { _ in }
    let tokenized: Int = try await api.tokenized(token)
    let items: [String] = try await SpecialFeed().items()
    let image: Int = try await ImageCache().image(for: "k")
    let config: [String: String] = try await loadConfiguration()
    _ = (name, count, session, first, loaded, validated, reported, tokenized, items, image, config)
}

/// `Promise<T, NoError>` twins throw only `CancellationError`.
func noErrorTwinThrowsOnlyCancellation(api: UserAPI) async {
    do {
        _ = try await api.userCount()
    } catch {
        let cancelled: CancellationError = error
        _ = cancelled
    }
}

@MainActor
func mainActorClient(model: ProfileViewModel) async throws {
    model.title = try await model.refresh()
    let shared: Int = try await ProfileViewModel.shared()
    _ = shared
}
