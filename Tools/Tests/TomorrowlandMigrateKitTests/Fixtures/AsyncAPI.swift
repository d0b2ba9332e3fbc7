// Bodies already rewritten as async. `add-promise-twins` gives the marked ones a promise
// twin so that the promise-style callers in PromiseClient.swift keep compiling.

import Foundation
import TomorrowlandAsync

enum StoreError: Error { case locked }

struct Store: Sendable {
    // tomorrowland-migrate: promise-twin
    /// Loads a value; throws.
    func value(for key: String, default fallback: Int = 0) async throws -> Int {
        try await Task.sleep(nanoseconds: 1)
        return key.isEmpty ? fallback : key.count
    }

    // tomorrowland-migrate: promise-twin
    /// Never throws: the twin is a `Promise<Int, NoError>`.
    static func version() async -> Int { 3 }

    // tomorrowland-migrate: promise-twin
    /// Typed throws: the twin is a `Promise<String, StoreError>`.
    func unlock(_ code: Int) async throws(StoreError) -> String {
        guard code == 42 else { throw .locked }
        return "open"
    }

    // tomorrowland-migrate: promise-twin
    func generic<T: Sendable>(_ value: T) async throws -> [T] where T: Equatable { [value, value] }

    // tomorrowland-migrate: promise-twin
    func touch() async {}

    /// Not marked: only `--all` twins it.
    func unmarked() async -> Int { 1 }
}

@MainActor
final class Screen {
    var shown = ""

    // tomorrowland-migrate: promise-twin
    func render(_ text: String) async -> String {
        shown = text
        return text
    }
}

actor Counter {
    private var count = 0

    // tomorrowland-migrate: promise-twin
    func increment(by step: Int = 1) async -> Int {
        count += step
        return count
    }
}
