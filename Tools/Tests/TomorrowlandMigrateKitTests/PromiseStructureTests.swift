// Promise types by structure (issue 37, item 2): every declaration whose type is a `Promise`
// or `TokenPromise` specialization gets a twin or a reason, however generic it is and wherever
// it is declared (the shapes of a blind corpus the tool never saw).

import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("promise types by structure")
struct PromiseStructureTests {
    /// The shapes of the blind corpus: a generic alias over the function's own and the
    /// enclosing type's parameters, a generic class with two parameters and a constrained
    /// extension, a generic method of a protocol extension with a defaulted metatype, and
    /// extensions of `Promise` constrained to one error.
    static let chat = (path: "Chat.swift", text: """
        import Foundation
        import Tomorrowland

        enum ChatError: Error, Sendable { case offline, timedOut, decoding }
        typealias ChatPromise<T> = Promise<T, ChatError>

        struct Message: Codable, Sendable, Equatable { var text: String }

        final class Connection: Sendable {
            func send(_ data: Data) -> ChatPromise<Data> { Promise(fulfilled: data) }
        }

        final class Endpoint<Request: Encodable & Sendable, Response: Sendable>: Sendable {
            let path: String
            init(path: String) { self.path = path }

            func call(over connection: Connection, with request: Request) -> ChatPromise<Response> {
                connection.send(Data()).flatMap(on: .immediate) { _ in ChatPromise<Response>(rejected: .decoding) }
            }
        }

        extension Endpoint where Response == Void {
            func call(over connection: Connection) -> ChatPromise<Response> {
                connection.send(Data()).map(on: .immediate) { _ in () }
            }
        }

        protocol ChatAPI: Sendable {
            var connection: Connection { get }
        }

        extension ChatAPI {
            func get<T: Decodable & Sendable>(_ path: String, as type: T.Type = T.self) -> ChatPromise<T> {
                connection.send(Data("[]".utf8)).flatMap(on: .immediate) { data in
                    do { return ChatPromise<T>(fulfilled: try JSONDecoder().decode(T.self, from: data)) }
                    catch { return ChatPromise<T>(rejected: .decoding) }
                }
            }
        }

        extension Promise where Error == ChatError {
            func timingOut(after seconds: TimeInterval) -> ChatPromise<Value> {
                timeout(on: .immediate, delay: seconds).mapError(on: .immediate) { error in
                    switch error {
                    case .timedOut: return .timedOut
                    case .rejected(let inner): return inner
                    }
                }
            }

            func orOffline() -> Promise<Value, Error> { self }
        }

        final class Session: ChatAPI {
            let connection = Connection()

            func authorized<T>(_ body: @escaping @Sendable (String) -> ChatPromise<T>) -> ChatPromise<T> {
                body("token")
            }

            func messages() -> ChatPromise<[Message]> { get("/messages") }
        }
        """)

    /// Calls of every twin, as a team's async code would make them.
    static let chatClient = (path: "ChatClient.swift", text: """
        import Foundation
        import Tomorrowland
        import TomorrowlandAsync

        struct Ping: Encodable, Sendable {}

        func chatClient() async throws -> Int {
            let session = Session()
            let messages: [Message] = try await session.get("/messages")
            let typed = try await session.get("/messages", as: [Message].self)
            let all = try await session.messages()
            let token: String = try await session.authorized { token in ChatPromise(fulfilled: token) }
            let data = try await session.connection.send(Data([1]))
            let empty: Void = try await Endpoint<Ping, Void>(path: "/p").call(over: session.connection)
            _ = empty
            let timed = try await session.connection.send(Data([2])).timingOut(after: 1)
            let offline = try await session.connection.send(Data([3])).orOffline()
            do {
                let _: Int = try await Endpoint<Ping, Int>(path: "/n").call(over: session.connection, with: Ping())
            } catch let error as ChatError {
                _ = error
            }
            let texts = messages.count + typed.count + all.count + token.count
            return texts + data.count + timed.count + offline.count
        }
        """)

    static let expectedTwins = [
        "func send(_ data: Data) async throws -> Data {",
        "func call(over connection: Connection, with request: Request) async throws -> Response {",
        "func call(over connection: Connection) async throws -> Response {",
        "func get<T: Decodable & Sendable>(_ path: String, as type: T.Type = T.self) async throws -> T {",
        "func timingOut(after seconds: TimeInterval) async throws -> Value {",
        "func orOffline() async throws -> Value {",
        "func authorized<T>(_ body: @escaping @Sendable (String) -> ChatPromise<T>) async throws -> T {",
        "func messages() async throws -> [Message] {",
    ]

    @Test("from syntax: every shape gets its twin, and no reason is needed")
    func syntaxTwins() throws {
        let (notes, sources) = Support.bothCommands([Self.chat], all: false)
        let text = Self.flattened(Support.text(of: "Chat.swift", in: sources))
        for twin in Self.expectedTwins {
            #expect(text.contains(twin), "\(twin)\n\(text)")
        }
        #expect(!notes.contains { $0.message.contains("no async twin") }, "\(notes)")
    }

    @Test("from syntax: the twins compile and the calls of a team's async code reach them (Swift 5 and 6)", arguments: [5, 6])
    func syntaxTwinsCompile(swiftVersion: Int) throws {
        let sources = Support.bothCommands([Self.chat], all: false).sources
        try Support.expectCompiles(sources + [Self.chatClient], swiftVersion: swiftVersion)
    }

    @Test("with the compiler: the same twins, proven", arguments: [6, 5])
    func compilerTwins(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Self.chat)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = AddAsyncTwins.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        #expect(notes.contains { $0.hasPrefix("checked by the compiler") }, "\(notes)")
        #expect(!notes.contains { $0.contains("no async twin") }, "\(notes)")
        let written = try #require(result.changes.first?.updated)
        let text = Self.flattened(written)
        for twin in Self.expectedTwins {
            #expect(text.contains(twin), "\(twin)\n\(text)")
        }
        try Support.expectCompiles([("Chat.swift", written), Self.chatClient], swiftVersion: swiftVersion)
    }

    /// Promise types the syntax cannot see (an alias nested in a type, written `API.Call<T>`),
    /// generic over the function's own parameters, a generic type's, a protocol's `Self`'s and
    /// a nested generic type's: only the compiler's type says what they are, with its generic
    /// parameters as `A`, `B`, `A1`.
    static let nested = (path: "API.swift", text: """
        import Foundation
        import Tomorrowland

        enum APIError: Error, Sendable { case failed }
        enum API {
            typealias Call<T> = Promise<T, APIError>
            typealias Quiet<T> = Promise<T, NoError>
        }

        final class Client: Sendable {
            func echo<T: Sendable>(_ value: T) -> API.Call<T> { Promise(fulfilled: value) }
            func pair<A: Sendable, B: Sendable>(_ a: A, _ b: B) -> API.Call<[B: A]> where B: Hashable { Promise(fulfilled: [b: a]) }
        }

        final class Box<Value: Sendable>: Sendable {
            let value: Value
            init(_ value: Value) { self.value = value }
            func load() -> API.Call<Value> { Promise(fulfilled: value) }
            func wrapped<W: Sendable>(_ extra: W) -> API.Quiet<(Value, W)> { Promise(fulfilled: (value, extra)) }

            struct Slot<Key: Hashable & Sendable>: Sendable {
                let key: Key
                func lookup<Tag: Sendable>(_ tag: Tag) -> API.Call<[Key: Tag]> { Promise(fulfilled: [key: tag]) }
            }
        }

        protocol Source: Sendable {
            associatedtype Item: Sendable
            var item: Item { get }
        }

        extension Source {
            func fetch<T: Sendable>(_ make: @Sendable (Item) -> T) -> API.Call<T> { Promise(fulfilled: make(item)) }
            func current() -> API.Call<Item> { Promise(fulfilled: item) }
        }

        extension Array where Element: Sendable {
            func first() -> API.Call<Element?> { Promise(fulfilled: self.first) }
        }

        extension ContiguousArray where Element: Sendable {
            func last() -> API.Call<Element?> { Promise(fulfilled: self.last) }
        }
        """)

    static let nestedClient = (path: "APIClient.swift", text: """
        import Foundation
        import TomorrowlandAsync

        struct Numbers: Source { let item = 7 }

        func apiClient() async throws -> Int {
            let echoed = try await Client().echo(1)
            let pair = try await Client().pair(1, "a")
            let box = Box(2)
            let loaded = try await box.load()
            let (value, extra) = try await box.wrapped("x")
            let slot = try await Box<Int>.Slot(key: "k").lookup(3)
            let fetched = try await Numbers().fetch { $0 * 2 }
            let current = try await Numbers().current()
            let first: Int? = try await [1].first()
            let counts = pair.count + extra.count + slot.count
            let values = echoed + loaded + value + fetched + current
            return counts + values + (first ?? 0)
        }
        """)

    @Test("with the compiler: promise types the syntax cannot see get twins, their generic parameters named", arguments: [6, 5])
    func compilerNamesGenericParameters(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Self.nested)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = AddAsyncTwins.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        #expect(notes.contains { $0.hasPrefix("checked by the compiler") }, "\(notes)")
        let written = try #require(result.changes.first?.updated)
        let text = Self.flattened(written)
        for twin in [
            "func echo<T: Sendable>(_ value: T) async throws -> T {",
            "func pair<A: Sendable, B: Sendable>(_ a: A, _ b: B) async throws -> [B: A] where B: Hashable {",
            "func load() async throws -> Value {",
            "func wrapped<W: Sendable>(_ extra: W) async throws(CancellationError) -> (Value, W) {",
            "func lookup<Tag: Sendable>(_ tag: Tag) async throws -> [Key: Tag] {",
            "func fetch<T: Sendable>(_ make: @Sendable (Item) -> T) async throws -> T {",
            "func current() async throws -> Self.Item {",
        ] {
            #expect(text.contains(twin), "\(twin)\n\(text)")
        }
        #expect(text.contains("try await (echo(value) as API.Call<T>).value"), "\(text)")
        #expect(text.contains("func first() async throws -> Element? {"), "\(text)")
        // `ContiguousArray`'s parameter is declared nowhere the tool reads: said, not passed over.
        #expect(notes.contains {
            $0.hasPrefix("last(): no async twin: it returns `Promise<A?, APIError>` (as the compiler spells it)")
        }, "\(notes)")
        try Support.expectCompiles([("API.swift", written), Self.nestedClient], swiftVersion: swiftVersion)
    }

    /// `text` with each twin's header on one line (the tool breaks long ones after `(` and `,`).
    static func flattened(_ text: String) -> String {
        text.replacingOccurrences(of: #"\(\n\s+"#, with: "(", options: .regularExpression)
            .replacingOccurrences(of: #",\n\s+"#, with: ", ", options: .regularExpression)
            .replacingOccurrences(of: #"\n\s+\) "#, with: ") ", options: .regularExpression)
    }

    @Test("the compiler's generic parameters are named by depth and index; one left unnamed gives no type")
    func namingPlaceholders() throws {
        let mangled = CompilerFacts.mangledPromisePrefix + "…"
        let twoLevels = try #require(PromiseType(
            compiled: "Promise<[A1 : B], Err>", mangled: mangled, written: "X", generics: [["Key", "Value"], ["T"]]
        ))
        #expect(twoLevels.value == "[T: Value]")
        // A member of a placeholder keeps its name: `A.Element` is `Self.Element`.
        let member = try #require(PromiseType(compiled: "Promise<A.Element, Err>", mangled: mangled, written: "X", generics: [["Self"]]))
        #expect(member.value == "Self.Element")
        #expect(PromiseType(compiled: "Promise<A2, Err>", mangled: mangled, written: "X", generics: [["Self"], ["T"]]) == nil)
        #expect(PromiseType(compiled: "Promise<A, Err>", mangled: mangled, written: "X") == nil)
        #expect(PromiseType(compiled: "Promise<Int, Err>", mangled: mangled, written: "X")?.value == "Int")
        // The demangler's protocol steps of associated types are not written in source.
        let associated = try #require(PromiseType(
            compiled: "Promise<[A.Src.Item.Sequence.Element : A1.Src.Item], A.Collection.Index>", mangled: mangled, written: "X",
            generics: [["Self"], ["T"]]
        ))
        #expect(associated.value == "[Self.Item.Element: T.Item]")
        #expect(associated.error == "Self.Index")
    }
}
