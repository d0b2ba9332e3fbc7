// Stage 1 of the migration: callback code, as an old codebase has it.
//
// `LegacyFileReader` reads and checksums a file on its own queue and reports through a
// completion handler. Nothing in this file knows about promises or async/await; stages 2 and 3
// wrap it without changing it.

import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What indexing learned about one file.
struct FileDigest: Sendable {
    /// The path, relative to the indexed directory.
    var path: String
    var size: Int
    var lines: Int
    /// FNV-1a, 64 bits, of the file's bytes.
    var checksum: UInt64
}

/// Why a legacy read failed.
enum LegacyReadError: Error, Equatable, CustomStringConvertible {
    /// `open` or `read` failed with `errno`.
    case unreadable(path: String, reason: String)
    /// The request was cancelled before the file was read to the end.
    case cancelled

    var description: String {
        switch self {
        case let .unreadable(path, reason): return "cannot read \(path): \(reason)"
        case .cancelled: return "the read was cancelled"
        }
    }
}

/// A read in progress; `cancel()` makes it stop at the next chunk and complete with
/// `LegacyReadError.cancelled`.
final class LegacyReadRequest: Sendable {
    private let cancelled = Atomic<Bool>(false)

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool {
        cancelled.load(ordering: .relaxed)
    }
}

/// Reads and checksums files on a concurrent queue, calling back with `(digest, nil)` or
/// `(nil, error)`: the callback shape `Promise.Resolver.handleCallback()` expects.
final class LegacyFileReader: Sendable {
    private let queue = DispatchQueue(label: "LegacyFileReader", attributes: .concurrent)
    private let chunkSize: Int
    private let pauseBetweenChunks: TimeInterval

    /// - Parameter slow: simulate a slow disk (small chunks, a pause between them), so that
    ///   there is time to press Ctrl-C or to hit the timeout.
    init(slow: Bool) {
        chunkSize = slow ? 512 : 64 * 1024
        pauseBetweenChunks = slow ? 0.06 : 0
    }

    /// Reads the file at `root/path` in chunks on the reader's queue, then calls `completion`
    /// there. The returned request can cancel the read.
    @discardableResult
    func checksumFile(atPath path: String, under root: String, completion: @escaping @Sendable (FileDigest?, Error?) -> Void) -> LegacyReadRequest {
        let request = LegacyReadRequest()
        queue.async {
            do {
                completion(try self.digest(path, under: root, request: request), nil)
            } catch {
                completion(nil, error)
            }
        }
        return request
    }

    private func digest(_ path: String, under root: String, request: LegacyReadRequest) throws -> FileDigest {
        let fd = open(root + "/" + path, O_RDONLY)
        guard fd >= 0 else { throw LegacyReadError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var digest = FileDigest(path: path, size: 0, lines: 0, checksum: 0xcbf2_9ce4_8422_2325)
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            if request.isCancelled { throw LegacyReadError.cancelled }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, chunkSize) }
            guard count >= 0 else { throw LegacyReadError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { return digest }
            for byte in buffer[..<count] {
                digest.checksum = (digest.checksum ^ UInt64(byte)) &* 0x100_0000_01b3
                if byte == UInt8(ascii: "\n") { digest.lines += 1 }
            }
            digest.size += count
            if pauseBetweenChunks > 0 { Thread.sleep(forTimeInterval: pauseBetweenChunks) }
        }
    }
}
