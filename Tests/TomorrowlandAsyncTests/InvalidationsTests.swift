// token.invalidations and Task.requestCancelOnInvalidate.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

/// Holds a token so a test can release its last copy from anywhere.
final class TokenHolder: @unchecked Sendable {
    // Safety: written by the test's own task only, while consumers hold just the sequence.
    var token: PromiseInvalidationToken?
    init(_ token: PromiseInvalidationToken) { self.token = token }
}

/// Starts a Task that creates an iterator, then counts elements until the sequence ends;
/// returns once the iterator is registered.
func startConsumer(
    _ sequence: PromiseInvalidationToken.Invalidations,
    counter: Counter = Counter(),
    onEach: @escaping @Sendable () async -> Void = {}
) async -> Task<Int, Never> {
    let ready = Counter()
    let task = Task { () -> Int in
        var iterator = sequence.makeAsyncIterator()
        ready.increment()
        var count = 0
        while await iterator.next() != nil {
            count += 1
            counter.increment()
            await onEach()
        }
        return count
    }
    #expect(await eventually(seconds: 30) { ready.value == 1 }, "the consumer made its iterator")
    return task
}

@Suite("Token invalidations as an AsyncSequence")
struct InvalidationsTests {
    @Test func yieldsOncePerInvalidationAfterCreation() async throws {
        let holder = TokenHolder(PromiseInvalidationToken(invalidateOnDeinit: false))
        holder.token!.invalidate()  // before the iterator: not seen
        let seen = Counter()
        let consumer = await startConsumer(holder.token!.invalidations, counter: seen)
        for round in 1...3 {
            holder.token!.invalidate()
            #expect(await eventually { seen.value == round })
        }
        // No wait for a wrong extra element: the final count is the gate. `invalidate()`
        // records an element before it returns, and releasing the token ends the sequence
        // only after a recorded element is delivered, so an extra one would make it 4.
        holder.token = nil
        #expect(try await withDeadline { await consumer.value } == 3, "exactly one element per invalidation")
    }

    @Test func coalescesInvalidationsWhileTheConsumerIsBusy() async throws {
        let holder = TokenHolder(PromiseInvalidationToken(invalidateOnDeinit: false))
        let gate = Counter()
        let seen = Counter()
        // The consumer is busy (polling the gate) after its first element.
        let consumer = await startConsumer(holder.token!.invalidations, counter: seen) {
            _ = await eventually(seconds: 10) { gate.value == 1 }
        }
        holder.token!.invalidate()
        #expect(await eventually { seen.value == 1 })
        for _ in 0..<5 { holder.token!.invalidate() }
        gate.increment()
        #expect(await eventually { seen.value == 2 })
        // The final count is the gate (see above): a second element left from the five would make it 3.
        holder.token = nil
        #expect(try await withDeadline { await consumer.value } == 2, "five invalidations while busy coalesce into one element")
    }

    @Test func finishesWhenTheLastCopyIsReleased() async throws {
        let holder = TokenHolder(PromiseInvalidationToken(invalidateOnDeinit: false))
        let seen = Counter()
        let consumer = await startConsumer(holder.token!.invalidations, counter: seen)
        holder.token!.invalidate()
        var copy: PromiseInvalidationToken? = holder.token
        holder.token = nil
        // The first element is taken before the second invalidation (which would otherwise
        // coalesce with it): waited for, not slept for.
        #expect(await eventually(seconds: 30) { seen.value == 1 })
        copy!.invalidate()
        copy = nil  // the last copy
        #expect(try await withDeadline { await consumer.value } == 2)
    }

    @Test func releaseOfAnInvalidateOnDeinitTokenYieldsThenFinishes() async throws {
        let holder = TokenHolder(PromiseInvalidationToken())
        let consumer = await startConsumer(holder.token!.invalidations)
        holder.token = nil
        #expect(try await withDeadline { await consumer.value } == 1, "the release invalidated the token")
    }

    @Test func sequenceDoesNotKeepTheTokenAlive() async throws {
        let holder = TokenHolder(PromiseInvalidationToken())
        let sequence = holder.token!.invalidations
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        promise.requestCancelOnInvalidate(holder.token!)
        holder.token = nil
        #expect(resolver.hasRequestedCancel, "the token was released (and invalidated) despite the sequence")
        var iterator = sequence.makeAsyncIterator()
        #expect(await iterator.next() == nil, "an iterator of a released token is finished")
    }

    @Test func cancellationReturnsNilPromptlyAndUnregisters() async throws {
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let sequence = token.invalidations
        var consumers: [Task<Int, Never>] = []
        for _ in 0..<50 { consumers.append(await startConsumer(sequence)) }
        #expect(token._invalidationObserverCount == 50)
        for consumer in consumers { consumer.cancel() }
        for consumer in consumers {
            #expect(try await withDeadline(30) { await consumer.value } == 0)
        }
        #expect(token._invalidationObserverCount == 0, "cancelled iterators unregistered")
        do {
            let iterators = (0..<10).map { _ in sequence.makeAsyncIterator() }
            #expect(token._invalidationObserverCount == 10)
            _ = iterators
        }
        #expect(token._invalidationObserverCount == 0, "dropped iterators unregistered")
    }

    @Test func severalIteratorsEachSeeEveryInvalidation() async throws {
        let holder = TokenHolder(PromiseInvalidationToken(invalidateOnDeinit: false))
        let seen = (0..<3).map { _ in Counter() }
        var consumers: [Task<Int, Never>] = []
        for counter in seen { consumers.append(await startConsumer(holder.token!.invalidations, counter: counter)) }
        for round in 1...5 {
            holder.token!.invalidate()
            #expect(await eventually { seen.allSatisfy { $0.value == round } }, "round \(round)")
        }
        holder.token = nil
        for consumer in consumers { #expect(try await withDeadline { await consumer.value } == 5) }
    }

    @Test func chainedInvalidationIsSeen() async throws {
        let parent = PromiseInvalidationToken(invalidateOnDeinit: false)
        let holder = TokenHolder(PromiseInvalidationToken(invalidateOnDeinit: false))
        holder.token!.chainInvalidation(from: parent)
        let seen = Counter()
        let consumer = await startConsumer(holder.token!.invalidations, counter: seen)
        parent.invalidate()
        #expect(await eventually { seen.value == 1 })
        holder.token = nil
        #expect(try await withDeadline { await consumer.value } == 1)
    }

    @Test func cancelWithoutInvalidatingIsNotAnInvalidation() async throws {
        let holder = TokenHolder(PromiseInvalidationToken(invalidateOnDeinit: false))
        let consumer = await startConsumer(holder.token!.invalidations)
        holder.token!.cancelWithoutInvalidating()
        // No wait: an element it wrongly recorded would be delivered before the end (see above).
        holder.token = nil
        #expect(try await withDeadline { await consumer.value } == 0)
    }

    @Test func nextRunsOnTheConsumersActor() async throws {
        let probe = IteratorProbe()
        let holder = TokenHolder(PromiseInvalidationToken(invalidateOnDeinit: false))
        let sequence = holder.token!.invalidations
        let seen = Counter()
        let consumer = Task { await probe.consume(sequence, counting: seen) }
        #expect(await eventually { holder.token!._invalidationObserverCount == 1 })
        holder.token!.invalidate()
        #expect(await eventually { seen.value == 1 }, "the element is taken before the token goes")
        holder.token = nil
        #expect(try await withDeadline { await consumer.value } == 1)
    }

    // MARK: Task.requestCancelOnInvalidate

    @Test func taskIsCancelledWhenTheTokenInvalidates() async throws {
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let task = Task { () -> Bool in
            try? await Task.sleep(for: .seconds(60))
            return Task.isCancelled
        }.requestCancelOnInvalidate(token)
        // No wait: registering runs nothing later, and `invalidate()` runs the action (which
        // cancels the Task) before it returns.
        #expect(!task.isCancelled)
        #expect(token._invalidationObserverCount == 1)
        token.invalidate()
        #expect(task.isCancelled)
        #expect(try await withDeadline { await task.value })
        #expect(token._invalidationObserverCount == 0, "one-shot: gone after firing")
    }

    @Test func taskIsNotCancelledByCancelWithoutInvalidating() async throws {
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let task = Task { try? await Task.sleep(for: .seconds(60)) }.requestCancelOnInvalidate(token)
        token.cancelWithoutInvalidating()
        // No wait: a wrongly fired action would have cancelled the Task before the call
        // returned, as `invalidate()` does (the control below).
        #expect(!task.isCancelled)
        token.invalidate()
        #expect(task.isCancelled)
    }
}

actor IteratorProbe {
    func consume(_ sequence: PromiseInvalidationToken.Invalidations, counting seen: Counter) async -> Int {
        var count = 0
        for await _ in sequence {
            self.assertIsolated()
            count += 1
            seen.increment()
        }
        self.assertIsolated()
        return count
    }
}
