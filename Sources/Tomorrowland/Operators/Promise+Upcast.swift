// upcast and Swift.Result: a promise with its error type erased, or made from a Result.

extension Promise where Error: Swift.Error {
    /// The same promise with its error type erased to `Swift.Error`.
    public var upcast: Promise<Value, Swift.Error> {
        if let same = self as? Promise<Value, Swift.Error> { return same }
        return register(on: .immediate, token: nil, trigger: .all, kind: .transformer) { result in
            .resolve(result.mapError { $0 as Swift.Error })
        }
    }

    /// Creates an already-resolved promise from a `Swift.Result`.
    public init(with result: Result<Value, Error>) {
        self.init(with: PromiseResult(result))
    }
}

extension Promise where Error == NoError {
    /// The same promise with the (impossible) error type `Swift.Error`.
    public var upcast: Promise<Value, Swift.Error> {
        register(on: .immediate, token: nil, trigger: .all, kind: .transformer) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}
