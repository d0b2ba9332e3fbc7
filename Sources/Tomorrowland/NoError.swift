// NoError: the error type of promises that cannot fail.

/// An uninhabited error type for promises that can only be fulfilled or cancelled,
/// such as the result of `recover(on:token:_:)`.
public enum NoError: Hashable, Equatable, Codable, Sendable {
    /// Never called: there are no values of this type.
    public static func == (lhs: NoError, rhs: NoError) -> Bool {}

    /// Never called: there are no values of this type.
    public func hash(into hasher: inout Hasher) {}

    /// Always throws `DecodingError.dataCorrupted`: there is no value to decode.
    public init(from decoder: Decoder) throws {
        throw DecodingError.dataCorrupted(.init(
            codingPath: decoder.codingPath, debugDescription: "NoError cannot be decoded"))
    }

    /// Never called: there are no values of this type.
    public func encode(to encoder: Encoder) throws {}
}
