// StdPromise: the name of a promise whose error type is `Swift.Error`.

/// A promise whose error type is `Swift.Error`.
public typealias StdPromise<Value> = Promise<Value, Swift.Error>
