// The kinds of context a callback can be given, as parameter types of their own.
//
// Every API that takes a context and a closure is declared four times, once per kind of
// context argument, so the compiler can choose the closure's isolation from what the call site
// says (the four are generated into Generated/ from one row each, by the repository's
// Generator/ package):
// - `PromiseContext.Named` (`.utility`, `.queue(q)`, …, `.nowOr(value)`) and
//   `any PromiseContextConvertible` (a `PromiseContext` held in a value): the closure is a plain
//   `@Sendable` closure, nonisolated, run where the context says (1.x);
// - `PromiseContext.Main` (`.main`, `.nowOr(.main)`): the closure is `@MainActor`, run on the
//   main queue wherever it is written (1.x ran it on the main queue; it may use main-actor
//   state, and another actor's state only draws a compile error);
// - `PromiseContext.CallerIsolated` (no context, `.auto`, `.immediate`, spelled at the call
//   site): the closure inherits the caller's actor and runs on it.
// No overload is `@_disfavoredOverload`: a `.utility` argument fits `Named` only (an
// existential offers no implicit members), `.main` fits `Main` only, `.auto` fits
// `CallerIsolated` only, and a value fits `any PromiseContextConvertible` only, so the type
// checker never ranks two of them. (With the inheriting overload disfavoured instead, six
// `.map(on: .utility)` and a `.flatMap(on: .main) { StdPromise(fulfilled: $0) }` went from 114
// solver scopes to the solver's limit; see Benchmarks/notes/issue-19-named-contexts.md,
// "Type-checking".) A `.member` of a user's `extension PromiseContext` fits none: such contexts
// get a twin on `Named` or `Main` (MIGRATION.md; `tomorrowland-migrate adopt` writes it), or
// are spelled `PromiseContext.member` (a value).

import Dispatch
import Foundation

extension PromiseContext {
    /// A context that names where a callback runs: a QoS queue, a dispatch queue or an
    /// operation queue (or `.nowOr` one of them).
    ///
    /// `.utility`, `.queue(q)` or `.operationQueue(q)` passed to a callback API picks the
    /// overload that takes this type. Its callback is an ordinary nonisolated `@Sendable`
    /// closure, run exactly where the context says, as in Tomorrowland 1.x, even when written
    /// in `@MainActor` code or in an actor. Touching that actor's state from it is a compile
    /// error: the closure runs on another queue.
    ///
    /// A `PromiseContext` held in a value (a property, a parameter, `PromiseContext.x`) picks
    /// the `any PromiseContextConvertible` overload, which behaves the same way: the closure is
    /// nonisolated and runs on the context the value holds.
    ///
    /// Contexts of your own that name a queue belong here too, so that `.imageDecoding` (with
    /// the leading dot) compiles and picks this overload (`tomorrowland-migrate adopt` writes
    /// these for the contexts of a 1.x `extension PromiseContext`):
    ///
    /// ```swift
    /// extension PromiseContext.Named {
    ///     static let imageDecoding: Self = .queue(decodeQueue)
    /// }
    /// ```
    public struct Named: Sendable, Hashable {
        /// The context this value names.
        public let context: PromiseContext

        /// A context held in a value, used as a named one: a callback given it is nonisolated
        /// and runs on `context`, exactly as when the value itself is passed.
        ///
        /// Use it to give a context of your own a name on `Named`, so that the leading-dot
        /// spelling compiles: `static var db: Self { Self(PromiseContext.db) }`. For `.main`,
        /// `.auto` or `.immediate` the callback is still nonisolated (it does not keep the
        /// caller's actor); declare such a context on `CallerIsolated` instead.
        @inlinable public init(_ context: PromiseContext) { self.context = context }

        /// `DispatchQueue.global(qos: .background)`.
        @inlinable public static var background: Named { Named(.background) }
        /// `DispatchQueue.global(qos: .utility)`.
        @inlinable public static var utility: Named { Named(.utility) }
        /// `DispatchQueue.global(qos: .default)`.
        @inlinable public static var `default`: Named { Named(.default) }
        /// `DispatchQueue.global(qos: .userInitiated)`.
        @inlinable public static var userInitiated: Named { Named(.userInitiated) }
        /// `DispatchQueue.global(qos: .userInteractive)`.
        @inlinable public static var userInteractive: Named { Named(.userInteractive) }
        /// A specific dispatch queue (`.queue(.main)`: a fresh `DispatchQueue.main.async`; to
        /// use main-actor state, pass `.main` instead).
        @inlinable public static func queue(_ queue: DispatchQueue) -> Named { Named(.queue(queue)) }
        /// A specific operation queue: the callback is added as an operation.
        @inlinable public static func operationQueue(_ queue: OperationQueue) -> Named { Named(.operationQueue(queue)) }
        /// The global queue of a Dispatch QoS class (`.unspecified` means `.default`), like
        /// `PromiseContext(qos:)`.
        public init(qos: DispatchQoS.QoSClass) { self.init(PromiseContext(qos: qos)) }
        /// Synchronously if the promise is already resolved, otherwise on `context`.
        @inlinable public static func nowOr(_ context: Named) -> Named { Named(.sharedNowOr(context.context)) }
        /// Synchronously if the promise is already resolved, otherwise on the context held in
        /// `context` (`.nowOr(someContext)`); the callback is nonisolated, as for the value itself.
        @inlinable public static func nowOr(_ context: any PromiseContextConvertible) -> Named {
            Named(.sharedNowOr(context.promiseContext))
        }
    }

    /// The main queue: the callback is isolated to the main actor and runs there, wherever it
    /// is written.
    ///
    /// `.main` or `.nowOr(.main)` passed to a callback API picks the overload that takes this
    /// type. Its callback is a `@MainActor @Sendable` closure: as in Tomorrowland 1.x, it runs
    /// on the main queue, whether it is written in `@MainActor` code, in an actor, in a class
    /// isolated to another global actor or in nonisolated code. Written in `@MainActor` code it
    /// may use main-actor state directly. Written in an actor's code, touching that actor's
    /// state from it is a compile error (it runs on the main actor, not there): the 1.x race
    /// the compiler now names, never a silent move to another actor.
    ///
    /// `.nowOr(.main)` runs the callback synchronously when the promise is already resolved
    /// *and* the caller is on the main queue; otherwise on the main queue's FIFO, like `.main`.
    /// (1.x ran it synchronously on any thread; a main-actor closure cannot run off the main
    /// actor.)
    ///
    /// To hold `.main` in a value and keep this behaviour, give the value this type:
    ///
    /// ```swift
    /// @MainActor final class Screen {
    ///     var title = ""
    ///     let delivery: PromiseContext.Main = .main
    ///
    ///     func show(_ name: StdPromise<String>) {
    ///         name.then(on: delivery) { self.title = $0 }  // on the main actor
    ///     }
    /// }
    /// ```
    public struct Main: Sendable, Hashable {
        /// The context this value names: `.main` or `.nowOr(.main)`.
        public let context: PromiseContext

        @inlinable init(_ context: PromiseContext) { self.context = context }

        /// The main queue, with same-turn ordering of chained callbacks (`PromiseContext.main`).
        @inlinable public static var main: Main { Main(.main) }
        /// Synchronously if the promise is already resolved and the caller is on the main
        /// queue, otherwise on the main queue (`PromiseContext.nowOr(.main)`).
        @inlinable public static func nowOr(_ context: Main) -> Main {
            Main(.sharedNowOr(context.context))
        }
    }

    /// A context that names no executor of its own: the callback keeps the caller's actor.
    ///
    /// No context, `.auto`, `.immediate` or `.nowOr(.immediate)` passed to a callback API picks
    /// the overload that takes this type. A closure written in `@MainActor` code, in code
    /// isolated to another global actor, or in an actor method that uses `self`, is isolated
    /// to that actor and always runs on it; a nonisolated closure runs where the context says.
    /// (`.main` is a context of its own, ``PromiseContext/Main``: it always means the main
    /// queue.)
    public struct CallerIsolated: Sendable, Hashable {
        /// The context this value names.
        public let context: PromiseContext

        @inlinable init(_ context: PromiseContext) { self.context = context }

        /// `.main` when called on the main queue or main actor, otherwise `.default`; evaluated
        /// when the method is called.
        @inlinable public static var auto: CallerIsolated { CallerIsolated(.auto) }
        /// Synchronously on the thread that resolves the promise (`PromiseContext.immediate`).
        @inlinable public static var immediate: CallerIsolated { CallerIsolated(.immediate) }
        /// Synchronously if the promise is already resolved, otherwise on `context`.
        @inlinable public static func nowOr(_ context: CallerIsolated) -> CallerIsolated {
            CallerIsolated(.sharedNowOr(context.context))
        }
    }
}

/// A context held in a value: `PromiseContext` conforms.
///
/// A callback API given a `PromiseContext` value (a property, a parameter,
/// `PromiseContext(qos:)`, `PromiseContext.db`, `fast ? PromiseContext.immediate : .utility`)
/// takes it as `any PromiseContextConvertible`. Its closure is an ordinary nonisolated
/// `@Sendable` closure, run on the context the value holds when the callback runs, as in 1.x
/// and as for `.utility` spelled out; touching an actor's state from it is a compile error.
///
/// Only `.main` and `.nowOr(.main)` (a main-actor closure) and the contexts that name no
/// executor of their own (no context, `.auto`, `.immediate`: the caller's actor), spelled at
/// the call site, give the closure an actor. To hold such a context in a value and keep that
/// behaviour, give the value the type ``PromiseContext/Main`` (`let delivery:
/// PromiseContext.Main = .main`) or ``PromiseContext/CallerIsolated``.
public protocol PromiseContextConvertible: Sendable {
    /// The context.
    var promiseContext: PromiseContext { get }
}

extension PromiseContext {
    /// `.nowOr(context)`, shared for the contexts without a payload: `nowOr` is an `indirect`
    /// case, so making one allocates its box (one allocation per `.nowOr(.utility)` call site
    /// run, measured in Benchmarks' `a-named`); these are made once.
    @inlinable
    static func sharedNowOr(_ context: PromiseContext) -> PromiseContext {
        switch context {
        case .main: return SharedNowOr.main
        case .background: return SharedNowOr.background
        case .utility: return SharedNowOr.utility
        case .default: return SharedNowOr.default
        case .userInitiated: return SharedNowOr.userInitiated
        case .userInteractive: return SharedNowOr.userInteractive
        case .immediate, .queue, .operationQueue, .nowOr: return .nowOr(context)
        }
    }
}

/// The shared `.nowOr` values of `PromiseContext.sharedNowOr(_:)`.
@usableFromInline
enum SharedNowOr {
    @usableFromInline static let main = PromiseContext.nowOr(.main)
    @usableFromInline static let background = PromiseContext.nowOr(.background)
    @usableFromInline static let utility = PromiseContext.nowOr(.utility)
    @usableFromInline static let `default` = PromiseContext.nowOr(.default)
    @usableFromInline static let userInitiated = PromiseContext.nowOr(.userInitiated)
    @usableFromInline static let userInteractive = PromiseContext.nowOr(.userInteractive)
}

extension PromiseContext: PromiseContextConvertible {
    /// `self`.
    @inlinable public var promiseContext: PromiseContext { self }
}
