// The meaning of ArticleService's chains: values, errors, the queue a callback ran on, and
// cancellation reaching the work. Run before and after `convert-body` (migrate-corpus.sh): the
// same assertions hold for the chains and for the async twins the chains moved into.

import AppCore
import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

final class ArticleTests: XCTestCase {
    let service = ArticleService(articles: [1: "hello promise world", 2: "see 1", 3: ""])

    func testValuesAndTheQueueOfANamedContext() async throws {
        let words = try await (service.words(id: 1) as Promise<[String], APIError>).value
        XCTAssertEqual(words, ["hello", "promise", "world"])
        XCTAssertEqual(service.placements["words"], "storage", "map(on: .storage) runs on the storage queue")
        let count = try await (service.wordCount(id: 1) as Promise<Int, NoError>).value
        XCTAssertEqual(count, 3)
        let headline = try await (service.headline(id: 1) as Promise<String, APIError>).value
        XCTAssertEqual(headline, "hello")
        let linked = try await (service.linked(from: 2) as Promise<String, APIError>).value
        XCTAssertEqual(linked, "hello promise world")
        let lengths = try await (service.lengths(1, 2) as Promise<(Int, Int), APIError>).value
        XCTAssertEqual(lengths.0, 19)
        XCTAssertEqual(lengths.1, 5)
        let texts = try await (service.texts([2, 1]) as Promise<[String], APIError>).value
        XCTAssertEqual(texts, ["see 1", "hello promise world"])
    }

    func testErrorsKeepTheirType() async {
        let missing = await (service.words(id: 9) as Promise<[String], APIError>).resolvedResult
        XCTAssertEqual(missing, .error(.notFound))
        let empty = await (service.headline(id: 3) as Promise<String, APIError>).resolvedResult
        XCTAssertEqual(empty, .error(.notFound))
        let recovered = await (service.wordCount(id: 9) as Promise<Int, NoError>).resolvedResult
        XCTAssertEqual(recovered.value, 0, "recover turns the error into 0")
        let pair = await (service.lengths(1, 9) as Promise<(Int, Int), APIError>).resolvedResult
        XCTAssertEqual(pair.error, .notFound)
    }

    func testCatchAndAlwaysRunOnce() async {
        let log = ArticleLog()
        let text = await (service.loggedText(id: 2, log: log) as StdPromise<String>).resolvedResult
        XCTAssertEqual(text.value, "see 1")
        XCTAssertEqual(log.lines, ["done 2"])
        let failed = await (service.loggedText(id: 9, log: log) as StdPromise<String>).resolvedResult
        XCTAssertEqual(failed.error as? APIError, .notFound)
        XCTAssertEqual(log.lines, ["done 2", "failed 9: notFound", "done 9"])
    }

    func testACancelRequestReachesTheWait() async {
        // The wait is a minute long: the promise is cancelled (not fulfilled) only if the
        // request reaches the timer.
        let promise: Promise<[String], APIError> = service.delayedWords(id: 1)
        promise.requestCancel()
        let result = await promise.resolvedResult
        XCTAssertEqual(result, .cancelled)
    }
}
