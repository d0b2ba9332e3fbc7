// Keeps the rulebook (Sources/Tomorrowland/Tomorrowland.docc/Rules.md) and the code in step:
// comments, test names and the other articles cite behavioural rules by number ("rule 5",
// "rules 5–7", `testRule05_…`), so every cited number must be a rule of the article (and no
// citation names a sub-rule, a number followed by a letter, which the article does not have); every test
// named after a rule must be listed under it; every test the article lists must exist; and
// nothing cites an issue number instead.

import Foundation
import Testing

@Suite("Rules.md and the code that cites it")
struct RulebookTests {
    @Test("the rules are numbered 1…N without gaps, and each lists the tests that check it")
    func rulesAreNumberedAndChecked() throws {
        let book = try Rulebook.load()
        #expect(book.rules.count >= 30, "found \(book.rules.count) rules")
        #expect(book.rules.map(\.number) == Array(1...book.rules.count), "\(book.rules.map(\.number))")
        for rule in book.rules {
            #expect(!rule.tests.isEmpty, "rule \(rule.number) lists no test")
        }
    }

    @Test("every rule cited in Sources/, Tests/ and the docs is in Rules.md")
    func everyCitedRuleExists() throws {
        let numbers = Set(try Rulebook.load().rules.map(\.number))
        let citations = try Rulebook.citationsInCode()
        #expect(citations.count >= 100, "found only \(citations.count) citations: is the reader broken?")
        for article in Rulebook.articles where article.text.isEmpty {
            Issue.record("\(article.path) could not be read: its citations went unchecked")
        }
        for citation in citations where !numbers.contains(citation.rule) {
            Issue.record("\(citation.place) cites rule \(citation.rule), which Rules.md does not have")
        }
        for place in Rulebook.subRuleCitations() {
            Issue.record("\(place) cites a sub-rule (a number followed by a letter); Rules.md numbers whole rules only: cite the rule")
        }
    }

    @Test("every test named after a rule is listed under that rule")
    func everyRuleNamedTestIsListed() throws {
        let book = try Rulebook.load()
        let named = try Rulebook.ruleNamedTests()
        #expect(named.count >= 100, "found only \(named.count) tests named after a rule")
        for test in named where !(book.rules.first { $0.number == test.rule }?.tests.contains(test.listed) ?? false) {
            Issue.record("\(test.listed.file): \(test.listed.name) is named after rule \(test.rule); list it under that rule in Rules.md")
        }
    }

    @Test("every test Rules.md lists exists in the file it names")
    func everyListedTestExists() throws {
        for rule in try Rulebook.load().rules {
            for test in rule.tests {
                let url = Snippets.root.appendingPathComponent("Tests").appendingPathComponent(test.file)
                let source = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
                if !source.contains("func \(test.name)(") {
                    Issue.record("rule \(rule.number) lists \(test.file): \(test.name), which does not exist")
                }
            }
        }
    }

    @Test("code and tests cite rules, not issues")
    func nothingCitesIssues() throws {
        // Issue numbers mean nothing to a reader of the tree; say the rule or the reason.
        // ("1.x issue #35" style references to the original project's tracker are fine.)
        let issue = try NSRegularExpression(pattern: #"\b[Ii]ssues? \d"#)
        for file in Rulebook.code {
            for match in issue.matches(in: file.text, range: NSRange(file.text.startIndex..., in: file.text)) {
                Issue.record("\(file.place(of: match.range)) cites an issue number; cite the rule or say the reason")
            }
        }
    }

    @Test("citations are read as numbers, ranges and lists")
    func citationsAreRead() {
        #expect(Rulebook.citedRules(in: "see rule 5; rules 12 and 24") == [5, 12, 24])
        #expect(Rulebook.citedRules(in: "// Rules 5–7, rules 1-3") == [5, 6, 7, 1, 2, 3])
        #expect(Rulebook.citedRules(in: "testRule05_x() and rule09_y, Rule 9") == [5, 9, 9])
        #expect(Rulebook.citedRules(in: "a rule of thumb, 5 rules") == [])
        #expect(Rulebook.subRuleCitations(in: "see rule 5" + "b, Rules 12" + "a; rule09_y, rule 5.") == [4, 13])
    }
}

/// Rules.md read into rules, and the rule citations of the code.
struct Rulebook {
    struct ListedTest: Hashable, CustomStringConvertible {
        var file: String  // relative to Tests/
        var name: String
        var description: String { "\(file): \(name)" }
    }

    struct Rule {
        var number: Int
        var tests: [ListedTest]
    }

    struct Citation {
        var rule: Int
        var file: CodeFile
        var range: NSRange
        var place: String { file.place(of: range) }
    }

    var rules: [Rule]

    static let path = "Sources/Tomorrowland/Tomorrowland.docc/Rules.md"

    static func load() throws -> Rulebook {
        let text = try String(contentsOf: Snippets.root.appendingPathComponent(path), encoding: .utf8)
        return Rulebook(markdown: text)
    }

    /// Rules are `### Rule N: title` headings; their tests are the list after "Checked by:",
    /// one item per file: "- `File.swift`: `testA`, `testB`" (items may wrap).
    init(markdown: String) {
        var rules: [Rule] = []
        var currentFile: String?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("#") {
                currentFile = nil
                if let match = line.firstMatch(of: #/^### Rule (\d+): /#) {
                    rules.append(Rule(number: Int(match.1)!, tests: []))
                }
                continue
            }
            guard !rules.isEmpty else { continue }
            if line.isEmpty || !(line.hasPrefix("- `") || line.hasPrefix("  `")) {
                currentFile = nil
                continue
            }
            var names = line.matches(of: /`([^`]+)`/).map { String($0.1) }
            if line.hasPrefix("- ") {
                currentFile = names.isEmpty ? nil : names.removeFirst()
            }
            guard let file = currentFile else { continue }
            rules[rules.count - 1].tests += names.map { ListedTest(file: file, name: $0) }
        }
        self.rules = rules
    }

    private static let citation = try! NSRegularExpression(
        pattern: #"rules?[ _]?(\d+)((?:\s*(?:[–-]|,|and|or)\s*\d+)*)"#, options: [.caseInsensitive])
    private static let continuation = try! NSRegularExpression(pattern: #"\s*([–-]|,|and|or)\s*(\d+)"#)

    /// The rule numbers a piece of text cites: "rule 5", "rules 5–7", "rules 12 and 24",
    /// `testRule05_…`, `rule09_…`.
    static func citedRules(in text: String) -> [Int] {
        citations(in: text).flatMap(\.rules)
    }

    /// Each citation in `text` with the numbers it cites (NSRegularExpression: Swift's `Regex`
    /// is several times slower over the whole tree).
    private static func citations(in text: String) -> [(range: NSRange, rules: [Int])] {
        let ns = text as NSString
        return citation.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            var previous = Int(ns.substring(with: match.range(at: 1)))!
            var numbers = [previous]
            let rest = ns.substring(with: match.range(at: 2))
            for part in continuation.matches(in: rest, range: NSRange(location: 0, length: (rest as NSString).length)) {
                let separator = (rest as NSString).substring(with: part.range(at: 1))
                let number = Int((rest as NSString).substring(with: part.range(at: 2)))!
                numbers += separator == "–" || separator == "-" ? Array(stride(from: previous + 1, through: number, by: 1)) : [number]
                previous = number
            }
            return (match.range, numbers)
        }
    }

    /// A Swift file under Sources/ or Tests/, read once per test run.
    struct CodeFile {
        var path: String
        var text: String
        static func read(_ path: String) -> CodeFile {
            CodeFile(path: path, text: (try? String(contentsOf: Snippets.root.appendingPathComponent(path), encoding: .utf8)) ?? "")
        }
        /// "path:line" of a range in `text`.
        func place(of range: NSRange) -> String {
            let before = (text as NSString).substring(to: range.location)
            return "\(path):\(before.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })"
        }
    }

    static let code: [CodeFile] = swiftFiles(under: ["Sources", "Tests"]).map(CodeFile.read)

    /// The articles that may cite rules: the DocC catalogs (Rules.md among them), README.md
    /// and MIGRATION.md. BENCHMARKS.md is a log of past measurements and is not read.
    static let articles: [CodeFile] = (files(under: ["Sources"], withSuffix: ".md") + ["README.md", "MIGRATION.md"])
        .map(CodeFile.read)

    /// Every rule cited in a Swift file under Sources/ or Tests/, or in an article.
    static func citationsInCode() throws -> [Citation] {
        (code + articles).flatMap { file in
            citations(in: file.text).flatMap { found in found.rules.map { Citation(rule: $0, file: file, range: found.range) } }
        }
    }

    private static let subRule = try! NSRegularExpression(pattern: #"\brules?[ _]?\d+[a-z]\b"#, options: [.caseInsensitive])

    /// Places where a rule number is followed by a letter, in the code and the articles.
    static func subRuleCitations() -> [String] {
        (code + articles).flatMap { file in
            subRule.matches(in: file.text, range: NSRange(location: 0, length: (file.text as NSString).length))
                .map { file.place(of: $0.range) }
        }
    }

    /// The offsets of the sub-rule citations in `text` (for the reader's own test).
    static func subRuleCitations(in text: String) -> [Int] {
        subRule.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length)).map(\.range.location)
    }

    /// Tests whose function name starts with `testRuleNN` or `ruleNN`.
    static func ruleNamedTests() throws -> [(rule: Int, listed: ListedTest)] {
        let name = try NSRegularExpression(pattern: #"func ((?:test)?[Rr]ule(\d+)\w*)\s*\("#)
        return code.filter { $0.path.hasPrefix("Tests/") }.flatMap { file in
            let ns = file.text as NSString
            return name.matches(in: file.text, range: NSRange(location: 0, length: ns.length)).map { match in
                (rule: Int(ns.substring(with: match.range(at: 2)))!,
                 listed: ListedTest(file: String(file.path.dropFirst("Tests/".count)), name: ns.substring(with: match.range(at: 1))))
            }
        }
    }

    private static func swiftFiles(under folders: [String]) -> [String] {
        files(under: folders, withSuffix: ".swift")
    }

    private static func files(under folders: [String], withSuffix suffix: String) -> [String] {
        folders.flatMap { folder -> [String] in
            let enumerator = FileManager.default.enumerator(atPath: Snippets.root.appendingPathComponent(folder).path)
            return (enumerator?.allObjects ?? []).compactMap { $0 as? String }
                .filter { $0.hasSuffix(suffix) }
                .map { folder + "/" + $0 }
        }.sorted()
    }
}
