// The fixture `delete-twins` runs on: twins the tool wrote, some called, some not, one public,
// one in a protocol extension, a promise twin, and a hand-written function shaped like a twin.

import Tomorrowland
import TomorrowlandAsync

protocol Source: Sendable {
    func items() -> StdPromise<[Int]>
}

extension Source {
    /// Async twin of `items()` (added by tomorrowland-migrate): awaits the promise it returns.
    func items() async throws -> [Int] {
        try await (items() as StdPromise<[Int]>).value
    }
}

struct Numbers: Source {
    func items() -> StdPromise<[Int]> { StdPromise(fulfilled: [1, 2]) }
}

func used() -> StdPromise<Int> { StdPromise(fulfilled: 1) }

/// Async twin of `used()` (added by tomorrowland-migrate): awaits the promise it returns.
func used() async throws -> Int {
    try await (used() as StdPromise<Int>).value
}

func unused() -> StdPromise<Int> { StdPromise(fulfilled: 2) }

// A comment of the user's, above the twin: it stays.
/// Async twin of `unused()` (added by tomorrowland-migrate): awaits the promise it returns.
func unused() async throws -> Int {
    try await (unused() as StdPromise<Int>).value
}

public func exported() -> StdPromise<Int> { StdPromise(fulfilled: 3) }

/// Async twin of `exported()` (added by tomorrowland-migrate): awaits the promise it returns.
public func exported() async throws -> Int {
    try await (exported() as StdPromise<Int>).value
}

// tomorrowland-migrate: promise-twin
func converted() async -> Int { 4 }

/// Promise twin of `converted()` (added by tomorrowland-migrate): runs it in a new Task.
func converted() -> Promise<Int, NoError> {
    Promise { await converted() }
}

/// Written by hand: it forwards like a twin, but it is no twin of the tool's.
func handWritten() -> StdPromise<Int> { StdPromise(fulfilled: 5) }

func handWritten() async throws -> Int {
    try await (handWritten() as StdPromise<Int>).value
}

func caller() async throws -> Int {
    let first = try await used()
    return first + (await converted())
}

/// Review 28, finding 7a: the twin `Service.count()` is the witness of `Counting.count()`;
/// without it the default (0) would answer, silently.
protocol Counting {
    func count() async throws -> Int
}

extension Counting {
    func count() async throws -> Int { 0 }
}

struct Service: Counting {
    func count() -> StdPromise<Int> { StdPromise(fulfilled: 5) }

    /// Async twin of `count()` (added by tomorrowland-migrate): awaits the promise it returns.
    func count() async throws -> Int {
        try await (count() as StdPromise<Int>).value
    }
}

func later() -> StdPromise<Int> { StdPromise(fulfilled: 6) }

/// Async twin of `later()` (added by tomorrowland-migrate): awaits the promise it returns.
func later() async throws -> Int {
    try await (later() as StdPromise<Int>).value
}

// Review 28, finding 7b: code the compiler does not see here calls the twin of `later()`.
#if TOMORROWLAND_OTHER_PLATFORM
func onTheOtherPlatform() async throws -> Int { try await later() }
#else
// The clause compiled here: a name in it is no reason to keep the twin of `unused()`.
func onThisPlatform() -> Int {
    let unused = 1
    return unused
}
#endif
