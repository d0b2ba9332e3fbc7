// The input of the Swift 5 rule's run-time check: Tests/ConvertedSwiftFiveTests/ConvertedSwiftFive.swift
// (a Swift 5 mode test target) is exactly what add-async-twins and convert-body make of this file
// in Swift 5 mode. Its types are not Sendable, as in a 1.x codebase: a lock guards their state.

import Foundation
import Tomorrowland

/// The queue the chains' steps name; marked so that a closure can tell it runs there.
let wireQueue = DispatchQueue(label: "convert-body.swift-five")
let wireKey = DispatchSpecificKey<String>()

/// A source: a value for a positive input at once; for 0, a promise that stays pending until it
/// is asked to cancel. It records the requests it started and the cancel requests it got.
final class Wire {
    private let lock = NSLock()
    private var startedInputs: [Int] = []
    private var cancelledInputs: [Int] = []

    var started: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return startedInputs
    }

    var cancelled: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return cancelledInputs
    }

    func fetch(_ input: Int) -> Promise<Int, Error> {
        lock.lock()
        startedInputs.append(input)
        lock.unlock()
        if input > 0 { return Promise(fulfilled: input) }
        return Promise(on: .immediate) { resolver in
            resolver.onRequestCancel(on: .immediate) { [weak self] resolver in
                self?.recordCancel(input)
                resolver.cancel()
            }
        }
    }

    private func recordCancel(_ input: Int) {
        lock.lock()
        cancelledInputs.append(input)
        lock.unlock()
    }
}

/// A view model of a Swift 5 mode app: its chains capture `self`, whose state a lock guards.
final class Tally {
    let wire: Wire
    private let lock = NSLock()
    private var list: [String] = []

    init(wire: Wire) {
        self.wire = wire
    }

    var events: [String] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }

    func note(_ event: String) {
        lock.lock()
        list.append(event + (DispatchQueue.getSpecific(key: wireKey).map { " on \($0)" } ?? ""))
        lock.unlock()
    }

    /// A statement before the chain, then the wire's value doubled on `wireQueue`, noted there.
    func load(_ input: Int) -> Promise<Int, Error> {
        note("before \(input)")
        return wire.fetch(input).map(on: .queue(wireQueue)) { value in
            self.note("mapped \(value)")
            return value * 2
        }
    }

    /// Its closure does not capture `self` (only the chain's base reads `wire`): the wrapper
    /// would add the capture, so the chain stays.
    func tripled(_ input: Int) -> Promise<Int, Error> {
        wire.fetch(input).map(on: .queue(wireQueue)) { $0 * 3 }
    }
}

/// The queues of the app, in static properties (the wrapper of a chain whose steps all run on one
/// of them resolves there).
enum Queues {
    static let ledger = DispatchQueue(label: "convert-body.swift-five.ledger")
}

/// A chain whose steps all run on `Queues.ledger`, noted there, whose base has resolved when the
/// chain is built.
final class Ledger {
    let tally: Tally

    init(tally: Tally) {
        self.tally = tally
    }

    func post(_ input: Int) -> Promise<Int, Error> {
        tally.wire.fetch(input).map(on: .queue(Queues.ledger)) { value in
            self.tally.note("posted \(value)")
            return value + 1
        }
    }
}

func postThenCancel(_ ledger: Ledger) -> Promise<Int, Error> {
    let promise = ledger.post(0)
    promise.requestCancel()
    return promise
}

/// A non-Sendable parameter that the chain's closure captures.
func relayed(_ input: Int, through wire: Wire) -> Promise<Int, Error> {
    wire.fetch(input).flatMap(on: .queue(wireQueue)) { value in
        wire.fetch(value + 1)
    }
}

/// Callers that keep the promise, as tests of the promise API do: a cancel request right after
/// the call. The promise versions stay, so each chain needs its wrapper.
func loadThenCancel(_ tally: Tally) -> Promise<Int, Error> {
    let promise = tally.load(0)
    promise.requestCancel()
    return promise
}

func tripledThenCancel(_ tally: Tally) -> Promise<Int, Error> {
    let promise = tally.tripled(0)
    promise.requestCancel()
    return promise
}

func relayedThenCancel(_ wire: Wire) -> Promise<Int, Error> {
    let promise = relayed(0, through: wire)
    promise.requestCancel()
    return promise
}
