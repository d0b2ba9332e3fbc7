// One real suspension after an await, whatever it gives: the order Tomorrowland 1.x kept for a
// callback on a context that is not `.immediate`.

extension Task where Success == Never, Failure == Never {
    /// Awaits `operation`, then suspends once (`Task.yield()`) before returning its value or
    /// throwing its error.
    ///
    /// Tomorrowland 1.x ran a callback on a context that is not `.immediate` (no context, `.auto`,
    /// `.main`, a queue) after the call that registered it had returned, even when the promise
    /// had already resolved: the callback was enqueued. Awaiting an already-resolved promise does
    /// not suspend, so in a function that a promise wrapper starts at once
    /// (`Promise(on: .immediate) { try await f() }`) the code after that await would run during
    /// the wrapper's call, before the caller's next statement. `tomorrowland-migrate convert-body`
    /// writes `try await Task.yieldingAfter { try await first() }` for the first await of such a
    /// chain, so that the code 1.x ran in callbacks still runs after the call returns:
    ///
    /// - On an actor or the main actor, the rest of the function is enqueued on that actor,
    ///   which the synchronous caller holds until it returns: the caller's statements come first.
    /// - In nonisolated code, the rest resumes on the global concurrent executor, beside the
    ///   caller, as 1.x's callback ran on its queue beside the caller.
    ///
    /// The suspension comes on every path (a value, an error, a cancellation), so an error
    /// handler or a `defer` after it also runs after the call returns.
    ///
    /// **Isolation:** `operation` runs on the caller's isolation (`isolation`, the caller's
    /// actor: leave it out), and the function resumes there after the suspension.
    ///
    /// **Cost:** one enqueue and resume of the Task (see BENCHMARKS.md, "`yieldingAfter`").
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor (`#isolation`).
    ///   - operation: The await to make, typically an async function's call.
    /// - Returns: What `operation` returned.
    /// - Throws: What `operation` threw, after the suspension.
    @inlinable
    public static func yieldingAfter<T, E: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(E) -> T
    ) async throws(E) -> T {
        let result: Result<T, E>
        do {
            result = .success(try await operation())
        } catch {
            result = .failure(error)
        }
        await Task.yield()
        return try result.get()
    }
}
