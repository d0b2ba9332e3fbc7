// `convert-body`: a `mapError` on a named context becomes `throw await
// withTaskExecutorPreference(…) { @concurrent in … }`. `throw` gives the closure's value no type
// but `any Error`, so an implicit member it returns (`case .timedOut: return .timedOut`, Fleet's
// `speed(for:within:)`) does not resolve; 1.x's closure had its type from its declaration
// (`error -> FleetError in`) or from the function's promise. That type is spelled on the closure.

import Foundation

extension Writer {
    /// `call` (the text `run` made for a handler on a context's executor) with its closure typed
    /// `() async -> type` (`async throws` when the call is `try await`); unchanged when it is no
    /// such closure.
    static func typingExecutorClosure(_ call: String, as type: String) -> String {
        let untyped = "{ @concurrent in\n"
        guard call.hasPrefix("await withTaskExecutorPreference(") || call.hasPrefix("try await withTaskExecutorPreference("),
              let range = call.range(of: untyped) else { return call }
        let effects = call.hasPrefix("try ") ? "async throws" : "async"
        return call.replacingCharacters(in: range, with: "{ @concurrent () \(effects) -> \(type) in\n")
    }
}
