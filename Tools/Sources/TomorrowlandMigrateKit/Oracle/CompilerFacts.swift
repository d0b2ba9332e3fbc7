// What the type checker says about a set of files, read from `swiftc -dump-ast -dump-ast-format
// json`: which declaration each reference names (its USR), the type of each call, the
// declarations and their conformances. Offsets are UTF-8 byte offsets into the file, as
// swift-syntax's `AbsolutePosition.utf8Offset`.

import Foundation

/// The compiler's answers for the files of one or more modules.
public struct CompilerFacts: Sendable {
    /// A declaration the compiler type-checked.
    public struct Declaration: Sendable, Equatable {
        public let usr: String
        public let kind: String
        public let name: String
        /// Where the declaration starts (its first attribute, modifier or keyword).
        public let offset: Int
        public let end: Int
        /// The mangled result type of a function (`$s12Tomorrowland7PromiseVy…D`), nil otherwise.
        public let resultType: String?
        /// The protocols it conforms to (USRs), as the compiler decided: declared, implied,
        /// inherited through protocols and compositions, added by extensions.
        public let conformances: Set<String>
    }

    /// A call expression: where it is and what it calls.
    public struct Call: Sendable, Equatable {
        public let offset: Int
        /// Offset of the call's last token (its closing parenthesis or trailing closure's `}`).
        public let lastTokenOffset: Int
        /// The called declaration, when the compiler resolved it to one.
        public let callee: String?
        /// The callee's name token (`find` in `store.find(1)`, `names` in `AppCore.names(…)`):
        /// where the reference to it ends.
        public let calleeOffset: Int?
        /// The mangled type of the call's result.
        public let type: String
        /// The mangled type of the receiver of a method call (`MemoryRepository<StoreError>`
        /// for `makeStore().find(1)`), nil for other calls. It is the receiver's own type, before
        /// the implicit upcast to the class that declares the method (`Sub` for `sub.f()` where
        /// `Base` declares `f`): the type whose members Swift searched, where an override of
        /// `Sub`'s own would be found first.
        public let receiverType: String?
    }

    /// What the compiler said about one file.
    public struct File: Sendable {
        public internal(set) var declarations: [Declaration] = []
        /// Every reference to a declaration (calls, values, types, members), by the offset of
        /// its last token; one offset can hold several (a type and its initializer).
        public internal(set) var references: [Int: Set<String>] = [:]
        public internal(set) var calls: [Call] = []
        /// Indexes of the two lists above, for the lookups below.
        private var functionsByEnd: [Int: Declaration] = [:]
        private var callsByCallee: [Int: Call] = [:]

        /// The declaration starting at `offset` (functions first where several do).
        public func declaration(at offset: Int) -> Declaration? {
            declarations.first { $0.offset == offset && $0.kind == "func_decl" } ?? declarations.first { $0.offset == offset }
        }

        /// The function whose last token (its body's `}`, or the end of a requirement's
        /// signature) is at `offset`: where a declaration starts depends on its modifiers.
        public func function(endingAt offset: Int) -> Declaration? {
            functionsByEnd[offset]
        }

        /// The call whose callee's name token is at `offset`.
        public func call(calleeAt offset: Int) -> Call? {
            callsByCallee[offset]
        }

        mutating func index() {
            for declaration in declarations where ["func_decl", "constructor_decl", "accessor_decl"].contains(declaration.kind) {
                if functionsByEnd[declaration.end] == nil { functionsByEnd[declaration.end] = declaration }
            }
            for call in calls {
                if let offset = call.calleeOffset, callsByCallee[offset] == nil { callsByCallee[offset] = call }
            }
        }
    }

    /// By standardized absolute path.
    public internal(set) var files: [String: File] = [:]
    /// `path:line:column: error: message` lines the compiler printed.
    public internal(set) var errors: [CompilerDiagnostic] = []
    /// The error a note cites when the code does not type-check: the first by file, line and
    /// column, so that the note is the same whichever order the compiler printed them in.
    public var firstError: CompilerDiagnostic? {
        errors.min { ($0.path, $0.line, $0.column) < ($1.path, $1.line, $1.column) }
    }
    /// Warnings of changed text that are errors in Swift 6 mode (`…; this is an error in the
    /// Swift 6 language mode`), where the package's mode is 5: a proof drops the change whose
    /// own text has one, so that what a command writes builds in both modes.
    public internal(set) var swift6Errors: [CompilerDiagnostic] = []
    /// Promise types of calls as Swift source spells them without module names
    /// (`Promise<String, StoreError>`), by mangled type.
    public internal(set) var spelledTypes: [String: String] = [:]
    /// The module each module of the set that another imports was emitted as (its interface),
    /// by module name: a proof's importers of a module whose interface did not change see the
    /// same declarations, and keep these facts (`CompilerOracle.facts`).
    var interfaces: [String: Data] = [:]

    /// The type of the call whose called name is at `offset` in `path`, spelled for source,
    /// when it is a promise type that names no generic parameter.
    public func spelledPromiseType(ofCallAt offset: Int, in path: String) -> String? {
        guard let type = file(path)?.call(calleeAt: offset)?.type, Self.isPromise(mangled: type),
              let spelled = spelledTypes[type] else { return nil }
        // The demangler names generic parameters `A`, `B`, `A1`…: not spellable at a call site.
        let placeholder = spelled.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).contains { word in
            word.first?.isUppercase == true && word.dropFirst().allSatisfy(\.isNumber)
        }
        return placeholder ? nil : spelled
    }

    public init() {}

    /// The facts for `path` (any spelling of it).
    public func file(_ path: String) -> File? {
        files[path] ?? files[CompilerFacts.key(path)]
    }

    /// Every declaration of every file, by USR.
    public var declarationsByUSR: [String: Declaration] {
        var result: [String: Declaration] = [:]
        for file in files.values { for declaration in file.declarations { result[declaration.usr] = declaration } }
        return result
    }

    /// The key a path is stored under: absolute, standardized, symlinks resolved.
    public static func key(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Whether a mangled type is Tomorrowland's `Promise` (however the source spelled it:
    /// `StdPromise`, a typealias, a module-qualified name).
    public static func isPromise(mangled type: String) -> Bool {
        type.hasPrefix(mangledPromisePrefix) || type.hasPrefix(mangledTokenPromisePrefix)
    }

    /// How a mangled `Tomorrowland.Promise<…>` type begins.
    static let mangledPromisePrefix = "$s12Tomorrowland7PromiseV"
    /// How a mangled `Tomorrowland.TokenPromise<…>` type begins.
    static let mangledTokenPromisePrefix = "$s12Tomorrowland12TokenPromiseV"

    /// Adds the facts of one `-dump-ast-format json` output, for the file at `path`. What it
    /// reads is kept by `ASTCache`: change `File.encodingHeader` when it reads differently.
    mutating func add(astJSON data: Data, path: String) throws {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        var file = File()
        Self.collect(root, into: &file)
        file.index()
        files[Self.key(path)] = file
    }

    /// The node's range in the file; nil for code a macro expanded (`@Test`, `#expect`): that
    /// lives in a buffer of its own (`buffer_id`), and the macro's arguments as written are
    /// checked where they are written.
    private static func range(_ node: [String: Any]) -> (Int, Int)? {
        guard let range = node["range"] as? [String: Any], range["buffer_id"] == nil,
              let start = range["start"] as? Int, let end = range["end"] as? Int else {
            return nil
        }
        return (start, end)
    }

    private static func collect(_ value: Any, into file: inout File) {
        if let list = value as? [Any] {
            for element in list { collect(element, into: &file) }
            return
        }
        guard let node = value as? [String: Any] else { return }
        let kind = node["_kind"] as? String ?? ""
        if let usr = node["usr"] as? String, let (start, end) = range(node) {
            let name = ((node["name"] as? [String: Any])?["base_name"] as? [String: Any])?["name"] as? String ?? ""
            file.declarations.append(Declaration(
                usr: usr, kind: kind, name: name, offset: start, end: end, resultType: node["result"] as? String,
                conformances: conformances(of: node)
            ))
        }
        // By where the reference ends (`value` in `x.f().value`): a pin's `(` before the base
        // moves the start of a member reference, never its end.
        if let decl = node["decl"] as? [String: Any], let usr = decl["decl_usr"] as? String, let (_, end) = range(node) {
            file.references[end, default: []].insert(usr)
        }
        if kind == "call_expr", let (start, end) = range(node), let type = node["type"] as? String {
            let function = node["fn"] as? [String: Any]
            let callee = function.flatMap(calleeReference)
            // `x.f(…)`: a dot-syntax call whose single argument is the receiver `x`.
            let receiver = function.flatMap { $0["_kind"] as? String == "dot_syntax_call_expr" ? $0 : nil }
                .flatMap { (($0["args"] as? [String: Any])?["args"] as? [[String: Any]])?.first?["expr"] as? [String: Any] }
            file.calls.append(Call(
                offset: start, lastTokenOffset: end, callee: callee?.usr, calleeOffset: callee?.offset, type: type,
                receiverType: receiver.map(Self.beforeUpcast)?["type"] as? String
            ))
        }
        for (key, child) in node where key != "_kind" { collect(child, into: &file) }
    }

    /// The expression under the implicit conversions of a class to its superclass
    /// (`derived_to_base_expr`): what was written, with the type it has there.
    private static func beforeUpcast(_ node: [String: Any]) -> [String: Any] {
        var node = node
        while node["_kind"] as? String == "derived_to_base_expr", let inner = node["sub_expr"] as? [String: Any] { node = inner }
        return node
    }

    /// The declaration a call's function expression names: through `x.f` (the method, not
    /// `x`), conversions and parentheses, never into the arguments.
    private static func calleeReference(_ node: [String: Any]) -> (usr: String, offset: Int)? {
        // Its last token: `names` in `AppCore.names(…)` (where the reference starts at `AppCore`).
        if let decl = node["decl"] as? [String: Any], let usr = decl["decl_usr"] as? String, let (_, end) = range(node) {
            return (usr, end)
        }
        // `rhs`: `Module.f` is a dot_syntax_base_ignored_expr (`lhs` the module, `rhs` the function).
        for key in ["fn", "sub_expr", "expr", "rhs"] {
            if let inner = node[key] as? [String: Any], let found = calleeReference(inner) { return found }
        }
        return nil
    }

    private static func conformances(of node: [String: Any]) -> Set<String> {
        guard let inherits = node["inherits"] as? [String: Any] else { return [] }
        var result = Set(inherits["protocols"] as? [String] ?? [])
        for conformance in inherits["conformances"] as? [[String: Any]] ?? [] {
            if let proto = conformance["protocol"] as? String { result.insert(proto) }
        }
        return result
    }
}

/// An error the compiler reported, at a place in a file, with the notes that follow it.
public struct CompilerDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let column: Int
    public let message: String
    /// The `note:` lines the compiler printed with the error (`overridden declaration is
    /// here`): they often point at the declaration that causes it, elsewhere.
    public var notes: [CompilerDiagnostic] = []
    public var description: String { "\(path):\(line):\(column): error: \(message)" }

    public init(path: String, line: Int, column: Int, message: String, notes: [CompilerDiagnostic] = []) {
        (self.path, self.line, self.column, self.message, self.notes) = (path, line, column, message, notes)
    }

    /// The same diagnostic with its paths (and its notes' paths) mapped through `paths`
    /// (scratch copies to the files they copy).
    func mapping(_ paths: [String: String]) -> CompilerDiagnostic {
        CompilerDiagnostic(
            path: paths[path] ?? path, line: line, column: column, message: message, notes: notes.map { $0.mapping(paths) }
        )
    }

    /// The `path:line:column: error: message` lines of compiler output, each with the
    /// `path:line:column: note: message` lines after it (up to the next error or warning).
    static func errors(in output: String) -> [CompilerDiagnostic] {
        var result: [CompilerDiagnostic] = []
        var inError = false
        for line in output.split(separator: "\n") {
            if let error = parse(line, kind: "error") {
                result.append(error)
                inError = true
            } else if let note = parse(line, kind: "note") {
                if inError { result[result.count - 1].notes.append(note) }
            } else if parse(line, kind: "warning") != nil || parse(line, kind: "remark") != nil {
                inError = false
            }
        }
        return result
    }

    /// The warnings of `output` that Swift 6 mode makes errors.
    static func swift6Errors(in output: String) -> [CompilerDiagnostic] {
        output.split(separator: "\n").compactMap { line in
            guard let warning = parse(line, kind: "warning"), warning.message.hasSuffix("; this is an error in the Swift 6 language mode")
            else { return nil }
            return warning
        }
    }

    /// `path:line:column: <kind>: message`, or nil.
    private static func parse(_ line: Substring, kind: String) -> CompilerDiagnostic? {
        guard let marker = line.range(of: ": \(kind): ") else { return nil }
        let location = line[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
        guard location.count >= 3, let lineNumber = Int(location[location.count - 2]), let column = Int(location.last!) else {
            return nil
        }
        let path = location.dropLast(2).joined(separator: ":")
        return CompilerDiagnostic(path: path, line: lineNumber, column: column, message: String(line[marker.upperBound...]))
    }
}
