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
public func when<Value, Error>(
    fulfilled promises: [Promise<Value, Error>],
    qos: DispatchQoS.QoSClass = .default,
    cancelOnFailure: Bool = false
) -> Promise<[Value], Error> {
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
///
/// Two to six promises also match the overloads below, which carry Tomorrowland 1.x's
/// names and forward here.
///
/// - Parameters:
///   - promises: The promises to wait for; their values may have different types.
///   - qos: The QoS class of the global queue the values are delivered on when the last
///     input is fulfilled after this call.
///   - cancelOnFailure: Whether to request cancellation of every input once one fails.
/// - Returns: A promise of the tuple of values, or of the first failure.
public func when<each Value, Error>(
    fulfilled promises: repeat Promise<each Value, Error>,
    qos: DispatchQoS.QoSClass = .default,
    cancelOnFailure: Bool = false
) -> Promise<(repeat each Value), Error> {
    whenFulfilled(repeat each promises, qos: qos, cancelOnFailure: cancelOnFailure)
}

/// The tuple form of `when(fulfilled:…)`, behind the parameter-pack function and the
/// 1.x-named overloads for two to six promises (which would otherwise call themselves).
func whenFulfilled<each Value, Error>(
    _ promises: repeat Promise<each Value, Error>,
    qos: DispatchQoS.QoSClass,
    cancelOnFailure: Bool
) -> Promise<(repeat each Value), Error> {
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

// MARK: Tomorrowland 1.x's names for two to six promises
//
// 1.x declared one function per arity, so code could name one, e.g.
// `when(fulfilled:_:qos:cancelOnFailure:)`; the parameter-pack function above is named
// `when(fulfilled:qos:cancelOnFailure:)`. These overloads keep the 1.x names. Calls with two
// to six promises pick them over the pack (a non-pack overload is more specific); they
// behave exactly like it.

/// Returns a promise of the values of two promises, or of the first failure: Tomorrowland
/// 1.x's `when(fulfilled:_:qos:cancelOnFailure:)`. Behaves like the parameter-pack
/// `when(fulfilled:qos:cancelOnFailure:)`: already-resolved inputs give an already-resolved
/// result, values are delivered on the global queue of `qos`, with `cancelOnFailure` every
/// input is asked to cancel once one fails, and `requestCancel()` on the result is passed to
/// each input as one of its observers.
///
/// - Parameters:
///   - a: The first promise.
///   - b: The second promise.
///   - qos: The QoS of the global queue the values are delivered on.
///   - cancelOnFailure: If `true`, every input is asked to cancel once one of them fails.
/// - Returns: A promise of `(a's value, b's value)`.
public func when<Value1, Value2, Error>(
    fulfilled a: Promise<Value1, Error>,
    _ b: Promise<Value2, Error>,
    qos: DispatchQoS.QoSClass = .default, cancelOnFailure: Bool = false
) -> Promise<(Value1, Value2), Error> {
    whenFulfilled(a, b, qos: qos, cancelOnFailure: cancelOnFailure)
}

/// Returns a promise of the values of three promises, or of the first failure: Tomorrowland
/// 1.x's `when(fulfilled:_:_:qos:cancelOnFailure:)`. Behaves like the parameter-pack
/// `when(fulfilled:qos:cancelOnFailure:)` (see the two-promise overload).
///
/// - Parameters:
///   - a: The first promise.
///   - b: The second promise.
///   - c: The third promise.
///   - qos: The QoS of the global queue the values are delivered on.
///   - cancelOnFailure: If `true`, every input is asked to cancel once one of them fails.
/// - Returns: A promise of the three values, in input order.
public func when<Value1, Value2, Value3, Error>(
    fulfilled a: Promise<Value1, Error>,
    _ b: Promise<Value2, Error>,
    _ c: Promise<Value3, Error>,
    qos: DispatchQoS.QoSClass = .default, cancelOnFailure: Bool = false
) -> Promise<(Value1, Value2, Value3), Error> {
    whenFulfilled(a, b, c, qos: qos, cancelOnFailure: cancelOnFailure)
}

/// Returns a promise of the values of four promises, or of the first failure: Tomorrowland
/// 1.x's `when(fulfilled:_:_:_:qos:cancelOnFailure:)`. Behaves like the parameter-pack
/// `when(fulfilled:qos:cancelOnFailure:)` (see the two-promise overload).
///
/// - Parameters:
///   - a: The first promise.
///   - b: The second promise.
///   - c: The third promise.
///   - d: The fourth promise.
///   - qos: The QoS of the global queue the values are delivered on.
///   - cancelOnFailure: If `true`, every input is asked to cancel once one of them fails.
/// - Returns: A promise of the four values, in input order.
public func when<Value1, Value2, Value3, Value4, Error>(
    fulfilled a: Promise<Value1, Error>,
    _ b: Promise<Value2, Error>,
    _ c: Promise<Value3, Error>,
    _ d: Promise<Value4, Error>,
    qos: DispatchQoS.QoSClass = .default, cancelOnFailure: Bool = false
) -> Promise<(Value1, Value2, Value3, Value4), Error> {
    whenFulfilled(a, b, c, d, qos: qos, cancelOnFailure: cancelOnFailure)
}

/// Returns a promise of the values of five promises, or of the first failure: Tomorrowland
/// 1.x's `when(fulfilled:_:_:_:_:qos:cancelOnFailure:)`. Behaves like the parameter-pack
/// `when(fulfilled:qos:cancelOnFailure:)` (see the two-promise overload).
///
/// - Parameters:
///   - a: The first promise.
///   - b: The second promise.
///   - c: The third promise.
///   - d: The fourth promise.
///   - e: The fifth promise.
///   - qos: The QoS of the global queue the values are delivered on.
///   - cancelOnFailure: If `true`, every input is asked to cancel once one of them fails.
/// - Returns: A promise of the five values, in input order.
public func when<Value1, Value2, Value3, Value4, Value5, Error>(
    fulfilled a: Promise<Value1, Error>,
    _ b: Promise<Value2, Error>,
    _ c: Promise<Value3, Error>,
    _ d: Promise<Value4, Error>,
    _ e: Promise<Value5, Error>,
    qos: DispatchQoS.QoSClass = .default, cancelOnFailure: Bool = false
) -> Promise<(Value1, Value2, Value3, Value4, Value5), Error> {
    whenFulfilled(a, b, c, d, e, qos: qos, cancelOnFailure: cancelOnFailure)
}

/// Returns a promise of the values of six promises, or of the first failure: Tomorrowland
/// 1.x's `when(fulfilled:_:_:_:_:_:qos:cancelOnFailure:)`. Behaves like the parameter-pack
/// `when(fulfilled:qos:cancelOnFailure:)` (see the two-promise overload).
///
/// - Parameters:
///   - a: The first promise.
///   - b: The second promise.
///   - c: The third promise.
///   - d: The fourth promise.
///   - e: The fifth promise.
///   - f: The sixth promise.
///   - qos: The QoS of the global queue the values are delivered on.
///   - cancelOnFailure: If `true`, every input is asked to cancel once one of them fails.
/// - Returns: A promise of the six values, in input order.
public func when<Value1, Value2, Value3, Value4, Value5, Value6, Error>(
    fulfilled a: Promise<Value1, Error>,
    _ b: Promise<Value2, Error>,
    _ c: Promise<Value3, Error>,
    _ d: Promise<Value4, Error>,
    _ e: Promise<Value5, Error>,
    _ f: Promise<Value6, Error>,
    qos: DispatchQoS.QoSClass = .default, cancelOnFailure: Bool = false
) -> Promise<(Value1, Value2, Value3, Value4, Value5, Value6), Error> {
    whenFulfilled(a, b, c, d, e, f, qos: qos, cancelOnFailure: cancelOnFailure)
}
