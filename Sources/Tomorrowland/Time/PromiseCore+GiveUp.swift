// PromiseCore+GiveUp: a child that resolves on its own can give up its observer slot.
// Beside its one user, `timeout` (Promise+Timeout.swift); it calls two of PromiseCore's named
// events and touches no atomic itself.

extension PromiseCore {
    /// Resolves this promise through `resolve` and, if that won, gives up this promise's
    /// observer slot on its upstream: the upstream counts it as an observer that requested
    /// cancellation, so it can be auto-cancelled once its other observers agree (rule 5),
    /// but it is not cancelled directly. Used by `timeout` when it times out (rule 22).
    ///
    /// - Parameter resolve: resolves this promise; returns whether it won (first wins).
    final func resolveGivingUpUpstream(_ resolve: () -> Bool) {
        // Take the link first so that a concurrent cancel request cannot count it twice.
        let link = takeUpstream()
        guard resolve(), let up = link else { return }
        up.observerRequestedCancel()
    }
}
