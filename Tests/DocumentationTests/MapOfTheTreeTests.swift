// Keeps README.md's "Map of the tree" true: every folder under Sources/, Tests/ and Examples/,
// every top-level folder and every Swift file under Sources/ must be on the map, and every
// path the map names must exist.
//
// How the map is read (so that it can stay prose, not a file listing):
// - A line indented less than the description column starts an entry; its names are the words
//   before the first run of two spaces (`State/`, `Promise.swift`, `A/ B/ C/`, `X.swift, *Y.swift`).
//   Every such name must exist, relative to the folder the entry sits in (found by indentation).
// - A line with a single folder name opens that folder's section: that line's description and
//   the continuation lines below it. Other entry lines and their continuations belong to the
//   section of the folder they sit in.
// - A file is mapped if its section contains its name, its name without `.swift` as a word, or
//   a glob matching it (`*` is any run of characters, `(s)` is optional). A folder is mapped if
//   its parent's section contains `Name/`, or an entry names its whole path (`Sources/Lib/`).
// - Words in a description that name a file by its shape (containing `+` or `*`, or ending in
//   `.swift`) must exist in that section's folder.
// - Capitalised words in a description (`Locked`, `PromiseCore`, `Stage1…`) must name something
//   in or below the section's folder: a file or folder (`…` after a word: any name it begins),
//   or a declaration in its Swift files. A word that is the name of a Swift file elsewhere in
//   the same target (`Sources/Tomorrowland/`, `Tests/TomorrowlandTests/`, …) is reported as
//   misplaced. Any section may also
//   name the library's own declarations and the targets; a few words name things outside the
//   tree (`Swift`, `NIO`, `XCTest`, …: `TreeMap.outsideNames`).

import Foundation
import Testing

@Suite("README.md map of the tree")
struct MapOfTheTreeTests {
    @Test("every folder and source file is on the map, and the map names nothing that is gone")
    func theMapMatchesTheTree() throws {
        let map = try TreeMap(readme: Snippets.root.appendingPathComponent("README.md"))
        let tree = TreeMap.Tree.onDisk(root: Snippets.root)
        let problems = map.problems(in: tree) + map.proseProblems(in: tree)
        #expect(problems.isEmpty, """
            README.md's "Map of the tree" is out of date; add or fix these:
            \(problems.joined(separator: "\n"))
            """)
    }

    @Test("the map reader finds the sections it must check")
    func theMapIsRead() throws {
        // Guards the parser itself: if it found no sections, the test above would be vacuous.
        let map = try TreeMap(readme: Snippets.root.appendingPathComponent("README.md"))
        for folder in ["Sources/Tomorrowland", "Sources/Tomorrowland/State", "Sources/TomorrowlandAsync", "Tests", "Examples"] {
            #expect(map.sections[folder] != nil, "no section for \(folder)/ in \(map.sections.keys.sorted())")
        }
        #expect(map.sections["Sources/Tomorrowland/State"]?.contains("PromiseState") == true)
    }

    @Test("a missing file, a missing folder and a stale name are reported")
    func problemsAreDetected() throws {
        let map = try TreeMap(text: """
            Sources/Lib/
              A.swift                     the first file
              Parts/                      One and Two+Three, Four*.swift
              Gone.swift                  no longer exists
            Tests/
            """)
        let tree = TreeMap.Tree(
            topLevelFolders: ["Sources", "Tests", "Extra"],
            folders: ["Sources", "Sources/Lib", "Sources/Lib/Parts", "Sources/Lib/New", "Tests"],
            sourceFiles: ["Sources/Lib/A.swift", "Sources/Lib/B.swift", "Sources/Lib/Parts/One.swift",
                          "Sources/Lib/Parts/FourA.swift", "Sources/Lib/Parts/Five.swift"],
            exists: { ["Sources/Lib", "Sources/Lib/A.swift", "Sources/Lib/Parts", "Sources/Lib/Parts/One.swift",
                       "Sources/Lib/Parts/FourA.swift", "Tests"].contains($0) },
            fileNames: { ["Sources/Lib": ["A.swift", "B.swift"], "Sources/Lib/Parts": ["One.swift", "FourA.swift", "Five.swift"]][$0] ?? [] })
        let problems = map.problems(in: tree)
        #expect(problems.contains { $0.contains("Sources/Lib/B.swift") }, "unmapped file: \(problems)")
        #expect(problems.contains { $0.contains("Sources/Lib/Parts/Five.swift") }, "unmapped file in a prose section: \(problems)")
        #expect(problems.contains { $0.contains("Sources/Lib/New/") }, "unmapped folder: \(problems)")
        #expect(problems.contains { $0.contains("Extra/") }, "unmapped top-level folder: \(problems)")
        #expect(problems.contains { $0.contains("Sources/Lib/Gone.swift") }, "stale entry: \(problems)")
        #expect(problems.contains { $0.contains("Sources/Lib/Parts/Two+Three") }, "stale file named in prose: \(problems)")
        #expect(!problems.contains { $0.contains("A.swift") || $0.contains("One.swift") || $0.contains("FourA.swift") },
                "mapped files reported: \(problems)")
        #expect(problems.count == 6, "\(problems)")
    }

    @Test("a name in the prose that is gone or lives in another folder is reported")
    func staleProseNamesAreDetected() throws {
        let map = try TreeMap(text: """
            Sources/Lib/
              Core/                       Engine and Helper (a Swift lock), Gone
              Parts/                      One, Wheel, Part1… and Part9…
            Tests/                        Engine (the library's), Tests1
            """)
        var tree = TreeMap.Tree(
            topLevelFolders: ["Sources", "Tests"],
            folders: ["Sources", "Sources/Lib", "Sources/Lib/Core", "Sources/Lib/Parts", "Tests"],
            sourceFiles: ["Sources/Lib/Core/Engine.swift", "Sources/Lib/Parts/One.swift", "Sources/Lib/Parts/Helper.swift",
                          "Sources/Lib/Parts/Part1A.swift"],
            exists: { _ in true }, fileNames: { _ in [] })
        tree.namesBelow = { folder in
            ["Sources/Lib/Core": ["Engine"], "Sources/Lib/Parts": ["One", "Helper", "Part1A"],
             "Tests": ["Tests1"]][folder] ?? []
        }
        tree.declarationsBelow = { folder in
            ["Sources/Lib/Parts": ["Wheel"], "Sources": ["Engine", "Wheel"]][folder] ?? []
        }
        tree.swiftFileStems = { target in target == "Sources/Lib" ? ["Engine", "One", "Helper", "Part1A"] : [] }
        let problems = map.proseProblems(in: tree)
        #expect(problems.contains { $0.contains("Helper") && $0.contains("Sources/Lib/Core/") }, "misplaced: \(problems)")
        #expect(problems.contains { $0.contains("Gone") }, "gone: \(problems)")
        #expect(problems.contains { $0.contains("Part9") }, "no file begins with it: \(problems)")
        #expect(problems.count == 3, "\(problems)")
    }
}

/// README.md's map of the tree, read into sections (see the comment at the top of this file).
struct TreeMap {
    /// What the map is checked against: the package on disk, or a made-up tree in a test.
    struct Tree {
        var topLevelFolders: [String]
        var folders: [String]
        var sourceFiles: [String]
        var exists: (String) -> Bool
        /// The names of the files in a folder (for globs).
        var fileNames: (String) -> [String]
        /// The names, without extension, of every file and folder in and below a folder.
        var namesBelow: (String) -> Set<String> = { _ in [] }
        /// The names declared (`struct X`, `func x`, `case x`, …) in the Swift files in and below a folder.
        var declarationsBelow: (String) -> Set<String> = { _ in [] }
        /// The names, without `.swift`, of the Swift files under a target's folder (`Sources/Tomorrowland`).
        var swiftFileStems: (String) -> Set<String> = { _ in [] }

        /// Top-level folders (not hidden), every folder under Sources/, Tests/ and Examples/,
        /// and every Swift file under Sources/.
        static func onDisk(root: URL) -> Tree {
            let fileManager = FileManager.default
            func isFolder(_ path: String) -> Bool {
                var isDirectory: ObjCBool = false
                return fileManager.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                    && isDirectory.boolValue
            }
            let topLevel = ((try? fileManager.contentsOfDirectory(atPath: root.path)) ?? [])
                .filter { !$0.hasPrefix(".") && isFolder($0) }
            var folders: [String] = []
            var sourceFiles: [String] = []
            for base in ["Sources", "Tests", "Examples"] where isFolder(base) {
                folders.append(base)
                let enumerator = fileManager.enumerator(atPath: root.appendingPathComponent(base).path)
                for case let relative as String in enumerator?.allObjects ?? [] {
                    let path = base + "/" + relative
                    if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                    if isFolder(path) {
                        folders.append(path)
                    } else if base == "Sources" && path.hasSuffix(".swift") {
                        sourceFiles.append(path)
                    }
                }
            }
            func below(_ folder: String) -> [String] {
                (fileManager.enumerator(atPath: root.appendingPathComponent(folder).path)?.allObjects ?? [])
                    .compactMap { $0 as? String }
                    .filter { !$0.split(separator: "/").contains(where: { $0.hasPrefix(".") }) }
            }
            func stem(_ path: String) -> String {
                String(path.split(separator: "/").last?.split(separator: ".").first ?? "")
            }
            let declaration = try! NSRegularExpression(
                pattern: #"\b(?:class|struct|enum|protocol|actor|typealias|extension|func|case|var|let)\s+([A-Za-z_]\w*)"#)
            return Tree(topLevelFolders: topLevel.sorted(), folders: folders.sorted(), sourceFiles: sourceFiles.sorted(),
                        exists: { fileManager.fileExists(atPath: root.appendingPathComponent($0).path) },
                        fileNames: { (try? fileManager.contentsOfDirectory(atPath: root.appendingPathComponent($0).path)) ?? [] },
                        namesBelow: { Set(below($0).map(stem)) },
                        declarationsBelow: { folder in
                            Set(below(folder).filter { $0.hasSuffix(".swift") }.flatMap { path -> [String] in
                                let url = root.appendingPathComponent(folder).appendingPathComponent(path)
                                let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
                                let ns = text as NSString
                                return declaration.matches(in: text, range: NSRange(location: 0, length: ns.length))
                                    .map { ns.substring(with: $0.range(at: 1)) }
                            })
                        },
                        swiftFileStems: { Set(below($0).filter { $0.hasSuffix(".swift") }.map(stem)) })
        }
    }

    /// A name in the entry column, with the folder it is relative to ("" for the top level).
    struct Entry {
        var folder: String
        var name: String
        var line: Int
    }

    /// The column where descriptions start; a line indented this far continues the entry above.
    static let descriptionColumn = 30

    /// Folder path ("" for the top level) → the text of its section.
    private(set) var sections: [String: String] = [:]
    private(set) var entries: [Entry] = []

    init(readme: URL) throws {
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let heading = text.range(of: "## Map of the tree"),
              let open = text.range(of: "```text\n", range: heading.upperBound..<text.endIndex),
              let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex) else {
            throw MapError.noMap
        }
        try self.init(text: String(text[open.upperBound..<close.lowerBound]))
    }

    enum MapError: Swift.Error, CustomStringConvertible {
        case noMap
        var description: String { "README.md has no ```text block under \"## Map of the tree\"" }
    }

    init(text: String) throws {
        var stack: [(indent: Int, folder: String)] = []  // open folder sections, innermost last
        var current = ""                                   // section that continuation lines join
        sections[""] = ""
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if body.isEmpty { continue }
            if indent >= Self.descriptionColumn {
                sections[current, default: ""] += "\n" + body
                continue
            }
            while let last = stack.last, last.indent >= indent { stack.removeLast() }
            let parent = stack.last?.folder ?? ""
            let entryText = body.range(of: "  ").map { String(body[..<$0.lowerBound]) } ?? String(body)
            let description = String(body.dropFirst(entryText.count))
            let names = entryText.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            for name in names {
                entries.append(Entry(folder: parent, name: name, line: index + 1))
            }
            sections[parent, default: ""] += "\n" + entryText
            if names.count == 1, let name = names.first, name.hasSuffix("/") {
                let folder = Self.join(parent, String(name.dropLast()))
                stack.append((indent, folder))
                current = folder
                sections[folder, default: ""] += "\n" + description
            } else {
                current = parent
                sections[parent, default: ""] += "\n" + description
            }
        }
    }

    /// Everything that is out of date, one line each.
    func problems(in tree: Tree) -> [String] {
        var problems: [String] = []
        for folder in tree.topLevelFolders where !mentions(folder + "/", in: "") {
            problems.append("\(folder)/: a top-level folder missing from the map")
        }
        for path in tree.folders where path.contains("/") {
            let (parent, name) = Self.split(path)
            let isEntry = entries.contains { Self.join($0.folder, $0.name) == path + "/" }
            if !isEntry && !mentions(name + "/", in: parent) {
                problems.append("\(path)/: a folder missing from the section of \(parent)/")
            }
        }
        for path in tree.sourceFiles {
            let (folder, name) = Self.split(path)
            if !mapsFile(name, in: folder) {
                problems.append("\(path): a source file missing from the section of \(folder)/")
            }
        }
        for entry in entries {
            let path = Self.join(entry.folder, entry.name.hasSuffix("/") ? String(entry.name.dropLast()) : entry.name)
            let exists = Self.isGlob(entry.name)
                ? tree.fileNames(entry.folder).contains { Self.glob(entry.name, matches: $0) }
                : tree.exists(path)
            if !exists { problems.append("\(path): named on map line \(entry.line) but does not exist") }
        }
        for (folder, text) in sections.sorted(by: { $0.key < $1.key }) {
            for word in Self.fileShapedWords(in: text) where !entries.contains(where: { $0.folder == folder && $0.name == word }) {
                let exists = Self.isGlob(word)
                    ? tree.fileNames(folder).contains { Self.glob(word, matches: $0) }
                    : tree.exists(Self.join(folder, word.hasSuffix(".swift") ? word : word + ".swift"))
                if !exists { problems.append("\(Self.join(folder, word)): named in the section of \(folder)/ but does not exist") }
            }
        }
        return problems
    }

    /// Words that name things outside the tree (languages, tools, other libraries, Foundation types).
    static let outsideNames: Set<String> = [
        "API", "C", "Codable", "Ctrl", "DocC", "MainActor", "NAME", "NIO", "OpenCombine", "Operation", "Swift", "TSan",
        "Task", "Value", "XCTest",
    ]

    /// Capitalised words of the prose that name nothing in their section's folder, or that name
    /// a Swift file of another folder (see the comment at the top of this file).
    func proseProblems(in tree: Tree) -> [String] {
        let capitalised = try! NSRegularExpression(pattern: #"(?<![\w.+*/`-])([A-Z][A-Za-z0-9]*)(…)?(?![\w+*/])"#)
        let library = tree.declarationsBelow("Sources")
        let targets = Set(tree.folders.filter { $0.split(separator: "/").count == 2 }.map { Self.split($0).name })
        var problems: [String] = []
        for (folder, text) in sections.sorted(by: { $0.key < $1.key }) where folder.contains("/") {
            let area = folder.split(separator: "/").prefix(2).joined(separator: "/")
            let names = tree.namesBelow(folder)
            let declared = tree.declarationsBelow(folder)
            let elsewhere = tree.swiftFileStems(area).subtracting(names)
            let ns = text as NSString
            var reported: Set<String> = []
            for match in capitalised.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let word = ns.substring(with: match.range(at: 1))
                let isPrefix = match.range(at: 2).location != NSNotFound
                guard !reported.contains(word) else { continue }
                if elsewhere.contains(word) {
                    problems.append("\(word): named in the section of \(folder)/ but its file is in another folder")
                } else if isPrefix ? !names.contains(where: { $0.hasPrefix(word) })
                    : !(names.contains(word) || declared.contains(word) || library.contains(word) || targets.contains(word)
                        || Self.outsideNames.contains(word)) {
                    problems.append("\(word): named in the section of \(folder)/ but nothing in or below it has that name")
                } else {
                    continue
                }
                reported.insert(word)
            }
        }
        return problems
    }

    private func mentions(_ word: String, in folder: String) -> Bool {
        Self.containsWord(word, in: sections[folder] ?? "")
    }

    private func mapsFile(_ name: String, in folder: String) -> Bool {
        let text = sections[folder] ?? ""
        let stem = name.hasSuffix(".swift") ? String(name.dropLast(".swift".count)) : name
        if Self.containsWord(name, in: text) || Self.containsWord(stem, in: text) { return true }
        return Self.words(in: text).contains { Self.isGlob($0) && Self.glob($0, matches: name) }
    }

    // MARK: Words and globs

    /// Characters that continue a file name: `PromiseCore` is not a word of `PromiseCore+GiveUp`.
    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "+"
    }

    /// Whether `word` occurs in `text` with no name character right before or after it
    /// (a trailing `.` after a stem is fine: `Promise` is a word of `Promise.swift`).
    static func containsWord(_ word: String, in text: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: word, range: searchRange) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            let startsWord = before.map { !isNameCharacter($0) } ?? true
            let endsWord = after.map { !isNameCharacter($0) || word.hasSuffix("/") } ?? true
            if startsWord && endsWord { return true }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }

    /// The words of `text`, split at spaces, newlines, commas, semicolons and backticks.
    private static func words(in text: String) -> [String] {
        text.split(whereSeparator: { " \n,;`".contains($0) }).map { String($0) }
    }

    /// Words that look like file names: containing `+` or `*`, or ending in `.swift`.
    private static func fileShapedWords(in text: String) -> Set<String> {
        Set(words(in: text)
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "().:")) }
            .filter { word in
                guard let first = word.first, first.isLetter || first == "*" else { return false }
                return word.hasSuffix(".swift") || word.contains("*")
                    || (word.contains("+") && word.allSatisfy { isNameCharacter($0) })
            })
    }

    private static func isGlob(_ name: String) -> Bool { name.contains("*") }

    /// Matches `name` against a glob where `*` is any run of characters and `(x)` is optional.
    static func glob(_ pattern: String, matches name: String) -> Bool {
        var regex = "^"
        for character in pattern {
            switch character {
            case "*": regex += "[^/]*"
            case "(": regex += "(?:"
            case ")": regex += ")?"
            default: regex += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        regex += "$"
        return name.range(of: regex, options: .regularExpression) != nil
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}
