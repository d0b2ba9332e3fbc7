// Which shared state the explorer sees: all of it, by construction. Every atomic of the
// library is a `SharedAtomic` and every plain field that one thread writes and another reads
// after an atomic published it is a `PublishedField` (Support/SharedCells.swift): their every
// access is a schedule point (or, for a published field's read, a checked access) in
// TomorrowlandExplored. This test checks the types, over the sources' declarations: no
// `Atomic` (or other atomic or lock type) outside the wrappers, no schedule point placed by
// hand, and no stored `var` of a class shared across threads (`@unchecked Sendable`) that is
// neither a wrapper nor listed below with the reason it is not shared state.

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
import XCTest

final class SchedulePointCoverageTests: XCTestCase {
    /// The wrappers themselves, and the explorer's own switches (compiled only into TomorrowlandExplored).
    private static let wrapperFiles: Set<String> = ["SharedCells.swift", "Locked.swift", "SchedulePoints.swift", "VirtualClock.swift"]

    /// Stored `var`s of `@unchecked Sendable` classes that are not wrapped, each with its reason:
    /// "Type.field" (or "Type.*" for every field of a type).
    private static let notShared: [String: String] = [
        "ThreadState.*": "thread-local: reached only through the calling thread's own slot",
        "PromiseNode.next": "list links: written by the one thread that owns the node (before the list's releasing "
            + "compare-exchange pushes it, after the acquiring exchange that takes the list)",
        "ChildBox.callback": "written in init; released by the one thread that fires the node, after taking it from the list",
        "CancelHandlerNode.resolver": "written in init; taken by the one thread that runs the handler, after taking the list",
        "CancelHandlerNode.handler": "the same",
        "IsolatedThrowingTaskPromiseBox.operation": "written in init; taken by the box's own Task (the runtime orders its start)",
        "ThrowingTaskPromiseBox.operation": "the same",
        "IsolatedTaskPromiseBox.operation": "the same",
        "NonThrowingTaskPromiseBox.operation": "the same",
        "ActorMailbox.work": "only under `ActorMailbox.table`'s lock (a `Locked`, whose lock the explorer schedules)",
    ]

    private static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Tomorrowland")
    }

    private func sourceFiles() throws -> [(name: String, lines: [String])] {
        let files = try XCTUnwrap(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        XCTAssertGreaterThan(files.count, 30)
        return try files.map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8).components(separatedBy: "\n")) }
    }

    /// The code of a line, without its comment.
    private static func code(_ line: String) -> String {
        line.components(separatedBy: "//").first!
    }

    /// No atomic or lock type outside the wrappers, and no schedule point placed by hand.
    func testEveryAtomicIsASharedAtomic() throws {
        let forbidden = try NSRegularExpression(
            pattern: #"(?<![A-Za-z])(Atomic\s*[<(]|ManagedAtomic|UnsafeAtomic|AtomicLazyReference|Mutex\s*[<(]|atomicMemoryFence|schedulePoint\(|os_unfair_lock|pthread_mutex)"#)
        var found: [String] = [], atomics = 0
        for file in try sourceFiles() where !Self.wrapperFiles.contains(file.name) {
            for (index, line) in file.lines.enumerated() {
                let code = Self.code(line)
                if code.contains("SharedAtomic") { atomics += 1 }
                if forbidden.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
                    found.append("\(file.name):\(index + 1): \(code.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        print("Interleavings: \(atomics) lines use SharedAtomic; no other atomic, lock or hand-placed schedule point")
        XCTAssertGreaterThan(atomics, 15)
        XCTAssertEqual(found, [], "shared state outside the wrappers: make it a `SharedAtomic` (or a `Locked`), see Support/SharedCells.swift")
    }

    /// Every stored `var` of a class shared across threads (`@unchecked Sendable`) is a
    /// `PublishedField` (or listed in `notShared` with its reason).
    func testEveryPublishedFieldIsAPublishedField() throws {
        let storedVar = try NSRegularExpression(
            pattern: #"^\s*(?:@[\w()]+\s+)*(?:(?:private|fileprivate|internal|package|public|final|static|lazy|weak|unowned|override)(?:\(set\))?\s+)*var\s+(\w+)"#)
        let classHeader = try NSRegularExpression(pattern: #"\bclass\s+(\w+)"#)
        var unwrapped: [String] = [], wrapped = 0, listed: Set<String> = []
        for file in try sourceFiles() where !Self.wrapperFiles.contains(file.name) {
            var depth = 0
            var classes: [(name: String, depth: Int, shared: Bool)] = []
            for (index, line) in file.lines.enumerated() {
                let code = Self.code(line)
                let range = NSRange(code.startIndex..., in: code)
                if let shared = classes.last, shared.shared, depth == shared.depth + 1,
                   let match = storedVar.firstMatch(in: code, range: range),
                   !(code.contains("{") && !code.contains("=")) {  // a computed property
                    let field = String(code[Range(match.range(at: 1), in: code)!])
                    let key = "\(shared.name).\(field)"
                    if code.contains("PublishedField<") || code.contains("publishedField(") {
                        wrapped += 1
                    } else if Self.notShared[key] != nil || Self.notShared["\(shared.name).*"] != nil {
                        listed.insert(Self.notShared[key] != nil ? key : "\(shared.name).*")
                    } else {
                        unwrapped.append("\(file.name):\(index + 1): \(key)")
                    }
                }
                if code.contains("{"), let match = classHeader.firstMatch(in: code, range: range) {
                    classes.append((String(code[Range(match.range(at: 1), in: code)!]), depth, code.contains("@unchecked Sendable")))
                }
                depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
                while let last = classes.last, depth <= last.depth { classes.removeLast() }
            }
        }
        print("Interleavings: \(wrapped) published fields, \(listed.count) fields listed as not shared")
        XCTAssertGreaterThan(wrapped, 8)
        XCTAssertEqual(unwrapped, [], "a mutable field of a shared class: make it a `PublishedField` (Support/SharedCells.swift), or list it with its reason")
        XCTAssertEqual(Set(Self.notShared.keys).subtracting(listed), [], "listed fields that no longer exist")
    }
}
#endif
