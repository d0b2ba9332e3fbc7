
import SwiftParser
import SwiftSyntax

// `convert-body`, the syntax half: a promise chain (`base.map { … }.catch { … }`) as the
// straight-line body of an async function, or the reason it stays a chain. Pure text in, text
// out; the command (ConvertBody.swift) decides which functions to convert and proves the result.

import SwiftParser
import SwiftSyntax

/// Rewrites the body of one promise-returning function as the body of its async twin.
struct ChainConversion {
    /// Whether the twin runs on an actor (a global actor's or actor method): then callbacks
    /// given a caller-isolated context ran on that actor, and run inline.
    let isolated: Bool
    /// Whether that actor is the main actor: only then do `.main` callbacks run inline (in an
    /// actor or on another global actor they ran on main, and run on the main executor).
    var onMainActor = false
    /// Whether a call (in the body) has an async twin: `try await f(x)` instead of `.value`.
    let hasTwin: (FunctionCallExprSyntax) -> Bool
    /// Whether the twin returns nothing (a `Promise<Void, …>`).
    var returnsVoid: Bool
    /// The function's promise type as written (`Promise<String, APIError>`): the type of the
    /// promise a final `flatMap` returns.
    var promiseType: String = ""
    /// Whether that promise's error is `NoError`: the twin throws only `CancellationError`.
    var noError = false
    /// Contexts declared in `extension PromiseContext.CallerIsolated` (`.here`): they keep
    /// the caller's actor, like `.auto`.
    var callerIsolatedContexts: Set<String> = []
    /// Contexts declared in `extension PromiseContext.Main` (`.screen`): the main actor, like
    /// `.main`.
    var mainContexts: Set<String> = []
    /// The stored properties of the function's type that may hold a context (`delivery`), by name.
    var storedContexts: [String: StoredContext] = [:]
    /// The function's parameter names (a parameter named like a stored property hides it).
    var parameterNames: Set<String> = []
    /// The function's parameters' types as written, by name (`ledger: Ledger`).
    var parameterTypes: [String: String] = [:]
    /// The promise's error type as written (`APIError`; empty when untyped or `NoError`): an
    /// early `return Promise(rejected: .notFound)` becomes `throw APIError.notFound`.
    var typedError = ""
    /// Whether the function returns a `TokenPromise`: a final `.withToken(token)` moves to the wrapper.
    var tokenPromise = false
    /// The function's promise type, aliases resolved (`HubPromise<Device>`: value `Device`, error
    /// `HubError`): the type of the result a final `tap` or `always` reads.
    var functionPromise: PromiseType? = nil
    /// The promise type the compiler gave a call of the original body (`Promise<Menu, NetworkError>`), when known.
    var typeOfCall: (FunctionCallExprSyntax) -> String? = { _ in nil }
    /// Whether the chain's `Tail` (a final `timeout`, `recover { _ in }`) is left to the caller
    /// (`convertedWithTail`): the steps are converted, their lines apart from the preamble's.
    var stripsTail = false
    /// Converting the steps after a split point (ChainConversion+Split.swift): how many, and what stands for the chain before them.
    var split: Split? = nil
    /// Names the twin declares outside the chain's lines (a split's local function): no `let` of the chain takes them.
    var reservedNames: Set<String> = []
    /// Whether a wrapper starts the twin at once (`Promise(on: .immediate)`): the code 1.x ran in
    /// callbacks then comes after one real suspension (ChainConversion+Order.swift).
    var keepsCallbackOrder = false
    /// The chain's base whose await is that suspension (`Task.yieldingAfter { … }`), once chosen, and
    /// whether that await throws only `CancellationError` (a `NoError` promise).
    var yieldsAfterAwaitOf: (base: SyntaxIdentifier, cancellationOnly: Bool)?

    /// A stored property that may hold a context: its type as written (`PromiseContext.Main`), and
    /// the context it always holds when it is a `let` initialized with one spelled out (`.main`).
    struct StoredContext {
        let type: String
        let constant: ExprSyntax?
    }

    /// Why a chain stays a chain.
    struct Left: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The operators this rewriter turns into statements.
    static let valueOperators: Set<String> = ["then", "map", "flatMap"]
    static let errorOperators: Set<String> = ["catch", "recover", "mapError", "flatMapError"]
    /// The operators whose closure returns a promise (awaited where the step ends).
    static let promiseSteps: Set<String> = ["flatMap", "flatMapError"]

    static let throwingValueOperators = [
        "tryThen": "then", "tryMap": "map", "tryFlatMap": "flatMap",
        "tryRecover": "recover", "tryMapError": "mapError", "tryFlatMapError": "flatMapError",
    ]
    static let unconvertible: [String: String] = [
        // On the chain's base it stays on that promise, awaited; after steps, the chain is split there (ChainConversion+Split.swift).
        "timeout": "`timeout` after steps, in a chain not split there (a limit of the tool: one `timeout` per chain, only steps after it, "
            + "not in a `TokenPromise` function)",
        "delay": "`delay` after a step (`Task.sleep` after the await would not pass errors and cancellation on late: on the chain's "
            + "base it stays on that promise, awaited)",
        "propagatingCancellation": "`propagatingCancellation`",
        // The token asks the chain's promise to cancel: the wrapper could, but the twin's own callers would not be.
        "requestCancelOnInvalidate": "`requestCancelOnInvalidate(token)` (an invalidation cancelled the chain's promise; an async function "
            + "cannot cancel the Task that runs it, as Swift gives it no handle to that Task, so the twin's callers would not be cancelled)",
        "ignoringCancel": "`ignoringCancel` after a step (the steps before it would see the Task's cancellation: Swift has no way to "
            + "shield an await from it)",
    ]

    /// One `.op(on: context) { closure }` of the chain.
    struct Step {
        let name: String
        var context: ExprSyntax?
        let closure: ClosureExprSyntax
        /// The outermost call of the chain: its promise is the function's.
        var isLast = false
        /// The operator's call (`base.map(on: …) { … }`).
        var call: FunctionCallExprSyntax? = nil
        /// The promise types the compiler gave the step's base and its call (`Promise<Menu,
        /// NetworkError>`), when known.
        var baseType: PromiseType? = nil
        var type: PromiseType? = nil
        /// The invalidation token the callback is registered with (`token: t`), as written.
        var token: String? = nil
        /// The closure as written, with its capture list (`closure` has none in the twin: ChainConversion+Preamble.swift).
        var written: ClosureExprSyntax? = nil

        /// Whether the operator is an observer (`then`, `catch`, `always`, `tap`): skipped by an
        /// invalidated token, its promise takes the parent's result. The others (`map`,
        /// `flatMap`, `recover`, …) are skipped and their promise is cancelled.
        var observes: Bool { ["then", "catch", "always", "tap", "onCancel"].contains(name) }

        /// Whether the closure reads its parameter (the result, for `tap` and `always`).
        var readsParameter: Bool {
            if let (names, _) = ChainConversion.parameters(of: closure) { return names.contains { $0 != "_" } }
            return !ChainConversion.anonymousArguments(of: closure).zero.isEmpty
        }
    }

    /// Whether `body` ends in a promise chain (`x.map { … }`, `when(fulfilled:)`): the bodies
    /// this command is about, converted or not.
    static func isChain(_ body: CodeBlockSyntax) -> Bool {
        guard let last = body.statements.last?.item else { return false }
        var current = last.as(ReturnStmtSyntax.self)?.expression ?? last.as(ExprSyntax.self)
        if let call = current?.as(FunctionCallExprSyntax.self), Calls.calledName(call)?.0 == "when" { return true }
        while let call = current?.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            let name = member.declName.baseName.text
            if CallbackOperators.names.contains(name) || unconvertible[name] != nil || name == "withToken" { return true }
            current = base
        }
        return false
    }

    /// What `convert` makes of a body.
    struct Converted: Equatable {
        /// The statements of the twin's body (without indentation).
        var lines: [String]
        /// The token of a final `.withToken(token)`, which the wrapper keeps: the callbacks that
        /// callers register through the returned `TokenPromise` still check it.
        var token: String?
        /// With `stripsTail`, the lines of the chain alone (`lines` are the preamble's).
        var chainLines: [String]? = nil
        /// The `.nowOr(c)` of a last step off the caller's actor: 1.x's promise resolved at once or on `c`, and so does the
        /// wrapper's (`.then(on: .nowOr(c)) { _ in }`), for its `.immediate` observers (ChainConversion+NowOr.swift).
        var resolvedOn: String? = nil
        /// Whether every result resolves there (`.always(on: c) { _ in }`: a final `delay`, ChainConversion+Tails.swift), not the value only.
        var resolvedOnEveryResult = false
    }

    /// The statements of the twin's body (without indentation), or why not.
    func convert(_ body: CodeBlockSyntax) -> Result<Converted, Left> {
        Result { try converted(body) }.mapError { $0 as? Left ?? Left("\($0)") }.flatMapError { left in
            // A final `timeout` or `recover { _ in }` the chain's own conversion left: the steps alone, the tail around them.
            convertedWithTail(body, left: left)
        }
    }
}
