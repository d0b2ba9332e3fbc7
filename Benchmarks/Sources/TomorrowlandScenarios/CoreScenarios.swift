// Tomorrowland's side of the core scenarios (a), (b), (c), (i), (k), (l).

import ScenarioKit
import Tomorrowland

/// Every Tomorrowland scenario, in issue order.
public let tomorrowlandScenarios: [Scenario] = [
    Scenario("p", "Tomorrowland", "baseline: create a pending promise and fulfil it, no observer", sync: createFulfil),
    Scenario("a", "Tomorrowland", "create pending, map + then on .immediate, fulfil", sync: createMapThenFulfil),
    Scenario("a-capture", "Tomorrowland", "(a) with callbacks that capture an object", sync: createMapThenFulfilCapturing),
    Scenario("b", "Tomorrowland", "create pending, 10 maps on .immediate, fulfil", sync: tenMapChain),
    Scenario("c", "Tomorrowland", "already-fulfilled promise + then on .immediate", sync: fulfilledThen),
    Scenario("a-resolved", "Tomorrowland", "already-fulfilled promise, map + then on .immediate (runs at once)", sync: resolvedMapThen),
    Scenario("a-named", "Tomorrowland", "(a-resolved) on a named context, .nowOr(.utility): nonisolated callbacks", sync: resolvedMapThenNamed),
    Scenario("b-named", "Tomorrowland", "already-fulfilled promise, 10 maps on .nowOr(.utility) (named, run at once)", sync: resolvedTenMapsNamed),
    Scenario("i1", "Tomorrowland", "(a) on 1 thread, n ops", sync: { n in
        onThreads(1) { _ in contentionLoop(n) }
        return n
    }),
    Scenario("i2", "Tomorrowland", "(a) on 2 threads at once, n/2 ops each", sync: { n in
        onThreads(2) { _ in contentionLoop(n / 2) }
        return n
    }),
    Scenario("k", "Tomorrowland", "flatMap chain of depth n on .immediate, fulfil the root", sync: flatMapChain),
    Scenario("k-nested", "Tomorrowland", "n flatMaps each adopting the previous, still pending, promise (pipes of pipes)", sync: nestedFlatMap),
    Scenario("l", "Tomorrowland", "n pending promises with one then each, held, then fulfilled", sync: pendingWithObserver),
] + isolatedScenarios + combinatorScenarios + tomorrowlandAsyncScenarios + pendingAwaitScenarios

@inline(never)
func createFulfil(_ n: Int) -> Int {
    for i in 0..<n {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        resolver.fulfill(with: i)
        blackHole(promise)
    }
    return n
}

@inline(never)
func createMapThenFulfil(_ n: Int) -> Int {
    for i in 0..<n {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        _ = promise.map(on: .immediate) { $0 &+ 1 }.then(on: .immediate) { tally &+= $0 }
        resolver.fulfill(with: i)
    }
    return checkTally(expectedTally(n, plus: 1))
}

@inline(never)
func createMapThenFulfilCapturing(_ n: Int) -> Int {
    let state = CapturedState()
    for i in 0..<n {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        _ = promise.map(on: .immediate) { $0 &+ state.offset }.then(on: .immediate) { state.sum &+= $0 }
        resolver.fulfill(with: i)
    }
    tally = state.sum
    return checkTally(expectedTally(n, plus: 1))
}

@inline(never)
func tenMapChain(_ n: Int) -> Int {
    for i in 0..<n {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        var chain = promise
        for _ in 0..<9 { chain = chain.map(on: .immediate) { $0 &+ 1 } }
        _ = chain.map(on: .immediate) { tally &+= $0 &+ 1 }
        resolver.fulfill(with: i)
    }
    return checkTally(expectedTally(n, plus: 10))
}

@inline(never)
func fulfilledThen(_ n: Int) -> Int {
    for i in 0..<n {
        _ = StdPromise<Int>(fulfilled: i).then(on: .immediate) { tally &+= $0 }
    }
    return checkTally(expectedTally(n))
}

// Named contexts: `.nowOr(.utility)` picks the `PromiseContext.Named` overloads (plain
// nonisolated closures, no `@isolated(any)` context); on an already-fulfilled promise the
// callbacks run at once, so the allocation count does not depend on a queue.

@inline(never)
func resolvedMapThen(_ n: Int) -> Int {
    for i in 0..<n {
        _ = StdPromise<Int>(fulfilled: i).map(on: .immediate) { $0 &+ 1 }.then(on: .immediate) { tally &+= $0 }
    }
    return checkTally(expectedTally(n, plus: 1))
}

@inline(never)
func resolvedMapThenNamed(_ n: Int) -> Int {
    for i in 0..<n {
        _ = StdPromise<Int>(fulfilled: i).map(on: .nowOr(.utility)) { $0 &+ 1 }.then(on: .nowOr(.utility)) { tally &+= $0 }
    }
    return checkTally(expectedTally(n, plus: 1))
}

@inline(never)
func resolvedTenMapsNamed(_ n: Int) -> Int {
    for i in 0..<n {
        var chain = StdPromise<Int>(fulfilled: i)
        for _ in 0..<9 { chain = chain.map(on: .nowOr(.utility)) { $0 &+ 1 } }
        _ = chain.map(on: .nowOr(.utility)) { tally &+= $0 &+ 1 }
    }
    return checkTally(expectedTally(n, plus: 10))
}

@inline(never)
func contentionLoop(_ n: Int) {
    for i in 0..<n {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        _ = promise.map(on: .immediate) { $0 &+ 1 }.then(on: .immediate) { blackHole($0) }
        resolver.fulfill(with: i)
    }
}

@inline(never)
func flatMapChain(_ depth: Int) -> Int {
    let (root, resolver) = StdPromise<Int>.makeWithResolver()
    var promise = root
    for _ in 0..<depth {
        promise = promise.flatMap(on: .immediate) { StdPromise(fulfilled: $0 &+ 1) }
    }
    _ = promise.then(on: .immediate) { tally &+= $0 }
    resolver.fulfill(with: 0)
    return checkTally(depth)
}

@inline(never)
func nestedFlatMap(_ depth: Int) -> Int {
    let (root, resolver) = StdPromise<Int>.makeWithResolver()
    var promise = root
    for _ in 0..<depth {
        let inner = promise
        promise = StdPromise(fulfilled: 1).flatMap(on: .immediate) { _ in inner }
    }
    _ = promise.then(on: .immediate) { tally &+= $0 }
    resolver.fulfill(with: depth)
    return checkTally(depth)
}

@inline(never)
func pendingWithObserver(_ n: Int) -> Int {
    var held: [(StdPromise<Int>, StdPromise<Int>.Resolver)] = []
    held.reserveCapacity(n)
    for _ in 0..<n {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        _ = promise.then(on: .immediate) { tally &+= $0 }
        held.append((promise, resolver))
    }
    atPeak()
    for (i, (_, resolver)) in held.enumerated() { resolver.fulfill(with: i) }
    held.removeAll()
    return checkTally(expectedTally(n))
}
