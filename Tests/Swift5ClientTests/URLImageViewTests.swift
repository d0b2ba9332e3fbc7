// The README's URLImageView samples, with fake image/session types, on `.main`.

import Foundation
import Tomorrowland
import XCTest

/// An image view that reports when its image changes (so tests can wait for it).
class ObservableImageView: FakeImageView {
    var onImageSet: (() -> Void)?
    override var image: FakeImage? {
        didSet { onImageSet?() }
    }
}

/// First README version: keeps the promise, cancels it and invalidates a token by hand.
class URLImageView: ObservableImageView {
    let session: FakeSession
    private var promise: StdPromise<Data>?
    private let invalidationToken = PromiseInvalidationToken()

    enum LoadError: Error {
        case dataIsNotImage
    }

    init(session: FakeSession) { self.session = session }

    /// Loads an image from the URL and displays it in the image view.
    func loadImage(from url: URL) {
        promise?.requestCancel()
        invalidationToken.invalidate()
        promise = session.dataTaskAsPromise(with: url)
        // Use `_ =` to avoid having to handle errors with `.catch`.
        _ = promise?.tryMap(on: .utility, { (data) -> FakeImage in
            if let image = FakeImage(data: data) {
                return image
            } else {
                throw LoadError.dataIsNotImage
            }
        }).then(token: invalidationToken, { [weak self] (image) in
            self?.image = image
        })
    }
}

/// Second README version: no stored promise, `requestCancelOnInvalidate` instead.
class TokenURLImageView: ObservableImageView {
    let session: FakeSession
    private let promiseToken = PromiseInvalidationToken()
    var lastError: Swift.Error? {
        didSet { onError?() }
    }
    var onError: (() -> Void)?

    init(session: FakeSession) { self.session = session }

    func loadImage(from url: URL) {
        promiseToken.invalidate()
        _ = session.dataTaskAsPromise(with: url).tryMap(on: .utility, { (data) -> FakeImage in
            if let image = FakeImage(data: data) {
                return image
            } else {
                throw URLImageView.LoadError.dataIsNotImage
            }
        }).then(token: promiseToken, { [weak self] (image) in
            self?.image = image
        }).catch(token: promiseToken, { [weak self] error in
            self?.lastError = error
        }).requestCancelOnInvalidate(promiseToken)
    }
}

final class URLImageViewTests: XCTestCase {
    /// A session whose "slow" URLs never answer and whose others answer on a background queue.
    func makeSession() -> FakeSession {
        let session = FakeSession()
        session.respond = { url, task in
            guard url.lastPathComponent != "slow" else { return }
            DispatchQueue.global().async {
                let bytes = url.lastPathComponent == "text" ? Data("hello".utf8) : pngBytes
                task.finish(data: bytes, error: nil)
            }
        }
        return session
    }

    func testLoadImageCancelsPreviousLoad() {
        let session = makeSession()
        let imageView = URLImageView(session: session)
        let shown = expectation(description: "image shown")
        var imagesSet = 0
        imageView.onImageSet = {
            imagesSet += 1
            shown.fulfill()
        }
        imageView.loadImage(from: URL(string: "https://example.com/slow")!)
        imageView.loadImage(from: URL(string: "https://example.com/fast.png")!)
        wait(for: [shown], timeout: 10)
        XCTAssertEqual(imageView.image?.data, pngBytes)
        XCTAssertEqual(imagesSet, 1)
        XCTAssertEqual(session.allTasks.map { $0.isCancelled }, [true, false])
    }

    func testTokenVersionCancelsThroughRequestCancelOnInvalidate() {
        let session = makeSession()
        let imageView = TokenURLImageView(session: session)
        let shown = expectation(description: "image shown")
        imageView.onImageSet = { shown.fulfill() }
        imageView.loadImage(from: URL(string: "https://example.com/slow")!)
        imageView.loadImage(from: URL(string: "https://example.com/fast.png")!)
        wait(for: [shown], timeout: 10)
        XCTAssertEqual(imageView.image?.data, pngBytes)
        XCTAssertTrue(session.allTasks[0].isCancelled, "invalidate() cancelled the slow request")
        XCTAssertNil(imageView.lastError)
    }

    func testTokenVersionReportsBadData() {
        let session = makeSession()
        let imageView = TokenURLImageView(session: session)
        let failed = expectation(description: "error shown")
        imageView.onError = { failed.fulfill() }
        imageView.loadImage(from: URL(string: "https://example.com/text")!)
        wait(for: [failed], timeout: 10)
        XCTAssertNil(imageView.image)
        guard case URLImageView.LoadError.dataIsNotImage? = imageView.lastError else {
            return XCTFail("unexpected error \(String(describing: imageView.lastError))")
        }
    }

    /// The README's `.nowOr(.main)` sample: no transition when already resolved.
    func testNowOrMainSkipsTransitionWhenAlreadyResolved() {
        let imageView = FakeImageView()
        var durations: [TimeInterval] = []
        let networkImagePromise = Promise<FakeImage, Swift.Error>(fulfilled: FakeImage(data: pngBytes)!)
        networkImagePromise.then(on: .nowOr(.main), { [weak imageView] (image) in
            guard let imageView = imageView else { return }
            let duration: TimeInterval = PromiseContext.isExecutingNow
                ? 0 // no transition if we're synchronous
                : 0.25
            durations.append(duration)
            imageView.image = image
        })
        XCTAssertEqual(durations, [0], "ran synchronously")
        XCTAssertNotNil(imageView.image)

        let (pending, resolver) = Promise<FakeImage, Swift.Error>.makeWithResolver()
        let done = expectation(description: "async")
        pending.then(on: .nowOr(.main), { _ in
            durations.append(PromiseContext.isExecutingNow ? 0 : 0.25)
        }).always { _ in done.fulfill() }
        resolver.fulfill(with: FakeImage(data: pngBytes)!)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(durations, [0, 0.25])
        XCTAssertFalse(PromiseContext.isExecutingNow)
    }
}
