import Foundation
import Tomorrowland

/// Everything that can go wrong in the gallery, as the UI shows it.
public enum GalleryError: Error, Equatable, CustomStringConvertible {
    case notFound(String)
    case offline
    case permissionDenied
    case decodeFailed(String)
    case quotaExceeded(used: Int, limit: Int)
    case timedOut
    case invalidEdit(String)
    case transport(String)

    /// Maps any error of the lower layers onto a gallery error.
    public init(_ error: Swift.Error) {
        if let error = error as? GalleryError {
            self = error
        } else if let error = error as? PromiseTimeoutError<GalleryError> {
            switch error {
            case .timedOut: self = .timedOut
            case .rejected(let inner): self = inner
            }
        } else if error is PromiseTimeoutError<Swift.Error> {
            self = .timedOut
        } else {
            self = .transport(String(describing: error))
        }
    }

    public var description: String {
        switch self {
        case .notFound(let what): return "not found: \(what)"
        case .offline: return "offline"
        case .permissionDenied: return "permission denied"
        case .decodeFailed(let why): return "could not decode: \(why)"
        case .quotaExceeded(let used, let limit): return "quota exceeded (\(used)/\(limit))"
        case .timedOut: return "timed out"
        case .invalidEdit(let why): return "invalid edit: \(why)"
        case .transport(let why): return "transport: \(why)"
        }
    }
}

// The app's promise vocabulary. Every service returns one of these, so that the error type is
// spelled in one place.
public typealias GalleryPromise<T> = Promise<T, GalleryError>
public typealias GalleryResult<T> = PromiseResult<T, GalleryError>
public typealias GalleryResolver<T> = Promise<T, GalleryError>.Resolver
public typealias GalleryDelayedPromise<T> = DelayedPromise<T, GalleryError>
/// A promise that cannot fail (it can still be cancelled).
public typealias Guaranteed<T> = Promise<T, NoError>

/// The queues the gallery runs its background work on.
public enum GalleryQueues {
    /// Serial queue that owns the thumbnail renderer's scratch buffers.
    public static let render = DispatchQueue(label: "gallery.render", qos: .userInitiated)
    /// Serial queue for the on-disk index (SQLite in the app, a dictionary here).
    public static let database = DispatchQueue(label: "gallery.database")
    /// Key set on each of the queues above, so tests and assertions can tell where code runs.
    public static let key = DispatchSpecificKey<String>()

    static let configure: Void = {
        render.setSpecific(key: key, value: "render")
        database.setSpecific(key: key, value: "database")
    }()

    /// The label of the gallery queue the caller runs on, if any.
    public static var current: String? {
        _ = configure
        return DispatchQueue.getSpecific(key: key)
    }
}

extension PromiseContext {
    /// Callbacks that touch render buffers.
    public static let render: PromiseContext = {
        _ = GalleryQueues.configure
        return .queue(GalleryQueues.render)
    }()

    /// Callbacks that touch the index.
    public static let database: PromiseContext = {
        _ = GalleryQueues.configure
        return .queue(GalleryQueues.database)
    }()
}

/// A tiny logger that keeps its lines for the diagnostics screen.
public final class GalleryLog: @unchecked Sendable {
    // Safe to share: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    public static let shared = GalleryLog()

    public init() {}

    public func log(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    public var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
