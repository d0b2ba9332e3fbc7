// Sources/TomorrowlandAsync/TomorrowlandAsync.docc: the snippets of the getting-started,
// cancellation and threading articles, compiled and run.

import Dispatch
import Foundation
import Testing
import TomorrowlandAsync

// MARK: GettingStarted.md

func greeting(for id: Int) async throws -> String {
    let user = try await fetchUser(id: id).value
    return "Hello, \(user.name)"
}

func describe(_ count: Promise<Int, String>) async -> String {
    switch await count.resolvedResult {
    case .value(let value): return "count: \(value)"
    case .error(let message): return "error: \(message)"
    case .cancelled: return "cancelled"
    }
}

func userPromise(id: Int) -> StdPromise<User> {
    StdPromise<User> { try await loadUserAsync(id: id) }
}

enum LengthError: Swift.Error {
    case empty
}

func length(of text: String) -> Promise<Int, LengthError> {
    Promise<Int, LengthError> { () async throws(LengthError) -> Int in
        guard !text.isEmpty else { throw .empty }
        return text.count
    }
}

func answer() -> Promise<Int, NoError> {
    Promise<Int, NoError> {
        await Task.yield()
        return 42
    }
}

// MARK: Cancellation.md

func firstTwoUsers() async throws -> [User] {
    let shared = fetchUser(id: 1)
    async let a = shared.value
    async let b = shared.value
    return try await [a, b]
}

// MARK: Threading.md

let accountsQueue = DispatchQueue(label: "accounts")
let accountsExecutor = PromiseContext.queue(accountsQueue).serialExecutor!

actor Accounts {
    private var balances: [String: Int] = [:]

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        accountsExecutor.asUnownedSerialExecutor()
    }

    func deposit(_ amount: Int, to account: String) {
        balances[account, default: 0] += amount
    }

    func balance(of account: String) -> Int {
        balances[account, default: 0]
    }
}

func depositFromPromise(_ amount: StdPromise<Int>, into accounts: Accounts) -> StdPromise<Void> {
    amount.map(on: .queue(accountsQueue)) { amount in
        accounts.assumeIsolated { accounts in
            accounts.deposit(amount, to: "savings")
        }
    }
}

func checksumOnUtility(_ data: [UInt8]) async -> UInt64 {
    await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) {
        data.reduce(0) { $0 &* 31 &+ UInt64($1) }
    }
}

// MARK: Tests

@Suite("TomorrowlandAsync.docc")
struct AsyncCatalogTests {
    @Test func awaitingAValue() async throws {
        #expect(try await greeting(for: 8) == "Hello, user8")
    }

    @Test func awaitingATypedResult() async {
        #expect(await describe(Promise(rejected: "bad")) == "error: bad")
        #expect(await describe(Promise(fulfilled: 3)) == "count: 3")
    }

    @Test func asyncToPromise() async throws {
        #expect(try await userPromise(id: 9).value == User(id: 9, name: "user9"))
    }

    @Test func typedAndNonThrowingOperations() async {
        #expect(await length(of: "four").resolvedResult == .value(4))
        #expect(await length(of: "").resolvedResult == .error(.empty))
        #expect(await answer().resolvedResult == .value(42))
    }

    @Test func twoAwaitersShareOnePromise() async throws {
        #expect(try await firstTwoUsers().map(\.id) == [1, 1])
    }

    @Test func actorOnAPromiseQueue() async throws {
        let accounts = Accounts()
        try await depositFromPromise(StdPromise(fulfilled: 5), into: accounts).value
        await accounts.deposit(2, to: "savings")
        #expect(await accounts.balance(of: "savings") == 7)
    }

    @Test func taskExecutorPreference() async {
        #expect(await checksumOnUtility([1, 2]) == 33)
    }
}
