import Foundation
import Tomorrowland

/// The app's key-value backend (merchant directory, user settings, feature flags).
public protocol RecordFetching: Sendable {
    /// The raw JSON of one record.
    func fetchRecord(kind: String, id: String) -> StdPromise<Data>
}

public struct MerchantInfo: Hashable, Codable, Sendable {
    public var id: String
    public var displayName: String
    public var category: Category

    public init(id: String, displayName: String, category: Category) {
        self.id = id
        self.displayName = displayName
        self.category = category
    }
}

extension RecordFetching {
    /// Fetches and decodes one record of any type; its kind is the type's name.
    public func fetch<T: Decodable & Sendable>(_ type: T.Type, id: String) -> StdPromise<T> {
        return fetchRecord(kind: String(describing: T.self), id: id)
            .tryMap(on: .utility) { data in
                try JSONDecoder().decode(T.self, from: data)
            }
    }

    /// Fetches several records of one type concurrently, in the order of `ids`.
    public func fetchAll<T: Decodable & Sendable>(_ type: T.Type, ids: [String]) -> StdPromise<[T]> {
        return when(fulfilled: ids.map { fetch(type, id: $0) })
    }

    /// The merchant for a payee, or `nil` when the directory does not know it.
    public func merchant(named payee: String) -> Promise<MerchantInfo?, NoError> {
        let id = payee.lowercased().replacingOccurrences(of: " ", with: "-")
        return fetch(MerchantInfo.self, id: id)
            .map(on: .immediate) { Optional($0) }
            .recover(on: .immediate) { _ in nil }
    }
}
