import Foundation

/// Where an asset came from.
public enum AssetOrigin: String, Equatable, Codable, Sendable {
    case cameraRoll
    case cloud
}

/// One photo or video in the library.
public struct Asset: Equatable, Hashable, Codable, Sendable {
    public var id: String
    public var width: Int
    public var height: Int
    public var origin: AssetOrigin
    public var isFavorite: Bool

    public init(id: String, width: Int = 4032, height: Int = 3024, origin: AssetOrigin = .cameraRoll, isFavorite: Bool = false) {
        self.id = id
        self.width = width
        self.height = height
        self.origin = origin
        self.isFavorite = isFavorite
    }
}

/// A rendered preview of an asset.
public struct Thumbnail: Equatable, Sendable {
    public var assetID: String
    public var side: Int
    public var bytes: Int

    public init(assetID: String, side: Int, bytes: Int) {
        self.assetID = assetID
        self.side = side
        self.bytes = bytes
    }
}

/// A named group of assets.
public struct Album: Equatable, Sendable {
    public var name: String
    public var assetIDs: [String]

    public init(name: String, assetIDs: [String] = []) {
        self.name = name
        self.assetIDs = assetIDs
    }
}

/// A face found in an asset, with the person it was tagged as (if any).
public struct FaceTag: Equatable, Sendable {
    public var assetID: String
    public var person: String?
    public var confidence: Double

    public init(assetID: String, person: String?, confidence: Double) {
        self.assetID = assetID
        self.person = person
        self.confidence = confidence
    }
}

/// One non-destructive edit.
public enum EditOperation: Equatable, Sendable {
    case crop(width: Int, height: Int)
    case rotate(degrees: Int)
    case filter(String)
}
