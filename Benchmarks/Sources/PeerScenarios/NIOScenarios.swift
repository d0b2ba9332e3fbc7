// SwiftNIO's EventLoopFuture doing what the Tomorrowland scenarios do, on an
// EmbeddedEventLoop (callbacks inline, like `.immediate`) and on the one loop of a
// one-thread MultiThreadedEventLoopGroup (the batch runs on the loop, so callbacks are
// inline there too and only the loop's thread checks differ).

import NIOCore
import NIOEmbedded
import NIOPosix
import ScenarioKit

/// Runs `body` with a new EmbeddedEventLoop: it must be used on the thread that made it.
func withEmbeddedLoop(_ body: (EmbeddedEventLoop) -> Int) -> Int {
    let loop = EmbeddedEventLoop()
    defer { try! loop.syncShutdownGracefully() }
    return body(loop)
}

/// A one-thread event loop group shared by every scenario that needs a real loop.
let posixGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
/// Its only loop.
let posixLoop = posixGroup.next()

/// Runs `body` on the posix loop and waits for it.
func onPosixLoop(_ body: @escaping @Sendable () -> Int) -> Int {
    try! posixLoop.submit(body).wait()
}

let nioScenarios: [Scenario] = [
    Scenario("p", "NIO-Embedded", "baseline: makePromise and succeed it, no observer", sync: { n in withEmbeddedLoop { nioCreateSucceed($0, n) } }),
    Scenario("a", "NIO-Embedded", "makePromise, map + whenSuccess, succeed", sync: { n in withEmbeddedLoop { nioCreateMapObserve($0, n) } }),
    Scenario("a", "NIO-MTELG", "same, on the loop of a one-thread MTELG", sync: { n in onPosixLoop { nioCreateMapObserve(posixLoop, n) } }),
    Scenario("a-capture", "NIO-Embedded", "(a) with callbacks that capture an object", sync: { n in withEmbeddedLoop { nioCreateMapObserveCapturing($0, n) } }),
    Scenario("b", "NIO-Embedded", "makePromise, 10 maps, succeed", sync: { n in withEmbeddedLoop { nioTenMaps($0, n) } }),
    Scenario("b", "NIO-MTELG", "same, on the loop of a one-thread MTELG", sync: { n in onPosixLoop { nioTenMaps(posixLoop, n) } }),
    Scenario("c", "NIO-Embedded", "makeSucceededFuture + whenSuccess", sync: { n in withEmbeddedLoop { nioSucceededObserve($0, n) } }),
    Scenario("c", "NIO-MTELG", "same, on the loop of a one-thread MTELG", sync: { n in onPosixLoop { nioSucceededObserve(posixLoop, n) } }),
    Scenario("i1", "NIO-Embedded", "(a) on 1 thread, n ops, one EmbeddedEventLoop per thread", sync: { n in
        onThreads(1) { _ in _ = withEmbeddedLoop { nioContention($0, n) } }
        return n
    }),
    Scenario("i2", "NIO-Embedded", "(a) on 2 threads at once, n/2 ops each", sync: { n in
        onThreads(2) { _ in _ = withEmbeddedLoop { nioContention($0, n / 2) } }
        return n
    }),
    Scenario("j", "NIO-Embedded", "EventLoopFuture.whenAllSucceed over n pending futures, succeed them all", sync: { n in withEmbeddedLoop { nioWhenAllSucceed($0, n) } }),
    Scenario("k", "NIO-Embedded", "flatMap chain of depth n, succeed the root", sync: { n in withEmbeddedLoop { nioFlatMapChain($0, n) } }),
    Scenario("k-nested", "NIO-Embedded", "n flatMaps each returning the previous, still pending, future", sync: { n in withEmbeddedLoop { nioNestedFlatMap($0, n) } }),
    Scenario("l", "NIO-Embedded", "n pending promises with one whenSuccess each, held, then succeeded", sync: { n in withEmbeddedLoop { nioPending($0, n) } }),
]

@inline(never)
func nioCreateSucceed(_ loop: any EventLoop, _ n: Int) -> Int {
    for i in 0..<n {
        let promise = loop.makePromise(of: Int.self)
        promise.succeed(i)
        blackHole(promise)
    }
    return n
}

@inline(never)
func nioCreateMapObserve(_ loop: any EventLoop, _ n: Int) -> Int {
    for i in 0..<n {
        let promise = loop.makePromise(of: Int.self)
        promise.futureResult.map { $0 &+ 1 }.whenSuccess { tally &+= $0 }
        promise.succeed(i)
    }
    return checkTally(expectedTally(n, plus: 1))
}

@inline(never)
func nioCreateMapObserveCapturing(_ loop: any EventLoop, _ n: Int) -> Int {
    let state = CapturedState()
    for i in 0..<n {
        let promise = loop.makePromise(of: Int.self)
        promise.futureResult.map { $0 &+ state.offset }.whenSuccess { state.sum &+= $0 }
        promise.succeed(i)
    }
    tally = state.sum
    return checkTally(expectedTally(n, plus: 1))
}

@inline(never)
func nioTenMaps(_ loop: any EventLoop, _ n: Int) -> Int {
    for i in 0..<n {
        let promise = loop.makePromise(of: Int.self)
        var chain = promise.futureResult
        for _ in 0..<9 { chain = chain.map { $0 &+ 1 } }
        _ = chain.map { tally &+= $0 &+ 1 }
        promise.succeed(i)
    }
    return checkTally(expectedTally(n, plus: 10))
}

@inline(never)
func nioSucceededObserve(_ loop: any EventLoop, _ n: Int) -> Int {
    for i in 0..<n {
        loop.makeSucceededFuture(i).whenSuccess { tally &+= $0 }
    }
    return checkTally(expectedTally(n))
}

@inline(never)
func nioContention(_ loop: EmbeddedEventLoop, _ n: Int) -> Int {
    for i in 0..<n {
        let promise = loop.makePromise(of: Int.self)
        promise.futureResult.map { $0 &+ 1 }.whenSuccess { blackHole($0) }
        promise.succeed(i)
    }
    return n
}

@inline(never)
func nioFlatMapChain(_ loop: EmbeddedEventLoop, _ depth: Int) -> Int {
    let root = loop.makePromise(of: Int.self)
    var future = root.futureResult
    for _ in 0..<depth {
        future = future.flatMap { loop.makeSucceededFuture($0 &+ 1) }
    }
    future.whenSuccess { tally &+= $0 }
    root.succeed(0)
    return checkTally(depth)
}

@inline(never)
func nioNestedFlatMap(_ loop: EmbeddedEventLoop, _ depth: Int) -> Int {
    let root = loop.makePromise(of: Int.self)
    var future = root.futureResult
    for _ in 0..<depth {
        let inner = future
        future = loop.makeSucceededFuture(1).flatMap { _ in inner }
    }
    future.whenSuccess { tally &+= $0 }
    root.succeed(depth)
    return checkTally(depth)
}

@inline(never)
func nioPending(_ loop: EmbeddedEventLoop, _ n: Int) -> Int {
    var held: [EventLoopPromise<Int>] = []
    held.reserveCapacity(n)
    for _ in 0..<n {
        let promise = loop.makePromise(of: Int.self)
        promise.futureResult.whenSuccess { tally &+= $0 }
        held.append(promise)
    }
    atPeak()
    for (i, promise) in held.enumerated() { promise.succeed(i) }
    held.removeAll()
    return checkTally(expectedTally(n))
}

@inline(never)
func nioWhenAllSucceed(_ loop: EmbeddedEventLoop, _ n: Int) -> Int {
    var promises: [EventLoopPromise<Int>] = []
    promises.reserveCapacity(n)
    for _ in 0..<n { promises.append(loop.makePromise(of: Int.self)) }
    EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop).whenSuccess { values in
        tally &+= values.reduce(0, &+)
    }
    for (i, promise) in promises.enumerated() { promise.succeed(i) }
    return checkTally(expectedTally(n))
}
