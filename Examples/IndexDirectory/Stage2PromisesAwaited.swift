// Stage 2 of the migration: the callback API wrapped in promises (on `.utility`, with
// `handleCallback` and `onRequestCancel`), and new async code that awaits those promises.

import Foundation
import TomorrowlandAsync

extension LegacyFileReader {
    /// The legacy read as a promise. The handler runs on `.utility`; a cancel request reaching
    /// the promise cancels the legacy request, whose `.cancelled` error cancels the promise.
    func checksum(atPath path: String, under root: String) -> StdPromise<FileDigest> {
        StdPromise(on: .utility) { resolver in
            let request = self.checksumFile(
                atPath: path, under: root,
                completion: resolver.handleCallback(isCancelError: { $0 as? LegacyReadError == .cancelled }))
            resolver.onRequestCancel(on: .immediate) { _ in request.cancel() }
        }
    }
}

/// The result of indexing a directory tree.
struct DirectoryIndex: Sendable {
    var files: [FileDigest]

    var totalBytes: Int { files.reduce(0) { $0 + $1.size } }
    var totalLines: Int { files.reduce(0) { $0 + $1.lines } }

    /// FNV-1a over every file's path and checksum, in path order: changes when any file does.
    var treeChecksum: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for file in files.sorted(by: { $0.path < $1.path }) {
            for byte in Array(file.path.utf8) + withUnsafeBytes(of: file.checksum.littleEndian, Array.init) {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return hash
    }
}

/// Why indexing failed, for the message on stderr.
enum IndexError: Error, CustomStringConvertible {
    case timedOut(path: String, seconds: Double)

    var description: String {
        switch self {
        case let .timedOut(path, seconds): return "timed out after \(seconds) s reading \(path)"
        }
    }
}

/// New async code: checksums `paths` through the promise API, `width` files at a time, and
/// aggregates the results. Cancelling the calling Task cancels every in-flight promise (each
/// awaiting child task is an observer of its promise), which cancels the legacy reads.
struct Indexer: Sendable {
    var root: String
    var reader: LegacyFileReader
    var timeout: Double
    var width = 8
    var progress: ProgressLine
    var inFlight: InFlightReads

    func index(_ paths: [String]) async throws -> DirectoryIndex {
        try await withThrowingTaskGroup(of: FileDigest.self) { group in
            var pending = paths.makeIterator()
            var digests: [FileDigest] = []
            for _ in 0..<width {
                guard let path = pending.next() else { break }
                group.addTask { try await digest(path) }
            }
            var bytes = 0
            while let file = try await group.next() {
                digests.append(file)
                bytes += file.size
                progress.update(done: digests.count, total: paths.count, bytes: bytes, current: file.path)
                if let path = pending.next() {
                    group.addTask { try await digest(path) }
                }
            }
            return DirectoryIndex(files: digests)
        }
    }

    /// Awaits one file's promise. A timeout becomes an `IndexError` that names the file.
    private func digest(_ path: String) async throws -> FileDigest {
        do {
            return try await checksumWithTimeout(path).value
        } catch is PromiseTimeoutError<Swift.Error> {
            throw IndexError.timedOut(path: path, seconds: timeout)
        }
    }

    /// Builds the promise chain in a synchronous function on purpose: no handle to the inner
    /// promise stays alive while the caller awaits, so a cancel request can travel up to it.
    private func checksumWithTimeout(_ path: String) -> StdPromise<FileDigest> {
        inFlight.started(path)
        return reader.checksum(atPath: path, under: root)
            .tap(on: .immediate) { [inFlight] result in inFlight.finished(path, cancelled: result.isCancelled) }
            .timeout(on: .utility, delay: timeout)
    }
}
