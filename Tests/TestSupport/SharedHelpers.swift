// The helpers every test target shares: one error type, a counter, the lock's 1.x-style
// accessors and a bounded poll. A regular target (not a test target), Swift 6 mode; of the
// Swift 5 mode targets, OriginalSuiteTests imports it, while Swift5ClientTests does not (the
// migration check copies that folder alone, so it keeps its own small helpers). Helpers that only one target uses stay in that target
// (TomorrowlandTests/Support, TomorrowlandAsyncTests/TestSupport.swift, …); SwiftCompiler.swift,
// which one target here uses, sits beside this file because the Tools package compiles it too.

import Foundation
import Synchronization
import Tomorrowland

/// A simple error type for `Promise<_, TestError>`.
public struct TestError: Swift.Error, Equatable, Hashable, Codable, Sendable {
    public var code: Int
    public init(_ code: Int = 0) { self.code = code }
    public init(code: Int) { self.code = code }
}

/// A thread-safe counter.
public final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    public init() {}
    @discardableResult public func increment() -> Int { storage.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue }
    public var value: Int { storage.load(ordering: .sequentiallyConsistent) }
}

/// Tomorrowland's `Locked` (an NSLock the thread sanitizer can see, `package` so that every
/// target of this package shares it) with the accessors the 1.x-style tests read best with.
extension Locked {
    /// The value, read or written under the lock.
    public var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }

    /// Runs `body` with exclusive access to the value (`withLock`, by its 1.x-suite name).
    public func modify<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try withLock(body)
    }
}

/// Polls `condition` (without blocking the caller's actor) until it holds or `seconds` pass;
/// returns whether it held.
public func eventually(seconds: Double = 30, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        // A cancelled Task's sleep returns at once: stop instead of spinning until the deadline.
        if Task.isCancelled { break }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

