import Foundation
import Tomorrowland

/// What one import run did.
public struct ImportSummary: Equatable, Sendable {
    public var imported: Int
    public var skipped: Int
    public var failedSources: [String]

    public init(imported: Int, skipped: Int, failedSources: [String]) {
        self.imported = imported
        self.skipped = skipped
        self.failedSources = failedSources
    }
}

/// Imports assets from every configured source into the library. Not thread-safe: the import
/// screen owns it and calls it from the main thread; its callbacks come back on `.main`.
public final class ImportService {
    public private(set) var importedIDs: Set<String> = []
    public private(set) var isImporting = false
    public private(set) var runs = 0
    public private(set) var lastSummary: ImportSummary?
    private let sources: [AssetSource]
    private let queue: OperationQueue

    public init(sources: [AssetSource], maxConcurrentDownloads: Int = 2) {
        self.sources = sources
        self.queue = OperationQueue()
        queue.name = "gallery.import"
        queue.maxConcurrentOperationCount = maxConcurrentDownloads
    }

    /// Lists every source and records the assets it has not seen yet. A source that fails is
    /// reported in the summary; the others still import.
    public func importAll() -> GalleryPromise<ImportSummary> {
        isImporting = true
        runs += 1
        GalleryLog.shared.log("import #\(runs): \(sources.count) sources")
        let listings = sources.map { source in
            source.listAssets()
                .map(on: .immediate) { assets -> (String, [Asset]?) in (source.name, assets) }
                .flatMapError(on: .immediate) { error -> GalleryPromise<(String, [Asset]?)> in
                    if error == .permissionDenied || error == .offline {
                        return Promise(fulfilled: (source.name, nil))
                    }
                    return Promise(rejected: error)
                }
        }
        return when(fulfilled: listings)
            .map(on: .main) { [weak self] listings -> ImportSummary in
                var summary = ImportSummary(imported: 0, skipped: 0, failedSources: [])
                guard let self = self else { return summary }
                for (name, assets) in listings {
                    guard let assets = assets else {
                        summary.failedSources.append(name)
                        continue
                    }
                    for asset in assets {
                        if self.importedIDs.insert(asset.id).inserted {
                            summary.imported += 1
                        } else {
                            summary.skipped += 1
                        }
                    }
                }
                self.lastSummary = summary
                return summary
            }
            .always(on: .main) { [weak self] _ in
                self?.isImporting = false
            }
    }

    /// Downloads the originals of `assets` from `source`, at most `maxConcurrentDownloads` at a
    /// time, and gives the byte count of each.
    public func download(_ assets: [Asset], from source: AssetSource) -> GalleryPromise<[String: Int]> {
        let operations = assets.map { asset in
            PromiseOperation<(String, Int), GalleryError>(on: .utility) { resolver in
                let load = source.loadData(for: asset)
                resolver.onRequestCancel(on: .immediate) { _ in
                    load.requestCancel()
                }
                resolver.resolve(with: load.map(on: .immediate) { data in (asset.id, data.count) })
            }
        }
        queue.addOperations(operations, waitUntilFinished: false)
        return when(fulfilled: operations.map { $0.promise }, cancelOnFailure: true)
            .map(on: .immediate) { pairs in
                Dictionary(pairs, uniquingKeysWith: { first, _ in first })
            }
    }

    /// Stops every download that has not started yet.
    public func cancelDownloads() {
        queue.cancelAllOperations()
    }
}
