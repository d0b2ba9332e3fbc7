// when(first:): the first promise to fulfil or reject wins.

import Synchronization

/// Returns a promise that resolves with the first input to fulfil or reject.
///
/// - Cancelled inputs are ignored; the returned promise is cancelled only once every input
///   has been cancelled. An empty array gives an already-cancelled promise.
/// - If an input is already fulfilled or rejected, or every input is already cancelled, the
///   returned promise is already resolved. Otherwise it resolves on the thread that resolved
///   the winning input (no context hop), or, when the last input is cancelled, on the global
///   `.utility` queue, as in Tomorrowland 1.4.
/// - With `cancelRemaining`, every input gets `requestCancel()` once one has won.
/// - `requestCancel()` on the returned promise is passed to each input as one of its
///   observers (rule 5). The same promise may appear several times.
public func when<Value, Error>(first promises: [Promise<Value, Error>], cancelRemaining: Bool = false) -> Promise<Value, Error> {
    if promises.isEmpty { return Promise(with: .cancelled) }
    let (output, resolver) = Promise<Value, Error>.makeWithResolver()
    let race = WhenFirstRace(count: promises.count, resolver: resolver,
                             inputsToCancel: cancelRemaining ? promises.map { $0._box } : nil)
    var observers = ContiguousArray<PromiseCore>()
    observers.reserveCapacity(promises.count)
    for promise in promises {
        if race.isDecided { break }
        observers.append(race.observe(promise))
    }
    race.finishRegistration(observers: observers)
    return output
}

/// The bookkeeping of `when(first:)`: the first fulfil or reject resolves the output; a
/// countdown of cancellations (inputs plus one for the registering call) cancels it when
/// every input has cancelled: at once when the registering call brings it to zero (every
/// input was already cancelled), otherwise on the global `.utility` queue (1.4's
/// `group.notify(queue: .global(qos: .utility))`).
///
/// Safety of `@unchecked Sendable`: immutable apart from the atomic countdown.
final class WhenFirstRace<Value, Error>: @unchecked Sendable {
    private let cancellations: SharedAtomic<Int>
    private let resolver: Promise<Value, Error>.Resolver
    private let inputsToCancel: [PromiseCore]?

    init(count: Int, resolver: Promise<Value, Error>.Resolver, inputsToCancel: [PromiseCore]?) {
        cancellations = SharedAtomic(count + 1, "whenFirst.cancellations")
        self.resolver = resolver
        self.inputsToCancel = inputsToCancel
    }

    var isDecided: Bool { resolver._box.currentState.isResolvingOrResolved }

    /// Registers one propagating observer on `input` and returns it.
    func observe(_ input: Promise<Value, Error>) -> PromiseCore {
        let observer: Promise<Void, NoError> = input.register(on: .immediate, token: nil, trigger: .all, kind: .transformer) { [self] result in
            if case .cancelled = result {
                countDownCancellation(registering: false)
            } else if resolver._box.resolve(result), let inputsToCancel {
                for input in inputsToCancel { input.requestCancel() }
            }
            return .resolve(.value(()))
        }
        return observer._box
    }

    func finishRegistration(observers: ContiguousArray<PromiseCore>) {
        countDownCancellation(registering: true)
        if isDecided { return }
        resolver.onRequestCancel(on: .immediate) { _ in
            for observer in observers { observer.requestCancel() }
        }
    }

    private func countDownCancellation(registering: Bool) {
        // Acquiring and releasing: the countdown that reaches zero cancels the output, after
        // every input's cancellation (nothing is read after it but the resolver, immutable).
        guard cancellations.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        if registering {
            resolver._box.resolve(.cancelled)
            return
        }
        dispatchOnGlobalQueue(qos: .utility) { [self] in resolver._box.resolve(.cancelled) }
    }
}
