// The feed service, before the migration: awaited bridges and promise-style checks.

import AppCore
import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

final class FeedServiceTests: XCTestCase {
    let service = FeedService(
        users: Samples.users,
        posts: [Post(id: 1, authorID: 1, title: "Engines"), Post(id: 2, authorID: 9, title: "Orphan"), Post(id: 3, authorID: 2, title: "Compilers")]
    )

    func testEntriesLeaveOutUnknownAuthors() async throws {
        let entries = try await service.entries().value
        XCTAssertEqual(entries.map(\.post.title), ["Compilers", "Engines"])
        XCTAssertEqual(entries.map(\.author.name), ["Grace", "Ada"])
    }

    func testAuthorTypedError() async {
        let promise = service.author(id: 42)
        let result = await promise.resolvedResult
        XCTAssertEqual(result, .error(.notFound))
    }

    func testRetries() async throws {
        let count = try await service.flakyCount(failures: 2).value
        XCTAssertEqual(count, 3)
        let gaveUp = await service.flakyCount(failures: 5).resolvedResult
        XCTAssertEqual(gaveUp, .error(.offline))
    }

    func testSummaryAndWidget() async throws {
        let (title, authors) = try await service.summary().value
        XCTAssertEqual(title, "Compilers")
        XCTAssertEqual(authors, 2)
        let titles = try await service.widgetTitles(within: 5).value
        XCTAssertEqual(titles, ["Compilers", "Orphan", "Engines"])
    }

    func testStream() async throws {
        var received: [[FeedEntry]] = []
        for try await entries in service.entryStream() { received.append(entries) }
        XCTAssertEqual(received.count, 1)
        XCTAssertEqual(received.first?.count, 2)
    }

    func testLatestPromiseStyle() {
        let done = expectation(description: "latest")
        _ = service.latestPosts(limit: 1).then(on: .main) { posts in
            XCTAssertEqual(posts.map(\.id), [3])
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }
}
