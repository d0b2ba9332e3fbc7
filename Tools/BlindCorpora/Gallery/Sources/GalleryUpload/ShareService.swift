import Foundation
import GalleryCore
import Tomorrowland

/// A link that lets other people see an album.
public struct ShareLink: Equatable, Sendable {
    public var album: String
    public var url: String
    public var recipients: [String]
}

/// Shares albums: uploads what is not uploaded yet, then asks the backend for a link. Not
/// thread-safe; the share sheet owns it.
public final class ShareService {
    private let uploads: UploadManager
    private let links: CloudAccountSource
    private let originals: (String) -> Data?
    public private(set) var shared: [String: ShareLink] = [:]
    public private(set) var attempts = 0
    /// Made on first use and reused: the backend's share settings don't change during a session.
    private lazy var settings = GalleryDelayedPromise<[String: String]>(on: .utility) { [links] resolver in
        resolver.resolve(with: links.fetch("share/settings").map(on: .immediate) { data in
            ["expiry": String(decoding: data, as: UTF8.self)]
        })
    }

    public init(uploads: UploadManager, links: CloudAccountSource, originals: @escaping (String) -> Data?) {
        self.uploads = uploads
        self.links = links
        self.originals = originals
    }

    /// Uploads the album's assets and creates its link.
    public func share(_ album: Album, with recipients: [String]) -> GalleryPromise<ShareLink> {
        attempts += 1
        guard !recipients.isEmpty else {
            return Promise(rejected: .invalidEdit("no recipients"))
        }
        var files: [String: Data] = [:]
        for id in album.assetIDs {
            guard let data = originals(id) else {
                return Promise(rejected: .notFound(id))
            }
            files[id] = data
        }
        let links = self.links
        return when(fulfilled: uploads.uploadAll(files), settings.promise)
            .flatMap(on: .utility) { receipts, settings -> GalleryPromise<ShareLink> in
                let expiry = settings["expiry"] ?? "never"
                return retrying(attempts: 3) {
                    links.fetch("share/\(album.name)?n=\(receipts.count)&expiry=\(expiry)")
                }
                .map(on: .immediate) { data in
                    ShareLink(album: album.name, url: String(decoding: data, as: UTF8.self), recipients: recipients)
                }
            }
            .tap(on: .main) { [weak self] result in
                if case .value(let link) = result {
                    self?.shared[album.name] = link
                }
            }
    }

    /// Shares the album, giving up (and cancelling the uploads) after `seconds`.
    public func share(_ album: Album, with recipients: [String], within seconds: TimeInterval) -> GalleryPromise<ShareLink> {
        return share(album, with: recipients)
            .timeout(on: .utility, delay: seconds)
            .mapError(on: .immediate) { error in
                switch error {
                case .timedOut: return GalleryError.timedOut
                case .rejected(let error): return error
                }
            }
    }
}
