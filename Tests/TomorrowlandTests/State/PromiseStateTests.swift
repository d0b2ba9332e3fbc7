// The pure transitions of State/PromiseState.swift, checked directly: one row per rule the
// state word, the list heads and the keeper count implement. Each row starts from a state
// built by a few events, applies one more, and checks the action returned and the state
// left behind, which must also pass the invariant check that debug builds assert.

import Foundation
import Testing
@testable import Tomorrowland

@Suite("PromiseState: the state machine of one promise")
struct PromiseStateTests {
    /// An event of the state word, as `PromiseCore` applies it.
    enum Event: Sendable, CustomStringConvertible {
        case claim(cancelling: Bool), publish, requestCancel
        case addObserver, observerRequestedCancel(ignoringHandles: Bool), addCancelledObserver
        case seal, preseal, linkCountsOnlyOnCancel

        static let fulfil = Event.claim(cancelling: false)
        static let cancel = Event.claim(cancelling: true)
        static let observerCancels = Event.observerRequestedCancel(ignoringHandles: false)

        /// Applies the event; returns its action, spelled as the enum case (`"none"` when the
        /// event returns nothing).
        func apply(to state: inout PromiseState) -> String {
            switch self {
            case .claim(let cancelling): return "\(state.claim(cancelling: cancelling))"
            case .publish: return "\(state.publish())"
            case .requestCancel: return "\(state.requestCancel())"
            case .addObserver: state.addObserver(); return "none"
            case .observerRequestedCancel(let ignoring): return "\(state.observerRequestedCancel(ignoringHandles: ignoring))"
            case .addCancelledObserver: return "\(state.addCancelledObserver())"
            case .seal: return "\(state.seal())"
            case .preseal: state.preseal(); return "none"
            case .linkCountsOnlyOnCancel: state.setLinkCountsOnlyOnCancel(); return "none"
            }
        }

        var description: String {
            switch self {
            case .claim(let cancelling): cancelling ? "claim(cancel)" : "claim(fulfil)"
            case .publish: "publish"
            case .requestCancel: "requestCancel"
            case .addObserver: "addObserver"
            case .observerRequestedCancel(let ignoring): ignoring ? "observerRequestedCancel(ignoringHandles)" : "observerRequestedCancel"
            case .addCancelledObserver: "addCancelledObserver"
            case .seal: "seal"
            case .preseal: "preseal"
            case .linkCountsOnlyOnCancel: "linkCountsOnlyOnCancel"
            }
        }
    }

    /// One rule: from `initial` after `given`, `when` returns `then` and leaves a state for
    /// which `expect` holds.
    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        var initial = PromiseState.initial
        let given: [Event]
        let when: Event
        let then: String
        let expect: @Sendable (PromiseState) -> Bool

        var testDescription: String { rule }
    }

    static let rows: [Row] = [
        Row(rule: "rule 2: the first claim wins; the claimant writes the result",
            given: [], when: .fulfil, then: "writeResult",
            expect: { $0.isResolvingOrResolved && !$0.isResolved && $0.isFulfilledOrRejected }),
        Row(rule: "rule 2: a claim after another claim does nothing",
            given: [.cancel], when: .fulfil, then: "alreadyClaimed",
            expect: { $0.isCancelRequested && !$0.isFulfilledOrRejected }),
        Row(rule: "rule 2: a claim after resolution does nothing, for good",
            given: [.fulfil, .publish], when: .cancel, then: "alreadyClaimed",
            expect: { $0.isResolved && $0.isFulfilledOrRejected }),
        Row(rule: "rule 2: a promise created resolved cannot be claimed",
            initial: .resolvedAtCreation, given: [], when: .fulfil, then: "alreadyClaimed",
            expect: { $0.isResolved && $0.isSealed }),
        Row(rule: "rule 3: the first request while pending runs the handlers and leaves the promise pending",
            given: [], when: .requestCancel, then: "runHandlers",
            expect: { $0.isCancelRequested && !$0.isResolvingOrResolved }),
        Row(rule: "rule 3: a second request does nothing",
            given: [.requestCancel], when: .requestCancel, then: "none",
            expect: { $0.isCancelRequested && !$0.isResolvingOrResolved }),
        Row(rule: "rule 3: a request on a resolved promise does nothing",
            given: [.fulfil, .publish], when: .requestCancel, then: "none",
            expect: { !$0.isCancelRequested && $0.isResolved }),
        Row(rule: "rule 3: a request on a resolving promise does nothing",
            given: [.fulfil], when: .requestCancel, then: "none",
            expect: { !$0.isCancelRequested }),
        Row(rule: "rule 3: hasRequestedCancel is false again once fulfilled or rejected after a request",
            given: [.requestCancel], when: .fulfil, then: "writeResult",
            expect: { !$0.isCancelRequested && $0.isFulfilledOrRejected }),
        Row(rule: "rule 3: hasRequestedCancel is true after the promise was cancelled",
            given: [], when: .cancel, then: "writeResult",
            expect: { $0.isCancelRequested && !$0.isFulfilledOrRejected }),
        Row(rule: "rule 4: handlers registered after cancellation run at once",
            given: [.cancel], when: .publish, then: "closeHandlersAsCancelled",
            expect: { $0.isResolved && $0.isCancelRequested }),
        Row(rule: "rule 4: handlers registered after fulfilment or rejection never run",
            given: [.requestCancel, .fulfil], when: .publish, then: "closeHandlersAsResolved",
            expect: { $0.isResolved && !$0.isCancelRequested }),
        Row(rule: "rule 5: the last observer's request, with no handle left, asks the promise to cancel",
            given: [.addObserver, .addObserver, .seal, .observerCancels], when: .observerCancels, then: "requestCancel",
            expect: { $0.hasPropagated && $0.cancelledObservers == 2 }),
        Row(rule: "rule 5: not every observer asked: no request",
            given: [.addObserver, .addObserver, .seal], when: .observerCancels, then: "none",
            expect: { !$0.hasPropagated }),
        Row(rule: "rule 5: every observer asked but a handle is left: the request waits",
            given: [.addObserver], when: .observerCancels, then: "none",
            expect: { !$0.hasPropagated && $0.cancelledObservers == 1 }),
        Row(rule: "rule 5: the request waiting for the last handle is made when it goes away",
            given: [.addObserver, .observerCancels], when: .seal, then: "requestCancel",
            expect: { $0.hasPropagated && $0.isSealed }),
        Row(rule: "rule 5: propagation fires at most once",
            given: [.addObserver, .seal, .observerCancels, .addObserver], when: .observerCancels, then: "none",
            expect: { $0.hasPropagated }),
        Row(rule: "rule 5: a resolved promise is not asked to cancel",
            given: [.addObserver, .fulfil, .publish], when: .seal, then: "none",
            expect: { !$0.hasPropagated }),
        Row(rule: "rule 5: an awaiting Task's request does not wait for handles, and the waiver is sticky",
            given: [.addObserver, .addObserver, .observerRequestedCancel(ignoringHandles: true)], when: .observerCancels,
            then: "requestCancel", expect: { $0.hasPropagated && $0.areHandlesWaived && !$0.isSealed }),
        Row(rule: "rule 6: no observers, no automatic cancel",
            given: [], when: .seal, then: "none",
            expect: { $0.isSealed && !$0.hasPropagated && $0.observers == 0 }),
        Row(rule: "rule 7: an observer that never requests (ignoringCancel) blocks propagation",
            given: [.addObserver, .addObserver, .seal], when: .observerCancels, then: "none",
            expect: { $0.observers == 2 && $0.cancelledObservers == 1 && !$0.hasPropagated }),
        Row(rule: "rule 7: onCancel counts as one observer that requested, once asked to cancel",
            given: [.seal], when: .addCancelledObserver, then: "requestCancel",
            expect: { $0.observers == 1 && $0.cancelledObservers == 1 && $0.hasPropagated }),
        Row(rule: "rule 7: an onCancel link is marked on the child",
            given: [], when: .linkCountsOnlyOnCancel, then: "none",
            expect: { $0.linkCountsOnlyOnCancel && $0.observers == 0 }),
        Row(rule: "rule 8: a pre-sealed promise forwards once all its children asked, handles or not",
            given: [.preseal, .addObserver], when: .observerCancels, then: "requestCancel",
            expect: { $0.hasPropagated && $0.isSealed }),
    ]

    @Test("each rule of the state word", arguments: rows)
    func stateWordRules(_ row: Row) {
        var state = row.initial
        for event in row.given {
            let before = state
            _ = event.apply(to: &state)
            #expect(state.invariantViolation(after: before) == nil, "given \(event)")
        }
        let before = state
        let action = row.when.apply(to: &state)
        #expect(action == row.then, "\(row.when) returned \(action)")
        #expect(row.expect(state), "state after \(row.when): \(String(state.raw, radix: 2))")
        #expect(state.invariantViolation(after: before) == nil,
                "\(state.invariantViolation(after: before) ?? "")")
    }

    @Test("publish's atomic add gives what the pure transition gives")
    func publishIncrementMatchesPublish() {
        for cancelling in [false, true] {
            var state = PromiseState.initial
            state.addObserver()
            _ = state.claim(cancelling: cancelling)
            var published = state
            _ = published.publish()
            #expect(state.raw &+ PromiseState.publishIncrement == published.raw)
        }
    }

    @Test("rule 1: the last keeper gone while pending resolves the promise as cancelled")
    func keeperRules() {
        var resolved = PromiseState.initial
        _ = resolved.claim(cancelling: false)
        #expect(PromiseState.keeperReleased(remaining: 0, state: { .initial }) == .resolveCancelled)
        #expect(PromiseState.keeperReleased(remaining: 1, state: { .initial }) == .none)
        #expect(PromiseState.keeperReleased(remaining: 0, state: { resolved }) == .none)
        #expect(PromiseState.keeperReleased(remaining: 0, state: { .resolvedAtCreation }) == .none)
    }

    @Test("rule 27: a link stored on a promise already asked to cancel passes the request on at once")
    func upstreamLinkRules() {
        var state = PromiseState.initial
        #expect(state.linkStored() == .keep)
        _ = state.requestCancel()
        #expect(state.linkStored() == .passCancelRequestOn, "asked to cancel before the link: passed on at once")
        _ = state.claim(cancelling: false)
        #expect(state.linkStored() == .drop, "resolving: the link is dropped, resolution may have passed it by")
        _ = state.publish()
        #expect(state.linkStored() == .drop)
    }

    @Test("rule 4: the list heads: register, cancel request, resolution")
    func listHeadRules() {
        let node = PromiseNode()
        let ref = Unmanaged.passUnretained(node)
        defer { node.next = nil }

        var callbacks = ListHead(nil)
        #expect(callbacks.registerCallback(ref) == .pushed)
        #expect(callbacks.node?.toOpaque() == ref.toOpaque() && node.next == nil)
        var closed = ListHead.closedCallbacks
        #expect(closed.registerCallback(ref) == .fireNow, "a callback registered after resolution fires at once")

        var handlers = ListHead(nil)
        #expect(handlers.registerCancelHandler(ref) == .pushed)
        #expect(handlers.takeForCancelRequest()?.toOpaque() == ref.toOpaque())
        #expect(handlers.takeForCancelRequest() == nil, "the handlers are taken once")
        #expect(handlers.registerCancelHandler(ref) == .runNow, "rule 4: registered after a request: runs at once")
        var afterCancel = ListHead.closedCancelHandlers(.closeHandlersAsCancelled)
        #expect(afterCancel.registerCancelHandler(ref) == .runNow, "rule 4: registered after cancellation: runs at once")
        var afterFulfil = ListHead.closedCancelHandlers(.closeHandlersAsResolved)
        #expect(afterFulfil.registerCancelHandler(ref) == .drop, "rule 4: registered after fulfilment: never runs")
        #expect(afterFulfil.takeForCancelRequest() == nil)

        // The debug-only check: a closed list never changes, an open one may close.
        #expect(ListHead.closedCallbacks.isValid(after: ListHead(nil)))
        #expect(ListHead(ref).isValid(after: ListHead(nil)))
        #expect(!ListHead(nil).isValid(after: .closedCallbacks), "a closed list reopened")
        #expect(!ListHead(ref).isValid(after: ListHead(Sentinel.cancelRequestedRef)), "a handler pushed after the request")
    }

    @Test("the invariant check rejects impossible words and backward transitions")
    func invariantCheckCatchesViolations() {
        #expect(PromiseState(raw: 0b11).invariantViolation() != nil, "phase 3 does not exist")
        #expect(PromiseState(raw: 1 << 7).invariantViolation() != nil, "the spare bit")
        var claimed = PromiseState.initial
        _ = claimed.claim(cancelling: false)
        #expect(PromiseState.initial.invariantViolation(after: claimed) != nil, "the phase went back")
        var sealed = PromiseState.initial
        _ = sealed.seal()
        #expect(PromiseState.initial.invariantViolation(after: sealed) != nil, "a sticky bit was cleared")
        var observed = PromiseState.initial
        observed.addObserver()
        #expect(PromiseState.initial.invariantViolation(after: observed) != nil, "a count went down")
        var requested = PromiseState.initial
        _ = requested.requestCancel()
        #expect(PromiseState.initial.invariantViolation(after: requested) != nil, "a request withdrawn")
        #expect(claimed.invariantViolation(after: .initial) == nil)
    }

    @Test("only State/ mutates a promise's shared state: everything else calls PromiseCore's named events")
    func theCoreIsSealed() throws {
        // Applying a transition (`update { … }`) or touching one of the five atomics directly.
        let pattern = try NSRegularExpression(pattern:
            #"\.update\s*[({]|\b(state|keepers|callbacks|cancelHandlers|upstream)\.(load|store|exchange|compareExchange|weakCompareExchange|wrappingAdd|wrappingSubtract|bitwiseOr|bitwiseAnd)\("#)
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 40, "found \(files.count) source files under \(sources.path): is the reader broken?")
        var stateFilesMatching = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let matches = pattern.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
            if file.pathComponents.contains("State") {
                stateFilesMatching += matches > 0 ? 1 : 0
            } else if matches > 0 {
                Issue.record("\(file.lastPathComponent) mutates a promise's state directly; call a PromiseCore event")
            }
        }
        #expect(stateFilesMatching > 0, "the pattern finds nothing even in State/: is it broken?")
    }
}

