// when(fulfilled:): wait for every promise.

import Dispatch

/// Returns a promise that fulfils with the values of every input, in input order, or
/// resolves with the first failure.
///
/// - The first input to reject or cancel decides the outcome at once (on the thread that
///   resolved it); later failures are ignored. With `cancelOnFailure`, every input then gets
///   `requestCancel()`, and the output still reports that first failure.
/// - If every input is already fulfilled, or any is already rejected or cancelled, the
///   returned promise is already resolved. Otherwise the values are assembled and the
///   promise fulfilled on the global queue of `qos`.
/// - An empty array gives `[]`. The same promise may appear several times.
/// - `requestCancel()` on the returned promise is passed to each input as one of its
///   observers (rule 5): an input is asked to cancel once all of its observers agree.
///
/// Linear in time and memory: one observer per input, no per-input hop or copy.
public func when<Value, Error>(fulfilled promises: [Promise<Value, Error>], qos: DispatchQoS.QoSClass = .default, cancelOnFailure: Bool = false) -> Promise<[Value], Error> {
    if promises.isEmpty { return Promise(fulfilled: []) }
    let (output, resolver) = Promise<[Value], Error>.makeWithResolver()
    let buffer = WhenValueBuffer<Value>(count: promises.count)
    let aggregate = WhenAggregate<[Value], Error>(
        count: promises.count, resolver: resolver, qos: qos,
        inputsToCancel: cancelOnFailure ? promises.map { $0._box } : nil,
        assemble: { buffer.takeAll() })
    var observers = ContiguousArray<PromiseCore>()
    observers.reserveCapacity(promises.count)
    for (index, promise) in promises.enumerated() {
        if aggregate.isDecided { break }
        observers.append(aggregate.observe(promise, with: WhenArrayInputObserver(aggregate: aggregate, buffer: buffer, index: index)))
    }
    _ = aggregate.finishRegistration(observers: observers)
    return output
}

/// Returns a promise that fulfils with a tuple of the values of every input, or resolves
/// with the first failure.
///
/// Works for any number of promises of any value types sharing one error type:
/// `when(fulfilled: a, b)` gives `Promise<(A, B), Error>`, so
/// `when(fulfilled: a, b).then { (a, b) in … }` destructures the tuple.
///
/// Behaves like the array form: already-resolved inputs give an already-resolved result,
/// the first failure wins (`cancelOnFailure` then requests cancel of every input, and the
/// output still reports the first failure), the values are delivered on the global queue of
/// `qos`, and `requestCancel()` is passed to each input as one of its observers.
public func when<each Value, Error>(fulfilled promises: repeat Promise<each Value, Error>, qos: DispatchQoS.QoSClass = .default, cancelOnFailure: Bool = false) -> Promise<(repeat each Value), Error> {
    var count = 0
    var inputs = [PromiseCore]()
    for promise in repeat each promises {
        count += 1
        inputs.append(promise._box)
    }
    let (output, resolver) = Promise<(repeat each Value), Error>.makeWithResolver()
    let slots = (repeat WhenValueSlot<each Value>())
    let aggregate = WhenAggregate<(repeat each Value), Error>(
        count: count, resolver: resolver, qos: qos,
        inputsToCancel: cancelOnFailure ? inputs : nil,
        assemble: { (repeat (each slots).take()) })
    var observers = ContiguousArray<PromiseCore>()
    observers.reserveCapacity(count)
    for (promise, slot) in repeat (each promises, each slots) {
        if aggregate.isDecided { break }
        observers.append(aggregate.observe(promise, with: WhenSlotInputObserver(aggregate: aggregate, slot: slot)))
    }
    _ = aggregate.finishRegistration(observers: observers)
    return output
}
