import Foundation
import GalleryCore
import GalleryUpload
import Tomorrowland

/// The state behind the gallery grid: imports, thumbnails, sharing and upload progress.
@MainActor
public final class GalleryViewModel {
    public private(set) var isLoading = false
    public private(set) var summary: ImportSummary?
    public private(set) var thumbnails: [String: Thumbnail] = [:]
    public private(set) var errorMessage: String?
    public private(set) var sharedLinks: [ShareLink] = []
    public private(set) var statusLine = ""
    private let importer: ImportService
    private let thumbnailService: ThumbnailService
    private let sharing: ShareService
    /// Invalidated when the screen goes away; every callback below is registered with it.
    private let token = PromiseInvalidationToken()
    /// Where results are delivered; the grid reads them on the main thread.
    private let delivery: PromiseContext = .main
    private var currentShare: PromiseCancellable?

    public init(importer: ImportService, thumbnails: ThumbnailService, sharing: ShareService) {
        self.importer = importer
        self.thumbnailService = thumbnails
        self.sharing = sharing
    }

    /// Imports from every source; the spinner shows until it is done.
    public func reload() -> GalleryPromise<ImportSummary> {
        isLoading = true
        errorMessage = nil
        return importer.importAll()
            .then(on: .main, token: token) { [weak self] summary in
                self?.summary = summary
                self?.statusLine = "\(summary.imported) new photos"
            }
            .catch(on: .main, token: token) { [weak self] error in
                self?.errorMessage = "\(error)"
            }
            .always(on: .main) { [weak self] _ in
                self?.isLoading = false
            }
    }

    /// Loads the thumbnails of the visible cells.
    public func loadThumbnails(for assets: [Asset]) -> Guaranteed<Int> {
        return thumbnailService.thumbnails(for: assets)
            .map(on: delivery, token: token) { [weak self] thumbnails -> Int in
                for thumbnail in thumbnails {
                    self?.thumbnails[thumbnail.assetID] = thumbnail
                }
                return thumbnails.count
            }
    }

    /// Shares an album; a second share cancels the first.
    public func share(_ album: Album, with recipients: [String]) -> GalleryPromise<ShareLink> {
        currentShare?.requestCancel()
        statusLine = "Sharing \(album.name)…"
        let promise = sharing.share(album, with: recipients, within: 120)
        currentShare = promise.cancellable
        return promise
            .then(on: .main, token: token) { [weak self] link in
                self?.sharedLinks.append(link)
                self?.statusLine = "Shared \(album.name)"
            }
            .catch(on: .main) { [weak self] error in
                self?.statusLine = "Could not share \(album.name): \(error)"
            }
            .onCancel(on: .main) { [weak self] in
                self?.statusLine = "Sharing cancelled"
            }
    }

    /// The screen went away.
    public func tearDown() {
        token.invalidate()
        currentShare?.requestCancel()
    }
}
