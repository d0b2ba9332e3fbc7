// Every public symbol of the two libraries has a doc comment: a `///` line or a `/** … */` block
// directly above its declaration (attribute lines such as `@inlinable` or `@discardableResult`
// may sit in between; a blank line or a plain `//` comment may not).
//
// What counts as a public symbol (read line by line, without a Swift parser):
// - a declaration whose modifiers include `public` or `open`: func, init, deinit, var, let,
//   subscript, case, struct, class, enum, protocol, actor, typealias, associatedtype,
//   operator, macro;
// - a `case` directly inside a public enum, a requirement directly inside a public protocol,
//   and a member directly inside a `public extension` (these are public without saying so).
// `extension` lines themselves are not symbols. Declarations marked `@_spi(…)`, whose name
// starts with `_`, or that sit inside a type or extension whose name starts with `_` or that
// is marked `@_spi(…)`, are skipped: they are not part of the documented API.

import Foundation
import Testing

@Suite("Public symbols have doc comments")
struct PublicSymbolsAreDocumentedTests {
    @Test("every public or open declaration in Sources/Tomorrowland and Sources/TomorrowlandAsync has a doc comment")
    func everyPublicSymbolIsDocumented() throws {
        var declarations = 0
        var undocumented: [String] = []
        for folder in ["Sources/Tomorrowland", "Sources/TomorrowlandAsync"] {
            for file in try PublicSymbolScanner.swiftFiles(in: Snippets.root.appendingPathComponent(folder)) {
                let text = try String(contentsOf: file, encoding: .utf8)
                let path = String(file.path.dropFirst(Snippets.root.path.count + 1))
                for symbol in PublicSymbolScanner.publicSymbols(in: text) {
                    declarations += 1
                    if !symbol.isDocumented {
                        undocumented.append("\(path):\(symbol.line): \(symbol.declaration)")
                    }
                }
            }
        }
        // Guards the scanner: if it found (almost) nothing, the check below would be vacuous.
        #expect(declarations >= 150, "found only \(declarations) public declarations: is the scanner broken?")
        #expect(undocumented.isEmpty, """
            \(undocumented.count) public declaration(s) without a /// doc comment directly above \
            (say what it does, its parameters, what it returns, which context it runs on and what \
            cancellation does):
            \(undocumented.joined(separator: "\n"))
            """)
    }

    @Test("a public symbol without a doc comment is reported, a documented one is not")
    func theScannerFindsMissingComments() {
        let source = """
            /// Documented.
            public struct Documented<Value> {
                /// Documented, attributes in between.
                @inlinable
                @discardableResult
                public func documented() -> Int { 0 }

                public func bare() {}

                // A plain comment is not a doc comment.
                public var plainComment: Int { 0 }

                /// A blank line separates this comment from its declaration.

                public init() {}

                /** A block doc comment. */
                public static let block = 1

                @available(*, deprecated,
                           message: "a multi-line attribute")
                public typealias NoDocAboveAttribute = Int

                /// Documented, multi-line attribute in between.
                @available(*, deprecated,
                           message: "a multi-line attribute")
                public typealias DocAboveAttribute = Int

                func internalFunction() {}
                public func _underscored() {}
                @_spi(Testing) public func spi() {}
                let text = "public func inAString() {}"
                /* public func inABlockComment() {} */
            }

            extension Documented {
                public func bareInExtension() {}
            }

            /// An enum.
            public enum Cases {
                /// Documented.
                case documented
                case bare
                indirect case bareIndirect(Cases)
                /// A method whose switch has cases that are not enum cases.
                public var isDocumented: Bool {
                    switch self {
                    case .documented: true
                    default: false
                    }
                }
            }

            enum InternalEnum { case notPublic }

            public extension Documented {
                func implicitlyPublic() {}
            }

            /// A protocol.
            public protocol Requirements {
                func bareRequirement()
                /// Documented.
                var documentedRequirement: Int { get }
            }

            public struct _Hidden {
                public func hidden() {}
            }

            open class Base {
                open func bareOpen() {}
            }
            """
        let symbols = PublicSymbolScanner.publicSymbols(in: source)
        let undocumented = Set(symbols.filter { !$0.isDocumented }.map(\.name))
        let documented = Set(symbols.filter(\.isDocumented).map(\.name))
        #expect(undocumented == ["bare", "plainComment", "init", "NoDocAboveAttribute", "bareInExtension",
                                 "bareIndirect", "implicitlyPublic", "bareRequirement", "Base", "bareOpen"],
                "\(symbols)")
        #expect(documented == ["Documented", "documented", "block", "DocAboveAttribute", "Cases",
                               "isDocumented", "Requirements", "documentedRequirement"],
                "\(symbols)")
        #expect(symbols.first { $0.name == "bare" && $0.declaration.hasPrefix("public func") }?.line == 8)
    }
}

/// Finds the public declarations of a Swift file and whether each has a doc comment (see the
/// comment at the top of this file for what counts).
enum PublicSymbolScanner {
    struct Symbol: CustomStringConvertible {
        /// 1-based line of the declaration keyword.
        var line: Int
        /// The name declared (`init`, `subscript`, the case or type name, …).
        var name: String
        /// The declaration line, trimmed.
        var declaration: String
        var isDocumented: Bool
        var description: String { "\(line): \(name)\(isDocumented ? "" : " (undocumented)")" }
    }

    static func swiftFiles(in folder: URL) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "swift" { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// A brace scope: a type or extension body, or any other `{ … }`.
    private struct Scope {
        enum Kind { case publicEnum, publicProtocol, publicExtension, hidden, other }
        var kind: Kind
    }

    private static let declarationKeywords: Set<String> = [
        "func", "init", "deinit", "var", "let", "subscript", "case", "struct", "class", "enum",
        "protocol", "actor", "typealias", "associatedtype", "operator", "macro", "extension",
    ]
    private static let typeKeywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "extension"]
    private static let modifierWords: Set<String> = [
        "public", "open", "internal", "fileprivate", "private", "package", "static", "class", "final",
        "override", "mutating", "nonmutating", "nonisolated", "convenience", "required", "indirect",
        "lazy", "weak", "unowned", "dynamic", "prefix", "postfix", "infix", "optional", "distributed",
        "consuming", "borrowing", "isolated", "async",
    ]

    static func publicSymbols(in text: String) -> [Symbol] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Code of each line with comments and string literal contents removed, and whether the
        // line ends a doc comment (`///`, or the `*/` of a block opened by `/**`).
        var code: [String] = []
        var endsDocComment: [Bool] = []
        var inBlockComment = false
        var blockIsDoc = false
        var inMultilineString = false
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inMultilineString {
                if trimmed.hasSuffix("\"\"\"") || trimmed.hasPrefix("\"\"\"") { inMultilineString = false }
                code.append("")
                endsDocComment.append(false)
                continue
            }
            var stripped = ""
            var endsDoc = trimmed.hasPrefix("///")
            var characters = Array(line)[...]
            while let character = characters.first {
                if inBlockComment {
                    if characters.starts(with: "*/") {
                        inBlockComment = false
                        characters = characters.dropFirst(2)
                        if blockIsDoc && characters.allSatisfy(\.isWhitespace) { endsDoc = true }
                    } else {
                        characters = characters.dropFirst()
                    }
                } else if characters.starts(with: "//") {
                    break
                } else if characters.starts(with: "/*") {
                    inBlockComment = true
                    blockIsDoc = characters.starts(with: "/**")
                    characters = characters.dropFirst(2)
                } else if characters.starts(with: "\"\"\"") {
                    inMultilineString = true
                    stripped += "\"\""
                    break
                } else if character == "\"" {
                    // Skip the string literal (escapes included); interpolations are dropped too.
                    characters = characters.dropFirst()
                    while let next = characters.first, next != "\"" {
                        characters = characters.dropFirst(next == "\\" ? 2 : 1)
                    }
                    characters = characters.dropFirst()
                    stripped += "\"\""
                } else {
                    stripped.append(character)
                    characters = characters.dropFirst()
                }
            }
            code.append(stripped)
            endsDocComment.append(endsDoc)
        }

        var symbols: [Symbol] = []
        var scopes: [Scope] = []
        var pendingScope: Scope.Kind?
        var attributeDepth = 0  // open parentheses of an attribute spanning lines
        for (index, line) in code.enumerated() {
            var rest = line.trimmingCharacters(in: .whitespaces)[...]
            if attributeDepth > 0 {
                attributeDepth += parenthesisBalance(rest)
                continue
            }
            var attributes: [String] = []
            while rest.hasPrefix("@") {
                let (attribute, remainder, openParentheses) = splitAttribute(rest)
                attributes.append(attribute)
                rest = remainder.drop { $0.isWhitespace }
                attributeDepth = openParentheses
            }
            if attributeDepth > 0 { continue }

            var modifiers: [String] = []
            var words = rest.split(whereSeparator: { $0.isWhitespace }).map(String.init)[...]
            while let word = words.first {
                let base = word.prefix { $0 != "(" }
                guard modifierWords.contains(String(base)), !(base == "class" && isTypeDeclaration(words.dropFirst())) else { break }
                modifiers.append(String(base))
                words = words.dropFirst()
            }
            let keyword = words.first.map { String($0.prefix { $0.isLetter }) } ?? ""
            let enclosing = scopes.last?.kind ?? .other
            let isHidden = scopes.contains { $0.kind == .hidden }
            let explicitlyPublic = modifiers.contains("public") || modifiers.contains("open")
            let isDeclaration = declarationKeywords.contains(keyword) && words.first.map { $0 == keyword || $0.hasPrefix(keyword + "(") || $0.hasPrefix(keyword + "<") || $0.hasPrefix(keyword + "?") } == true
            let name = isDeclaration ? declaredName(keyword: keyword, after: words.dropFirst()) : ""
            let isSPI = attributes.contains { $0.hasPrefix("@_spi") }

            if isDeclaration && keyword != "extension" {
                let implicitlyPublic: Bool
                switch enclosing {
                case .publicEnum: implicitlyPublic = keyword == "case"
                case .publicProtocol, .publicExtension: implicitlyPublic = !modifiers.contains { ["private", "fileprivate", "internal", "package"].contains($0) }
                case .hidden, .other: implicitlyPublic = false
                }
                if (explicitlyPublic || implicitlyPublic) && !isHidden && !isSPI && !name.hasPrefix("_") {
                    symbols.append(Symbol(line: index + 1, name: name, declaration: lines[index].trimmingCharacters(in: .whitespaces),
                                          isDocumented: hasDocComment(above: index, code: code, endsDocComment: endsDocComment)))
                }
            }

            // Track the scopes this line opens and closes.
            if isDeclaration && typeKeywords.contains(keyword) {
                if isSPI || name.hasPrefix("_") || isHidden {
                    pendingScope = .hidden
                } else if keyword == "enum" && explicitlyPublic {
                    pendingScope = .publicEnum
                } else if keyword == "protocol" && explicitlyPublic {
                    pendingScope = .publicProtocol
                } else if keyword == "extension" && explicitlyPublic {
                    pendingScope = .publicExtension
                } else {
                    pendingScope = .other
                }
            }
            for character in line {
                if character == "{" {
                    scopes.append(Scope(kind: pendingScope ?? .other))
                    pendingScope = nil
                } else if character == "}" {
                    _ = scopes.popLast()
                }
            }
        }
        return symbols
    }

    /// Whether the line above the declaration at `index`, skipping attribute lines, ends a
    /// doc comment.
    private static func hasDocComment(above index: Int, code: [String], endsDocComment: [Bool]) -> Bool {
        var openParentheses = 0  // > 0 while walking up through an attribute that spans lines
        for above in stride(from: index - 1, through: 0, by: -1) {
            if openParentheses == 0 && endsDocComment[above] { return true }
            let trimmed = code[above].trimmingCharacters(in: .whitespaces)
            let balance = parenthesisBalance(trimmed[...])
            if openParentheses > 0 {
                openParentheses -= balance
                if openParentheses > 0 { continue }
                if openParentheses == 0 && trimmed.hasPrefix("@") { continue }
                return false
            }
            if trimmed.hasPrefix("@") && balance == 0 { continue }  // `@inlinable`, `@available(…)`
            if balance < 0 && !trimmed.contains("{") && !trimmed.contains("}") {
                openParentheses = -balance  // the last line of a multi-line attribute
                continue
            }
            return false  // a blank line, a plain comment or code
        }
        return false
    }

    /// Splits `@name(arguments)` off the front of `text`; returns the attribute, the rest, and
    /// the parentheses it leaves open (an attribute continued on the next lines).
    private static func splitAttribute(_ text: Substring) -> (String, Substring, Int) {
        var depth = 0
        var end = text.startIndex
        var index = text.index(after: text.startIndex)
        while index < text.endIndex, text[index].isLetter || text[index].isNumber || text[index] == "_" || text[index] == "." {
            index = text.index(after: index)
        }
        end = index
        if end < text.endIndex, text[end] == "(" {
            while end < text.endIndex {
                if text[end] == "(" { depth += 1 }
                if text[end] == ")" { depth -= 1 }
                end = text.index(after: end)
                if depth == 0 { break }
            }
        }
        return (String(text[..<end]), text[end...], depth)
    }

    private static func parenthesisBalance(_ text: Substring) -> Int {
        text.reduce(0) { $0 + ($1 == "(" ? 1 : $1 == ")" ? -1 : 0) }
    }

    /// `class func`, `class var`: `class` is a modifier there, not a type declaration.
    private static func isTypeDeclaration(_ words: ArraySlice<String>) -> Bool {
        guard let next = words.first else { return false }
        return !declarationKeywords.contains(String(next.prefix { $0.isLetter })) && !modifierWords.contains(next)
    }

    private static func declaredName(keyword: String, after words: ArraySlice<String>) -> String {
        switch keyword {
        case "init", "deinit", "subscript": return keyword
        default:
            guard let word = words.first else { return keyword }
            let name = word.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`" }
            return name.isEmpty ? String(word.prefix { !"(<:{".contains($0) }) : String(name).replacingOccurrences(of: "`", with: "")
        }
    }
}
