import Foundation
import Tomorrowland

/// Finds faces in an asset.
public protocol FaceDetector {
    func detectFaces(in asset: Asset) -> GalleryPromise<[FaceTag]>
}

/// The on-device detector: quick, coarse. Each face's confidence comes from `model`.
public struct QuickFaceDetector: FaceDetector {
    public var model: [String: [Double]]

    public init(model: [String: [Double]]) {
        self.model = model
    }

    public func detectFaces(in asset: Asset) -> GalleryPromise<[FaceTag]> {
        let scores = model[asset.id] ?? []
        return Promise(on: .userInitiated) { resolver in
            resolver.fulfill(with: scores.map { FaceTag(assetID: asset.id, person: nil, confidence: $0) })
        }
    }
}

/// Detection done by a server; slow, finds more. Cancelling the promise cancels the request.
public final class ServerFaceDetector: FaceDetector {
    private let transport: CloudTransport

    public init(transport: CloudTransport) {
        self.transport = transport
    }

    public func detectFaces(in asset: Asset) -> GalleryPromise<[FaceTag]> {
        let transport = self.transport
        return GalleryPromise<Data>(on: .utility) { resolver in
            let request = transport.get("faces/\(asset.id)") { data, error in
                if let data = data {
                    resolver.fulfill(with: data)
                } else {
                    resolver.reject(with: GalleryError(error ?? GalleryError.transport("empty response")))
                }
            }
            resolver.onRequestCancel(on: .immediate) { resolver in
                request.cancel()
                resolver.cancel()
            }
        }
        .map(on: .utility) { data in
            let scores = String(decoding: data, as: UTF8.self).split(separator: ",").compactMap { Double($0) }
            return scores.map { FaceTag(assetID: asset.id, person: nil, confidence: $0) }
        }
    }
}

/// Tags people in the library. Owned by the people screen; not thread-safe (its state is
/// written from `.main` callbacks only).
public final class FaceTagger {
    public private(set) var tags: [String: [FaceTag]] = [:]
    public var people: [Int: String] = [:]
    public var minimumConfidence = 0.5
    private let detectors: [FaceDetector]
    /// Invalidated when the people screen goes away: stops both the callbacks and the work.
    private let token = PromiseInvalidationToken()

    public init(detectors: [FaceDetector]) {
        self.detectors = detectors
    }

    /// Faces in `asset`, from whichever detector answers first.
    public func detect(in asset: Asset) -> GalleryPromise<[FaceTag]> {
        guard !detectors.isEmpty else {
            return Promise(rejected: .notFound("face detector"))
        }
        return when(first: detectors.map { $0.detectFaces(in: asset) }, cancelRemaining: true)
    }

    /// Detects and names the faces of `asset`, and records them.
    public func tag(_ asset: Asset) -> TokenPromise<[FaceTag], GalleryError> {
        let people = self.people
        let minimum = minimumConfidence
        return detect(in: asset)
            .withToken(token)
            .map(on: .utility) { faces -> [FaceTag] in
                faces.enumerated().compactMap { index, face in
                    guard face.confidence >= minimum else { return nil }
                    var named = face
                    named.person = people[index]
                    return named
                }
            }
            .then(on: .main) { [weak self] faces in
                self?.tags[asset.id] = faces
            }
    }

    /// Tags every asset; stops at the first failure.
    public func tagAll(_ assets: [Asset]) -> GalleryPromise<Int> {
        let promises = assets.map { tag($0).inner }
        return when(fulfilled: promises, cancelOnFailure: true)
            .map(on: .immediate) { results in results.reduce(0) { $0 + $1.count } }
            .requestCancelOnInvalidate(token)
    }

    /// The people screen went away: ignore every result still to come, and stop the work.
    public func stop() {
        token.invalidate()
    }
}
