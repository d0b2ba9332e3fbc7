// ClosureChildBox: a child whose operator is a closure (operators off the hot paths).

/// A child whose operator is a closure from the parent's result to a `Step`.
@usableFromInline
final class ClosureChildBox<ParentValue, ParentError, Value, Error>:
    ChildBox<ParentValue, ParentError, Value, Error, StoredCallback<PromiseResult<ParentValue, ParentError>, Step<Value, Error>>>,
    @unchecked Sendable
{
    init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        trigger: Trigger,
        kind: ChildKind,
        isolation: (any Actor)?,
        body: @escaping (PromiseResult<ParentValue, ParentError>) -> Step<Value, Error>
    ) {
        super.init(
            context: context, token: token, trigger: trigger, kind: kind, isolation: isolation, callback: StoredCallback(body)
        ) { child, upstream, phase in
            let box = unsafeDowncast(child, to: ClosureChildBox<ParentValue, ParentError, Value, Error>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.callback.take()(result) } }
        }
    }
}
