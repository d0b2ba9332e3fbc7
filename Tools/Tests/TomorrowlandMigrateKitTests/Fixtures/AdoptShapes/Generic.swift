// Unapplied callback methods whose receiver's type is generic or not written (issue 37).
import Foundation
import Tomorrowland

enum HubError: Error { case offline }
typealias HubPromise<T> = Promise<T, HubError>

/// The receiver's type comes from the loop: `HubPromise<T>`, with `T` in scope.
func logFailures<T>(of promises: [HubPromise<T>], log: @escaping @Sendable (String) -> Void) {
    for promise in promises {
        let register = promise.catch(on:token:_:)
        _ = register(.utility, nil) { error in log("\(error)") }
    }
}

extension Promise {
    /// The receiver is `self`: the labels say which overload set, the placeholders the rest.
    func logged() -> Promise<Value, Error> {
        let then = self.then(on:token:_:)
        return then(.utility, nil) { _ in }
    }
}

func watched<T: Sendable>(_ promises: [TokenPromise<T, NoError>]) {
    guard let first = promises.first else { return }
    let always = first.always(on:_:)
    _ = always(.utility) { _ in }
}
