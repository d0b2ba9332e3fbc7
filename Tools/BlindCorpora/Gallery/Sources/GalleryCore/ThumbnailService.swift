import Foundation
import Tomorrowland

/// Renders and caches thumbnails. Called from the grid (main thread) and from the importer
/// (background), so it guards its state with a lock.
public final class ThumbnailService: @unchecked Sendable {
    // Safe to share: `cache`, `renderCount` and `inFlight` are only read or written while
    // holding `lock`; every other stored property is a `let` set in `init`.
    private let lock = NSLock()
    private var cache: [String: Thumbnail] = [:]
    private var renderCount = 0
    private var inFlight: [String: PromiseCancellable] = [:]

    public let side: Int
    private let source: AssetSource
    /// Where cache bookkeeping callbacks run; the app passes `.utility`, tests `.immediate`.
    private let bookkeeping: PromiseContext
    /// A grey square shown while the real thumbnail renders; made once, on first use.
    public let placeholder: GalleryDelayedPromise<Thumbnail>

    public init(source: AssetSource, side: Int = 256, bookkeeping: PromiseContext = .utility) {
        self.source = source
        self.side = side
        self.bookkeeping = bookkeeping
        self.placeholder = GalleryDelayedPromise(on: .render) { resolver in
            resolver.fulfill(with: Thumbnail(assetID: "placeholder", side: side, bytes: side * side))
        }
    }

    public var renderedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return renderCount
    }

    public func cachedThumbnail(for id: String) -> Thumbnail? {
        lock.lock()
        defer { lock.unlock() }
        return cache[id]
    }

    /// The thumbnail of `asset`, from the cache or rendered on the render queue.
    public func thumbnail(for asset: Asset) -> GalleryPromise<Thumbnail> {
        if let cached = cachedThumbnail(for: asset.id) {
            return Promise(fulfilled: cached)
        }
        let side = self.side
        let promise = source.loadData(for: asset)
            .flatMap(on: .render) { [weak self] data -> GalleryPromise<Thumbnail> in
                guard let self = self else { return Promise(with: .cancelled) }
                return self.render(data, id: asset.id, side: side)
            }
            .map(on: bookkeeping) { [weak self] thumbnail -> Thumbnail in
                self?.store(thumbnail)
                return thumbnail
            }
        lock.lock()
        inFlight[asset.id] = promise.cancellable
        lock.unlock()
        return promise
    }

    /// The thumbnail, or the placeholder when rendering takes longer than `deadline`.
    public func thumbnail(for asset: Asset, deadline: TimeInterval) -> GalleryPromise<Thumbnail> {
        let placeholder = self.placeholder
        return thumbnail(for: asset)
            .timeout(on: .utility, delay: deadline)
            .flatMapError(on: .immediate) { error -> GalleryPromise<Thumbnail> in
                switch error {
                case .timedOut: return placeholder.promise
                case .rejected(let error): return Promise(rejected: error)
                }
            }
    }

    /// Thumbnails of a page of the grid; an asset that fails is left out.
    public func thumbnails(for assets: [Asset]) -> Guaranteed<[Thumbnail]> {
        return settled(assets.map { thumbnail(for: $0) })
    }

    /// Asks the render of `id` to stop (the cell scrolled away).
    public func cancelRender(of id: String) {
        lock.lock()
        let cancellable = inFlight.removeValue(forKey: id)
        lock.unlock()
        cancellable?.requestCancel()
    }

    public func purge() {
        lock.lock()
        cache.removeAll()
        lock.unlock()
    }

    /// Downsamples `data` in rows, stopping when asked to cancel.
    func render(_ data: Data, id: String, side: Int) -> GalleryPromise<Thumbnail> {
        return Promise(on: .render) { resolver in
            guard !data.isEmpty else {
                resolver.reject(with: .decodeFailed(id))
                return
            }
            var checksum = 0
            for (row, byte) in data.enumerated() {
                if row % 64 == 0 && resolver.hasRequestedCancel {
                    resolver.cancel()
                    return
                }
                checksum = checksum &+ Int(byte)
            }
            resolver.fulfill(with: Thumbnail(assetID: id, side: side, bytes: side * side + checksum % 7))
        }
    }

    private func store(_ thumbnail: Thumbnail) {
        lock.lock()
        cache[thumbnail.assetID] = thumbnail
        renderCount += 1
        inFlight[thumbnail.assetID] = nil
        lock.unlock()
    }
}

/// The global actor that owns the batch renderer's bookkeeping.
@globalActor
public actor RenderActor {
    public static let shared = RenderActor()
}

/// Renders the large previews of the detail screen, one batch at a time. Its counters live on
/// `RenderActor`.
@RenderActor
public final class PreviewRenderer {
    public private(set) var renderedIDs: [String] = []
    public private(set) var failures = 0
    private var inFlight: [String: GalleryPromise<Thumbnail>] = [:]
    private let side: Int

    public nonisolated init(side: Int = 1024) {
        self.side = side
    }

    /// The preview of `asset`; a second request while one is in flight shares it.
    public func preview(of asset: Asset) -> GalleryPromise<Thumbnail> {
        if let pending = inFlight[asset.id] {
            return pending
        }
        let side = self.side
        let promise = GalleryPromise<Thumbnail>(on: .render) { resolver in
            guard asset.width > 0, asset.height > 0 else {
                resolver.reject(with: .decodeFailed(asset.id))
                return
            }
            let scale = Double(side) / Double(max(asset.width, asset.height))
            resolver.fulfill(with: Thumbnail(assetID: asset.id, side: side, bytes: Int(Double(asset.width * asset.height) * scale)))
        }
        inFlight[asset.id] = promise
        promise.then { thumbnail in
            self.renderedIDs.append(thumbnail.assetID)
        }.catch { _ in
            self.failures += 1
        }.always { _ in
            self.inFlight[asset.id] = nil
        }
        return promise
    }

    /// Previews of several assets, in order.
    public func previews(of assets: [Asset]) -> GalleryPromise<[Thumbnail]> {
        return when(fulfilled: assets.map { preview(of: $0) })
    }
}
