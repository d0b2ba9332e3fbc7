// Which shared stores the explorer interleaves: every atomic operation of the library and
// every plain store another thread reads through an atomic's publication must come right
// after a schedule point, or be listed below with the reason it needs none. A store without
// one runs as part of the step before it: the explorer could not put another thread between
// it and its neighbour, and a race there (a continuation stored after the compare-exchange
// that publishes it, a read-modify-write split in two) would go unseen.

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
import XCTest

final class SchedulePointCoverageTests: XCTestCase {
    /// How many lines above a store its schedule point may be (a multi-line call, a strong
    /// compare-exchange under `#if` with its comment).
    private static let window = 6

    /// Plain fields published through an atomic: an assignment to one is a shared store.
    private static let publishedFields = [
        "storedResult",        // PromiseBox: the result, published by `publish`'s state add
        "awaitContinuation",   // AwaitSlot: the continuation, published by the `arm` compare-exchange
        "awaitStopsOnCancel",  // TaskPromiseBox: published by the claim, read by the cancellation handler
        "slots[index]",        // WhenValueBuffer: a value, published by the countdown
        "self.value",          // WhenValueSlot: the same for the tuple form
        ".task",               // TaskPromiseBox: the Task, published by registering the box as a cancel handler
    ]

    /// Stores with no schedule point, each with its reason: (file, a fragment of the line).
    private static let unscheduled: [(file: String, fragment: String, reason: String)] = [
        ("ThreadState.swift", "keyPlusOne.", "the lazily created thread-local key: left to the stress tests"),
        ("ThreadState.swift", "expected: 0, desired: UInt(key)", "the same key's compare-exchange"),
        ("UnrunWorkGuard.swift", "ran.", "UnrunWorkGuard.ran: left to the stress tests"),
        ("PromiseCore.swift", "let list = callbacks.load(ordering: .acquiring)", "deinit: the object is no longer shared"),
        ("PromiseCore.swift", "let handlers = cancelHandlers.load(ordering: .acquiring)", "deinit"),
        ("PromiseCore.swift", "upstream.load(ordering: .acquiring)?.release()", "deinit"),
        ("PromiseAwaiter.swift", "assert(awaitPhase.load", "deinit (a debug check)"),
        ("PromiseBox.swift", "storedResult = placeholder", "init: not shared yet"),
        ("PromiseBox.swift", "storedResult = result\n        super.init", "init: not shared yet"),
        ("TaskPromiseBox.swift", "box.task = ", "written by the creator before `registerAsCancelHandler` publishes the box (list.cas)"),
        ("PromiseAwaiter.swift", "self.awaitStopsOnCancel = stopWaitingOnCancel", "init: not shared yet"),
        ("Locked.swift", "self.value = value", "init: not shared yet"),
        ("Promise+Resolver.swift", "init(_ value: T) { self.value = value }", "init of a wrapper, not a published field"),
        ("VirtualClock.swift", "installed.store(", "a test's virtual clock, installed before the test runs the library"),
        ("VirtualClock.swift", "installed.load(", "reads that clock; no scheduled thread changes it"),
    ]

    /// An atomic operation's call: with its ordering on the line, or its arguments on the next ones.
    private static let atomicOperation = try! NSRegularExpression(
        pattern: #"\b(load|store|exchange|compareExchange|weakCompareExchange|wrappingAdd|wrappingSubtract|add|subtract|bitwiseOr|bitwiseAnd)\((.*ordering:|$)"#)

    /// Each store needs a schedule point of its own: within `window` lines above it, with no
    /// other store between (a read-modify-write split into a load and a store needs two).
    /// Release-only branches (`#else` of `TOMORROWLAND_SCHEDULE_POINTS`) are skipped.
    func testEverySharedStoreHasASchedulePoint() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/Tomorrowland")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "SchedulePoints.swift" }
        XCTAssertGreaterThan(files.count, 30)
        var stores = 0, scheduled = 0, listed = 0, missing: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            var lastPoint: Int? = nil
            var conditions: [(isSchedulePoints: Bool, inElse: Bool)] = []
            for (index, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//").first!
                let trimmed = code.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("#if") { conditions.append((trimmed.contains("TOMORROWLAND_SCHEDULE_POINTS"), false)) }
                if trimmed.hasPrefix("#else"), !conditions.isEmpty { conditions[conditions.count - 1].inElse = true }
                if trimmed.hasPrefix("#endif") { _ = conditions.popLast() }
                if conditions.contains(where: { $0.isSchedulePoints && $0.inElse }) || trimmed.hasPrefix("func ") { continue }
                if code.contains("schedulePoint(") { lastPoint = index }
                let range = NSRange(code.startIndex..., in: code)
                let isAtomic = Self.atomicOperation.firstMatch(in: code, range: range) != nil
                let isPublished = Self.publishedFields.contains { field in
                    code.contains(field + " = ") && !code.contains("let \(field)") && !code.contains("var \(field)")
                }
                guard isAtomic || isPublished else { continue }
                stores += 1
                let context = lines[index...min(index + 1, lines.count - 1)].joined(separator: "\n")
                if Self.unscheduled.contains(where: { file.lastPathComponent == $0.file && context.contains($0.fragment) }) {
                    listed += 1
                    continue
                }
                if let point = lastPoint, index - point <= Self.window {
                    scheduled += 1
                    lastPoint = nil  // used: the next store needs its own
                } else {
                    missing.append("\(file.lastPathComponent):\(index + 1): \(trimmed)")
                }
            }
        }
        print("Interleavings: \(stores) shared stores and atomic operations: \(scheduled) after their own schedule point, \(listed) listed as unscheduled")
        XCTAssertEqual(missing, [], "shared stores without a schedule point of their own (add one, or list the store with its reason)")
    }
}
#endif
