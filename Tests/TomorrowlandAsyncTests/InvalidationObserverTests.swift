// The edges of one invalidations iterator: invalidated several times before `next()`, an
// invalidation pending when the token is released, a cancelled Task with an invalidation
// pending, `next()` after the end.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

@Suite("One invalidations iterator's edges")
struct InvalidationObserverTests {
    @Test func invalidatedTwiceBeforeNextReportsOneElement() async throws {
        let holder = TokenHolder(PromiseInvalidationToken(invalidateOnDeinit: false))
        let sequence = holder.token!.invalidations
        let ready = Counter()
        let proceed = Counter()
        let seen = Counter()
        let consumer = Task { () -> Int in
            var iterator = sequence.makeAsyncIterator()
            ready.increment()
            while proceed.value == 0 { await Task.yield() }
            var count = 0
            while await iterator.next() != nil {
                count += 1
                seen.increment()
            }
            return count
        }
        #expect(await eventually { ready.value == 1 })
        holder.token!.invalidate()
        holder.token!.invalidate()
        proceed.increment()
        // The element is taken before the token goes (a second one would be pending anyway).
        #expect(await eventually { seen.value == 1 })
        holder.token = nil
        #expect(try await withDeadline { await consumer.value } == 1, "two invalidations before next(): one element")
    }

    @Test func anInvalidationPendingAtTheReleaseIsReportedThenTheSequenceEnds() async throws {
        let holder = TokenHolder(PromiseInvalidationToken(invalidateOnDeinit: false))
        var iterator = holder.token!.invalidations.makeAsyncIterator()
        holder.token!.invalidate()
        holder.token = nil
        #expect(await iterator.next() != nil)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil, "and from then on")
    }

    @Test func aCancelledTaskStillGetsThePendingInvalidationThenNilAndUnregisters() async throws {
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let sequence = token.invalidations
        let ready = Counter()
        let proceed = Counter()
        let consumer = Task { () -> [Bool] in
            var iterator = sequence.makeAsyncIterator()
            ready.increment()
            while proceed.value == 0 { await Task.yield() }
            var seen: [Bool] = []
            for _ in 0..<3 { seen.append(await iterator.next() != nil) }
            return seen
        }
        #expect(await eventually { ready.value == 1 })
        #expect(token._invalidationObserverCount == 1)
        token.invalidate()
        consumer.cancel()
        proceed.increment()
        #expect(try await withDeadline { await consumer.value } == [true, false, false])
        #expect(token._invalidationObserverCount == 0, "the cancelled iterator unregistered")
        token.invalidate()
    }

    @Test func invalidationsAfterACancelledWaitAreNotReported() async throws {
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let sequence = token.invalidations
        let ready = Counter()
        let consumer = Task { () -> [Bool] in
            var iterator = sequence.makeAsyncIterator()
            ready.increment()
            var seen = [await iterator.next() != nil]  // waits until cancelled
            seen.append(await iterator.next() != nil)
            return seen
        }
        #expect(await eventually { ready.value == 1 })
        // Not an ordering the assertions depend on ([false, false] whether the cancellation
        // finds the iterator parked in `next()` or not yet there): it only makes the parked
        // case likely. The observer is registered when the iterator is made, so no count
        // says "parked".
        try await Task.sleep(for: .milliseconds(20))
        consumer.cancel()
        #expect(try await withDeadline { await consumer.value } == [false, false])
        token.invalidate()
        #expect(token._invalidationObserverCount == 0)
    }
}
