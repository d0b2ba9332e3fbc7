import Foundation
import Tomorrowland

/// The user's albums. An actor: the sidebar, the importer and the share extension all edit it.
public actor AlbumStore {
    private var albums: [String: Album] = [:]
    public private(set) var changeCount = 0

    public init() {}

    /// Creates an empty album; fails if the name is taken.
    public func create(_ name: String) -> GalleryPromise<Album> {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            return Promise(rejected: .invalidEdit("empty album name"))
        }
        guard albums[trimmed] == nil else {
            return Promise(rejected: .invalidEdit("album \(trimmed) exists"))
        }
        let album = Album(name: trimmed)
        albums[trimmed] = album
        changeCount += 1
        return Promise(fulfilled: album)
    }

    /// Adds assets to an album, keeping the order and skipping duplicates.
    public func add(_ ids: [String], to name: String) -> GalleryPromise<Album> {
        guard var album = albums[name] else {
            return Promise(rejected: .notFound(name))
        }
        for id in ids where !album.assetIDs.contains(id) {
            album.assetIDs.append(id)
        }
        albums[name] = album
        changeCount += 1
        return Promise(fulfilled: album)
    }

    func lookup(_ name: String) -> Album? {
        albums[name]
    }

    /// The album called `name`, for callers outside the actor that cannot await.
    public nonisolated func album(named name: String) -> GalleryPromise<Album> {
        return Promise(on: .utility) { resolver in
            Task {
                if let album = await self.lookup(name) {
                    resolver.fulfill(with: album)
                } else {
                    resolver.reject(with: .notFound(name))
                }
            }
        }
    }

    /// The cover of an album: the thumbnail of its first asset.
    public func cover(of name: String, assets: [String: Asset], thumbnails: ThumbnailService) -> GalleryPromise<Thumbnail> {
        guard let album = albums[name], let first = album.assetIDs.first, let asset = assets[first] else {
            return Promise(rejected: .notFound("cover of \(name)"))
        }
        return thumbnails.thumbnail(for: asset)
    }
}
