// The original (Tomorrowland 1.x) README's `URLImageView` example, where it lives: a
// `UIImageView` subclass, so a `@MainActor` class. UIKit does not exist on Linux: the fakes
// below stand in for `UIImageView`, `UIImage` and the README's `dataTaskAsPromise`, and the
// example's code is the README's, but for `requestCancel()` (1.x's name) and the generic
// argument the README's markdown lost. Its decode closure (`tryMap(on: .utility, …)`) must run
// off the main queue, its `then(token:)` closure on the main actor.

import Foundation
import Testing
import TomorrowlandAsync

// MARK: - UIKit-free fakes

/// Marks the main queue, so that `UIImage(data:)` can tell where it decodes.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Stands in for `UIImage`: `init?(data:)` fails on data that is not an image, and records
/// whether it decoded on the main queue.
final class UIImage: Sendable {
    let data: Data
    let decodedOnMainQueue: Bool

    init?(data: Data) {
        guard data.starts(with: Data("image:".utf8)) else { return nil }
        self.data = data
        decodedOnMainQueue = DispatchQueue.getSpecific(key: mainQueueKey) == true
    }
}

/// Stands in for `UIImageView` (main-actor isolated, like every UIKit view).
@MainActor class UIImageView {
    var onImageSet: (() -> Void)?
    var image: UIImage? {
        didSet {
            MainActor.preconditionIsolated()
            imageSetOnMainQueue = DispatchQueue.getSpecific(key: mainQueueKey) == true
            onImageSet?()
        }
    }
    private(set) var imageSetOnMainQueue = false

    init() { _ = mainQueueKey }
}

/// Stands in for `URLSession`, with the README's `dataTaskAsPromise` (which "does not actually
/// exist"): `.png` URLs answer image data, others text, from a background queue.
final class URLSession: Sendable {
    static let shared = URLSession()

    func dataTaskAsPromise(with url: URL) -> StdPromise<Data> {
        let name = url.lastPathComponent
        return StdPromise(on: .utility) { resolver in
            resolver.fulfill(with: Data((name.hasSuffix(".png") ? "image:\(name)" : "text").utf8))
        }
    }
}

// MARK: - The README's example

class URLImageView: UIImageView {
    private var promise: StdPromise<Data>?
    private let invalidationToken = PromiseInvalidationToken()

    enum LoadError: Error {
        case dataIsNotImage
    }

    /// Loads an image from the URL and displays it in the image view.
    func loadImage(from url: URL) {
        promise?.requestCancel()
        invalidationToken.invalidate()
        // Note: dataTaskAsPromise does not actually exist
        promise = URLSession.shared.dataTaskAsPromise(with: url)
        // Use `_ =` to avoid having to handle errors with `.catch`.
        _ = promise?.tryMap(on: .utility, { (data) -> UIImage in
            if let image = UIImage(data: data) {
                return image
            } else {
                throw LoadError.dataIsNotImage
            }
        }).then(token: invalidationToken, { [weak self] (image) in
            self?.image = image
        })
    }
}

// MARK: - Tests

@Suite("The original README's URLImageView")
struct OriginalReadmeURLImageViewTests {
    /// Waits (at most a minute) until `view` shows an image; `nil` if it never does (a
    /// continuation ignores the test's time limit, so the wait ends itself).
    @MainActor private func imageShown(by view: URLImageView, loading url: String) async -> UIImage? {
        await withCheckedContinuation { (shown: CheckedContinuation<Void, Never>) in
            var waiting = true
            let stopWaiting = { @MainActor in
                guard waiting else { return }
                waiting = false
                view.onImageSet = nil
                shown.resume()
            }
            view.onImageSet = stopWaiting
            Task { @MainActor in
                try? await Task.sleep(for: .seconds(60))
                stopWaiting()
            }
            view.loadImage(from: URL(string: url)!)
        }
        return view.image
    }

    @Test(.timeLimit(.minutes(1)))
    @MainActor func decodesOffTheMainQueueAndShowsTheImageOnTheMainActor() async {
        let view = URLImageView()
        let image = await imageShown(by: view, loading: "https://example.com/avatar.png")
        #expect(image?.data == Data("image:avatar.png".utf8))
        #expect(image?.decodedOnMainQueue == false, "tryMap(on: .utility) ran its closure on the main queue")
        #expect(view.imageSetOnMainQueue, "then(token:) set the image off the main queue")
    }
}
