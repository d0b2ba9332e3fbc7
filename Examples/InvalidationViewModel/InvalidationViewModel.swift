// InvalidationViewModel: a view model that mixes promise callbacks and Tasks, and uses one
// invalidation token to silence and cancel both when the user moves on.
//
// - Promise callbacks registered with `token:` are skipped after `token.invalidate()`.
// - `task.requestCancelOnInvalidate(token)` cancels a Task when the token invalidates.
// - An iterator of `token.invalidations` yields once per invalidation (here: clearing the
//   screen); it ends when the token's last copy is released or the Task is cancelled.

import Foundation
import Synchronization
import TomorrowlandAsync

/// Old code: a search that returns a promise and honours cancel requests.
func search(_ text: String) -> StdPromise<[String]> {
    StdPromise(on: .utility) { resolver in
        let cancelled = CancelFlag()
        resolver.onRequestCancel(on: .immediate) { resolver in
            cancelled.set()
            resolver.cancel()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
            if !cancelled.isSet { resolver.fulfill(with: ["\(text) one", "\(text) two"]) }
        }
    }
}

/// A flag shared between a request and its cancel handler.
final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .relaxed) }

    var isSet: Bool { value.load(ordering: .relaxed) }
}

@MainActor
final class SearchViewModel {
    private let token = PromiseInvalidationToken()
    private(set) var rows: [String] = []
    private(set) var log: [String] = []
    private var watcher: Task<Void, Never>?

    private var currentSearch: StdPromise<[String]>?
    private var currentSuggestions: Task<Void, any Error>?

    init() {
        // The iterator is made here, so it sees every invalidation from now on, even those
        // made before the watcher Task first runs.
        var invalidations = token.invalidations.makeAsyncIterator()
        watcher = Task { [weak self] in
            while await invalidations.next() != nil {
                self?.rows = []
                self?.log.append("invalidated: cleared the rows")
            }
        }
    }

    /// The user typed: forget the previous search, start a new one.
    func userTyped(_ text: String) {
        token.invalidate()
        // A callback written in this @MainActor method is isolated to the main actor: it
        // updates `self` directly.
        currentSearch = search(text).then(on: .main, token: token) { [weak self] rows in
            self?.rows = rows
            self?.log.append("showing \(rows.count) rows for \(text)")
        }.requestCancelOnInvalidate(token)
        let suggestions = Task {
            try await Task.sleep(for: .milliseconds(100))
            log.append("suggestions for \(text)")
        }
        suggestions.requestCancelOnInvalidate(token)
        currentSuggestions = suggestions
    }

    /// Waits until the latest search and suggestions have ended (shown or cancelled).
    func settled() async {
        _ = await currentSearch?.resolvedResult
        _ = await currentSuggestions?.result
    }
}

@main
enum InvalidationViewModel {
    @MainActor
    static func main() async {
        let model = SearchViewModel()
        print("The user types \"ca\", then \"cat\" before \"ca\" answered; only \"cat\" may reach the screen.")
        model.userTyped("ca")
        model.userTyped("cat")  // silences and cancels everything started for "ca"
        await model.settled()   // no sleeps: the output is the same on a loaded machine
        for line in model.log {
            print(line)
        }
        print("rows: \(model.rows)")
    }
}
