import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body`'s wrapper of a nonisolated twin whose steps all ran on one context of the
/// package's own (a queue, as HomeHub's `.sync`): its Task prefers that context's executor, so
/// that each await resumes there instead of on a thread of the global executor that only hops to
/// it (HomeHub's periodic sync: eight thread hand-offs per sync where 1.x made three).
@Suite("convert-body: the wrapper's executor preference")
struct ConvertBodyExecutorPreferenceTests {
    static func feed(_ methods: String) -> String {
        ConvertBodyTests.feed(methods) + """

            extension PromiseContext {
                static let feedQueue = PromiseContext.queue(DispatchQueue(label: "feed"))
                static let otherQueue = PromiseContext.queue(DispatchQueue(label: "other"))
            }

            """
    }

    static let titles = """
            public func titles(limit: Int) -> StdPromise<[String]> {
                latestPosts(limit: limit).mapError(on: .immediate) { $0 as Swift.Error }.map(on: .immediate) { posts in posts.map(\\.title) }
            }

        """

    @Test("steps on one context of the package's own: the wrapper's Task prefers its executor")
    func oneQueueOfThePackage() {
        let text = ConvertBodyTests.converted(Self.feed(Self.titles + """
                public func sortedTitles() -> StdPromise<[String]> {
                    titles(limit: 3).map(on: .feedQueue) { titles in
                        titles.sorted()
                    }
                }

                public func countedTitles() -> StdPromise<Int> {
                    titles(limit: 3)
                        .map(on: .feedQueue) { titles in titles.sorted() }
                        .map(on: .feedQueue) { titles in titles.count }
                }
            """)).text
        let sorted = ConvertBodyTests.bodies(of: "sortedTitles", in: text)
        #expect(sorted.twin.contains("withTaskExecutorPreference(PromiseContext.feedQueue.taskExecutor) { @concurrent in"), "\(text)")
        // Longer than a line: the Task's closure on a line of its own.
        #expect(sorted.promise == """
                    StdPromise(on: .immediate, executorPreference: PromiseContext.feedQueue.taskExecutor) {
                        try await self.sortedTitles()
                    }
            """, "\(text)")
        #expect(ConvertBodyTests.bodies(of: "countedTitles", in: text).promise.contains(
            "StdPromise(on: .immediate, executorPreference: PromiseContext.feedQueue.taskExecutor) {\n            try await self.countedTitles()"
        ), "\(text)")
    }

    @Test("steps on two contexts, on a global queue's or on none: the wrapper is as before")
    func notOneQueueOfThePackage() {
        let text = ConvertBodyTests.converted(Self.feed(Self.titles + """
                public func mixed() -> StdPromise<Int> {
                    titles(limit: 3)
                        .map(on: .feedQueue) { titles in titles.sorted() }
                        .map(on: .otherQueue) { titles in titles.count }
                }

                public func onUtility() -> StdPromise<[String]> {
                    titles(limit: 3).map(on: .utility) { titles in titles.sorted() }
                }
            """)).text
        #expect(ConvertBodyTests.bodies(of: "mixed", in: text).twin.contains("PromiseContext.otherQueue.taskExecutor"), "\(text)")
        #expect(ConvertBodyTests.bodies(of: "mixed", in: text).promise == "        StdPromise(on: .immediate) { try await self.mixed() }")
        #expect(ConvertBodyTests.bodies(of: "onUtility", in: text).promise == "        StdPromise(on: .immediate) { try await self.onUtility() }")
        #expect(ConvertBodyTests.bodies(of: "titles", in: text).promise
            == "        StdPromise(on: .immediate) { try await self.titles(limit: limit) }")
    }

    @Test("the executor a wrapper prefers, from the twin's lines")
    func sharedExecutor() {
        let block = { (executor: String) in "await withTaskExecutorPreference(\(executor)) { @concurrent in" }
        #expect(ConvertBody.sharedExecutor(of: ["let a = try await f()", block("PromiseContext.sync.taskExecutor"), "}"])
            == "PromiseContext.sync.taskExecutor")
        #expect(ConvertBody.sharedExecutor(of: [block("PromiseContext.sync.taskExecutor"), "}", block("PromiseContext.sync.taskExecutor")])
            == "PromiseContext.sync.taskExecutor")
        #expect(ConvertBody.sharedExecutor(of: ["let a = try await f()"]) == nil, "no step on a context")
        #expect(ConvertBody.sharedExecutor(of: [block("PromiseContext.sync.taskExecutor"), block("PromiseContext.state.taskExecutor")]) == nil)
        #expect(ConvertBody.sharedExecutor(of: [block("PromiseContext.utility.taskExecutor")]) == nil, "a global queue")
        #expect(ConvertBody.sharedExecutor(of: [block("PromiseContext.main.taskExecutor")]) == nil, "the main queue")
        #expect(ConvertBody.sharedExecutor(of: [block("PromiseContext.queue(queue).taskExecutor")]) == nil, "may name a local")
        // A queue in a static property of a type (Clinic's `ClinicQueues.reminders`): the same queue wherever it is read.
        #expect(ConvertBody.sharedExecutor(of: [block("PromiseContext.queue(ClinicQueues.reminders).taskExecutor")])
            == "PromiseContext.queue(ClinicQueues.reminders).taskExecutor")
        #expect(ConvertBody.sharedExecutor(of: [block("PromiseContext.queue(DispatchQueue.main).taskExecutor")]) == nil, "the main queue")
        #expect(ConvertBody.sharedExecutor(of: [block("PromiseContext.queue(Queues.make()).taskExecutor")]) == nil, "a call: a new queue")
        #expect(ConvertBody.sharedExecutor(of: [block("PromiseContext.queue(self.queue).taskExecutor")]) == nil)
        #expect(ConvertBody.sharedExecutor(of: [block("executor")]) == nil, "a local chosen at run time")
        #expect(ConvertBody.sharedExecutor(of: [block("self.delivery.context.taskExecutor")]) == nil)
    }
}
