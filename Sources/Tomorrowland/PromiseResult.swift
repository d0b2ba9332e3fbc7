// PromiseResult: the outcome of a promise.

/// The result of a resolved promise: a value, an error, or cancellation.
///
/// Conforms to `Equatable`, `Hashable`, `Encodable` and `Decodable` when its `Value` and
/// `Error` do, and to `Sendable` when both are `Sendable`.
public enum PromiseResult<Value, Error> {
    /// The promise was fulfilled with a value.
    case value(Value)
    /// The promise was rejected with an error.
    case error(Error)
    /// The promise was cancelled.
    case cancelled

    /// The value, if the promise was fulfilled.
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The error, if the promise was rejected.
    public var error: Error? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// Whether the promise was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// Maps the value of a fulfilled result; errors and cancellation pass through.
    ///
    /// - Parameter transform: Called synchronously with the value, only for `.value`; an
    ///   error it throws is rethrown.
    /// - Returns: `.value` of what `transform` returns, or this result's error or
    ///   cancellation.
    public func map<T>(_ transform: (Value) throws -> T) rethrows -> PromiseResult<T, Error> {
        switch self {
        case .value(let value): return .value(try transform(value))
        case .error(let error): return .error(error)
        case .cancelled: return .cancelled
        }
    }

    /// Maps the error of a rejected result; values and cancellation pass through.
    ///
    /// - Parameter transform: Called synchronously with the error, only for `.error`; an
    ///   error it throws is rethrown.
    /// - Returns: `.error` of what `transform` returns, or this result's value or
    ///   cancellation.
    public func mapError<E>(_ transform: (Error) throws -> E) rethrows -> PromiseResult<Value, E> {
        switch self {
        case .value(let value): return .value(value)
        case .error(let error): return .error(try transform(error))
        case .cancelled: return .cancelled
        }
    }

    /// Replaces a fulfilled result with the result `transform` returns.
    ///
    /// - Parameter transform: Called synchronously with the value, only for `.value`; an
    ///   error it throws is rethrown.
    /// - Returns: What `transform` returns (any case), or this result's error or
    ///   cancellation.
    public func flatMap<T>(_ transform: (Value) throws -> PromiseResult<T, Error>) rethrows -> PromiseResult<T, Error> {
        switch self {
        case .value(let value): return try transform(value)
        case .error(let error): return .error(error)
        case .cancelled: return .cancelled
        }
    }

    /// Replaces a rejected result with the result `transform` returns.
    ///
    /// - Parameter transform: Called synchronously with the error, only for `.error`; an
    ///   error it throws is rethrown.
    /// - Returns: What `transform` returns (any case), or this result's value or
    ///   cancellation.
    public func flatMapError<E>(_ transform: (Error) throws -> PromiseResult<Value, E>) rethrows -> PromiseResult<Value, E> {
        switch self {
        case .value(let value): return .value(value)
        case .error(let error): return try transform(error)
        case .cancelled: return .cancelled
        }
    }
}

extension PromiseResult: Sendable where Value: Sendable, Error: Sendable {}

extension PromiseResult where Error: Swift.Error {
    /// Creates a result from a `Swift.Result`.
    public init(_ result: Result<Value, Error>) {
        switch result {
        case .success(let value): self = .value(value)
        case .failure(let error): self = .error(error)
        }
    }
}

extension PromiseResult: Equatable where Value: Equatable, Error: Equatable {
    /// Two results are equal when they are the same case with equal payloads.
    public static func == (lhs: PromiseResult, rhs: PromiseResult) -> Bool {
        switch (lhs, rhs) {
        case let (.value(a), .value(b)): return a == b
        case let (.error(a), .error(b)): return a == b
        case (.cancelled, .cancelled): return true
        default: return false
        }
    }

    /// The negation of `==`.
    public static func != (lhs: PromiseResult, rhs: PromiseResult) -> Bool { !(lhs == rhs) }
}

extension PromiseResult: Hashable where Value: Hashable, Error: Hashable {
    /// Hashes the case and its payload.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .value(let value): hasher.combine(0); hasher.combine(value)
        case .error(let error): hasher.combine(1); hasher.combine(error)
        case .cancelled: hasher.combine(2)
        }
    }
}

private enum PromiseResultCodingKeys: String, CodingKey {
    case value, error
}

extension PromiseResult: Encodable where Value: Encodable, Error: Encodable {
    /// Encodes a keyed container with both keys `value` and `error`; the unused ones are
    /// explicit `nil` (cancelled: both `nil`), as Tomorrowland 1.x does.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: PromiseResultCodingKeys.self)
        switch self {
        case .value(let value):
            try container.encode(value, forKey: .value)
            try container.encodeNil(forKey: .error)
        case .error(let error):
            try container.encodeNil(forKey: .value)
            try container.encode(error, forKey: .error)
        case .cancelled:
            try container.encodeNil(forKey: .value)
            try container.encodeNil(forKey: .error)
        }
    }
}

extension PromiseResult: Decodable where Value: Decodable, Error: Decodable {
    /// Decodes the format written by `encode(to:)`; both keys `nil` (or absent) is `.cancelled`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: PromiseResultCodingKeys.self)
        if let value = try container.decodeIfPresent(Value.self, forKey: .value) {
            self = .value(value)
        } else if let error = try container.decodeIfPresent(Error.self, forKey: .error) {
            self = .error(error)
        } else {
            self = .cancelled
        }
    }
}
