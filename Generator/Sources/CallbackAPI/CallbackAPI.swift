// One row of the callback API table: an API that takes a context and a closure.
//
// The generator declares each row four times, once per kind of context (the overload the type
// checker picks decides the closure's isolation; see Sources/Tomorrowland/Context/ContextKinds.swift):
// - `PromiseContext.CallerIsolated` (no context, `.auto`, `.immediate`): the closure is
//   `@_inheritActorContext @escaping @isolated(any) @Sendable`, its isolation read from it;
// - `PromiseContext.Main` (`.main`, `.nowOr(.main)`): an `@escaping @MainActor @Sendable` closure,
//   stored without its `@MainActor` and run on the main actor (`MainActor.shared` as isolation);
// - `any PromiseContextConvertible` (a context held in a value): a plain nonisolated
//   `@escaping @Sendable` closure, run on `context.promiseContext`;
// - `PromiseContext.Named` (`.utility`, `.queue(q)`, …): the same plain closure, run on `context.context`.
// A row may also ask for a `with:` variant (a weak owner) and a `TokenPromise` forwarder.

/// One API that takes a context and a closure, and everything the generator makes from it.
public struct CallbackAPI: Sendable {
    /// Where the declarations go.
    public enum Scope: String, Sendable {
        case promise = "extension Promise"
        case stdPromise = "extension Promise where Error == Swift.Error"
        case resolver = "extension Promise.Resolver"
        case delayedPromise = "extension DelayedPromise"
        case promiseOperation = "extension PromiseOperation"
        case tokenPromise = "extension TokenPromise"
        case tokenStdPromise = "extension TokenPromise where Error == Swift.Error"
        /// A top-level function.
        case global = ""

        /// The names a call of an initializer in this scope is written with (`Promise(on:)`,
        /// `StdPromise(on:)`).
        public var typeNames: [String] {
            switch self {
            case .promise, .stdPromise: return ["Promise", "StdPromise"]
            case .delayedPromise: return ["DelayedPromise", "StdDelayedPromise"]
            case .promiseOperation: return ["PromiseOperation", "StdPromiseOperation"]
            case .resolver: return ["Resolver"]
            case .tokenPromise, .tokenStdPromise: return ["TokenPromise"]
            case .global: return []
            }
        }
    }

    /// What is declared: a method or an initializer.
    public enum Declaration: Sendable, Equatable {
        case function
        case initializer
        case convenienceInitializer
    }

    /// One parameter of the declaration, in order.
    public enum Parameter: Sendable {
        /// `on context:`, typed by the overload's kind of context; `= .auto` on the
        /// caller-isolated overload when `defaultAuto`.
        case context(defaultAuto: Bool)
        /// `token: PromiseInvalidationToken? = nil` (dropped by the `TokenPromise` forwarder).
        case token
        /// Written as it is (`attempts: Int`).
        case plain(String)
        /// A closure: `@_inheritActorContext … @isolated(any)` on the caller-isolated overload.
        case callback(label: String, name: String, type: String, defaultValue: String?)

        /// A closure whose argument label is `_`.
        public static func callback(_ name: String, _ type: String) -> Parameter {
            .callback(label: "_", name: name, type: type, defaultValue: nil)
        }
    }

    /// The code of the four overloads.
    public enum Body: Sendable {
        /// The overloads' body. `{context}` is the `PromiseContext`, `{isolation}` the
        /// callback's actor (`MainActor.shared` on the main-actor overload, `nil` on the
        /// nonisolated ones), `{box}` the label of a box's initializer (`callback`, `mainActor`
        /// or `nonisolated`), `{name}` of a callback the closure to store (`unisolated(name)` on
        /// the caller-isolated overload, `unisolated(mainActor: name)` on the main-actor one).
        case inline(String)
        /// The body of an internal `_name(on:token:isolation:_:)`, which all four overloads
        /// call; it runs the callback `isolation` allows (anywhere when `nil`).
        case helper(String)
    }

    /// The `with:` variant: the closure also receives `object`, held weakly until it runs.
    public struct WeakOwner: Sendable {
        /// The closure's type (`(_ object: Object, _ value: Value) -> Void`).
        public var type: String
        /// The doc comment of its caller-isolated overload.
        public var doc: String
        /// The body of its helper, `_name(on:with:token:isolation:_:)`.
        public var body: String

        public init(type: String, doc: String, body: String) {
            self.type = type
            self.doc = doc
            self.body = body
        }
    }

    /// The `TokenPromise` forwarder: the same API without `token:`, with the wrapper's token.
    public struct TokenForwarder: Sendable {
        /// The doc comment of its caller-isolated overload: written by the generator around
        /// `summary`, `callback` and `returns` (the promise's method, the parameters, and that the
        /// returned promise is wrapped and, from the initial wrapper, asked to cancel), or whole.
        public var doc: Doc
        /// The closure's argument label, when it differs from the row's (`mapResult`: `onComplete`).
        public var label: String?
        /// The body, when it is not `wrap(inner.name(on: context, token: token, callback))`.
        public var body: String?

        public enum Doc: Sendable {
            /// What the forwarder does (after "`Promise.name(on:token:_:)` with the wrapper's
            /// token: "), the closure's parameter, and the returned promise (before ", wrapped with
            /// the same token").
            case parts(summary: String, callback: String, returns: String)
            /// A whole doc comment.
            case whole(String)
        }

        public init(summary: String, callback: String, returns: String, label: String? = nil) {
            self.doc = .parts(summary: summary, callback: callback, returns: returns)
            self.label = label
        }

        public init(doc: String, body: String) {
            self.doc = .whole(doc)
            self.body = body
        }
    }

    /// How the migration tool (Tools/) tells a call of this operator from a call of another type's
    /// method of the same name, reading source without types. Every promise operator states it:
    /// `Tools/Tests/TomorrowlandMigrateKitTests/OperatorFactsTests.swift` fails when an operator
    /// recognised `.byName` is also a method of a standard library or Foundation type.
    public enum Recognition: Sendable, Equatable {
        /// By its name alone: no other common type has a method of this name, so `x.name(…)` is
        /// a promise call (`then`, `catch`, `always`).
        case byName
        /// Only with an `on:` argument: collections, optionals, `Result` or `AsyncSequence` have
        /// a method of this name too (`map`, `flatMap`, `mapError`; a `filter` would be one).
        case withContextArgument
        /// A free function, by its first argument label (`when(fulfilled:)`, `when(first:)`).
        case freeFunction(firstLabels: [String])
    }

    /// What an invalidated `token` does to the operator's returned promise, for the `token:`
    /// paragraph the generator writes (`{token}` in a row's doc).
    public enum WhenSkipped: Sendable {
        /// The returned promise takes this promise's result (observers: `then`, `catch`, `always`).
        case passesResult
        /// The returned promise is cancelled (transformers: `map`, `recover`, `mapResult`).
        case cancels
        /// Nothing else: the operator returns `self` (`tap`).
        case skipsOnly
    }

    /// How the placement tests call an operator: on which of their promises (`value`, `error`,
    /// `cancelled`) and with which closure (`{record}` records the case's label). The generator
    /// writes the cases of the operator, its `with:` form (the closure gets `_, ` first) and its
    /// `TokenPromise` forwarder.
    public struct Placement: Sendable {
        public var receiver: String
        public var closure: String

        public init(on receiver: String, _ closure: String) {
            self.receiver = receiver
            self.closure = closure
        }
    }

    public var name: String
    public var scope: Scope
    public var declaration: Declaration
    /// Generic parameters, without the angle brackets (`U, E: Swift.Error`).
    public var generics: [String]
    public var parameters: [Parameter]
    /// The return type (`nil`: an initializer).
    public var returns: String?
    /// Attributes of the four overloads (`@inlinable`, `@discardableResult`).
    public var attributes: [String]
    /// Whether the closure is taken `__owned` (and consumed into its box).
    public var owned: Bool
    /// The doc comment of the caller-isolated overload; the other two say how they differ.
    public var doc: String
    public var body: Body
    /// The caller-isolated overload's isolation, when it is not `callback.isolation`.
    public var isolation: String?
    /// How the other overloads' doc comments name the API, when not `` `name(labels:)` ``.
    public var subject: String?
    /// How the other overloads' doc comments name several closures (`` `body` and `shouldRetry` ``).
    public var closures: String?
    public var weakOwner: WeakOwner?
    public var tokenForwarder: TokenForwarder?
    /// A `// MARK: -` line written before the row.
    public var mark: String?
    /// The labels of the placement tests' cases for this row (NamedContextPlacementTests'
    /// `namedCases`): by default the name, `name(with:)` and `token.name`.
    public var placementLabels: [String]?
    /// How Tools recognises a call of the operator (`nil`: not a promise operator, a handler).
    public var recognition: Recognition?
    /// What an invalidated token does, for the generated `token:` paragraph (`{token}`).
    public var whenSkipped: WhenSkipped?
    /// Whether Tools' operator list (`CallbackOperators.names`) includes the name.
    public var isOperator: Bool { recognition != nil }
    /// The placement tests' generated cases (`nil`: written by hand in `namedCases`).
    public var placement: Placement?

    public init(
        _ name: String,
        in scope: Scope,
        declaration: Declaration = .function,
        generics: [String] = [],
        parameters: [Parameter],
        returns: String?,
        attributes: [String] = [],
        owned: Bool = false,
        doc: String,
        body: Body,
        isolation: String? = nil,
        subject: String? = nil,
        closures: String? = nil,
        weakOwner: WeakOwner? = nil,
        tokenForwarder: TokenForwarder? = nil,
        mark: String? = nil,
        placementLabels: [String]? = nil,
        recognition: Recognition? = nil,
        whenSkipped: WhenSkipped? = nil,
        placement: Placement? = nil
    ) {
        self.name = name
        self.scope = scope
        self.declaration = declaration
        self.generics = generics
        self.parameters = parameters
        self.returns = returns
        self.attributes = attributes
        self.owned = owned
        self.doc = doc
        self.body = body
        self.isolation = isolation
        self.subject = subject
        self.closures = closures
        self.weakOwner = weakOwner
        self.tokenForwarder = tokenForwarder
        self.mark = mark
        self.placementLabels = placementLabels
        self.recognition = recognition
        self.whenSkipped = whenSkipped
        self.placement = placement
    }

    /// A promise operator: `on context:`, `token:` and one closure, in an extension of `Promise`.
    /// `recognised` and `whenSkipped` have no default: a new operator states both. Its doc's
    /// `{context}` and `{token}` lines become the generated `context:` and `token:` paragraphs.
    public static func op(
        _ name: String,
        mark: String? = nil,
        in scope: Scope = .promise,
        generics: [String] = [],
        callback: String,
        type: String,
        returns: String,
        defaultAuto: Bool = false,
        attributes: [String] = [],
        owned: Bool = false,
        doc: String,
        body: Body,
        weakOwner: WeakOwner? = nil,
        tokenForwarder: TokenForwarder?,
        recognised: Recognition,
        whenSkipped: WhenSkipped,
        placement: Placement
    ) -> CallbackAPI {
        CallbackAPI(
            name, in: scope, generics: generics,
            parameters: [.context(defaultAuto: defaultAuto), .token, .callback(callback, type)],
            returns: returns, attributes: attributes, owned: owned, doc: doc, body: body,
            weakOwner: weakOwner, tokenForwarder: tokenForwarder, mark: mark, recognition: recognised, whenSkipped: whenSkipped,
            placement: placement)
    }
}
