import Foundation
import Tomorrowland

/// The old completion-handler downloader for the agency's static CSV feed. Still used by the importer.
public final class LegacyFeedDownloader: @unchecked Sendable {
    public var payload = "stop_id,stop_name\nS1,Central Station\nS2,Market Street"
    public var failure: Error?
    public var latency: TimeInterval = 0.01
    private let lock = NSLock()
    private var _downloads = 0

    public init() {}

    public var downloads: Int { lock.lock(); defer { lock.unlock() }; return _downloads }

    public func download(path: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        lock.lock(); _downloads += 1; lock.unlock()
        let payload = self.payload
        let failure = self.failure
        TransitQueues.network.asyncAfter(deadline: .now() + latency) {
            completion(failure == nil ? payload : nil, failure)
        }
    }
}

public struct FeedRow: Equatable, Sendable {
    public let id: String
    public let name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

public enum FeedFormatError: Error, Equatable {
    case missingHeader
    case badRow(line: Int)
}

/// Imports the static feed: download (callback API), parse on the import operation queue.
public final class FeedImporter: @unchecked Sendable {
    private let downloader: LegacyFeedDownloader
    public let importQueue: OperationQueue
    /// Where each parse ran (the operation queue's name), for diagnostics.
    public let trace = EventLog()

    public init(downloader: LegacyFeedDownloader) {
        self.downloader = downloader
        importQueue = OperationQueue()
        importQueue.name = "transit.import"
        importQueue.maxConcurrentOperationCount = 1
    }

    /// The raw feed text.
    public func download(path: String) -> StdPromise<String> {
        let downloader = self.downloader
        return StdPromise<String>(on: .immediate) { resolver in
            downloader.download(path: path, completion: resolver.handleCallback())
        }
    }

    /// The feed's rows; a malformed feed rejects with `FeedFormatError`.
    public func importStops(path: String) -> StdPromise<[FeedRow]> {
        download(path: path)
            .tryMap(on: .operationQueue(importQueue)) { [trace] text -> [FeedRow] in
                trace.append("parse@\(OperationQueue.current?.name ?? "unnamed")")
                return try FeedImporter.parse(text)
            }
    }

    /// Like `importStops`, but a failed download is tried once more after `retryDelay` seconds.
    public func importStops(path: String, retryDelay: TimeInterval) -> StdPromise<[FeedRow]> {
        importStops(path: path)
            .tryFlatMapError(on: .immediate) { [weak self] error -> StdPromise<[FeedRow]> in
                guard let self = self, !(error is FeedFormatError) else { throw error }
                return Promise<Void, NoError>(on: .utility, fulfilled: (), after: retryDelay).upcast
                    .flatMap(on: .immediate) { self.importStops(path: path) }
            }
    }

    /// The number of rows imported for the offline cache. The import runs to its end even when the
    /// caller loses interest.
    public func backgroundImport(path: String) -> StdPromise<Int> {
        importStops(path: path)
            .ignoringCancel()
            .map(on: .utility) { $0.count }
    }

    /// The rows, with the app's error type.
    public func importedStops(path: String) -> TransitPromise<[FeedRow]> {
        importStops(path: path)
            .mapError(on: .immediate) { error -> TransitError in
                if let error = error as? TransitError { return error }
                if let error = error as? FeedFormatError { return .decoding("\(error)") }
                return .server(status: 0)
            }
    }

    static func parse(_ text: String) throws -> [FeedRow] {
        var lines = text.split(separator: "\n").map(String.init)
        guard lines.first == "stop_id,stop_name" else { throw FeedFormatError.missingHeader }
        lines.removeFirst()
        return try lines.enumerated().map { offset, line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 2, !fields[0].isEmpty else { throw FeedFormatError.badRow(line: offset + 2) }
            return FeedRow(id: fields[0], name: fields[1])
        }
    }
}
