# Re-creates the edits of Benchmarks/experiments/no-seal.patch or plain-callbacks.patch in a
# checkout of the library, for when floor.sh reports that a patch no longer applies:
#   python3 Benchmarks/scripts/floor-patches.py no-seal && git diff -- Sources Benchmarks/Sources >Benchmarks/experiments/no-seal.patch && git checkout -- Sources Benchmarks/Sources
# (same for plain-callbacks). Each edit must match exactly once: an assertion says which did not.
import re, sys
which = sys.argv[1]
def edit(path, pairs):
    s = open(path).read()
    for a, b in pairs:
        n = len(re.findall(a, s))
        assert n == 1, (path, a, n)
        s = re.sub(a, b, s)
    open(path, 'w').write(s)
if which == "no-seal":
    edit('Sources/Tomorrowland/Promise.swift', [
        (r"\n    @usableFromInline let _seal: PromiseSeal\?\n", "\n"),
        (r"        _box = box\n        _seal = box\.currentState\.isResolved \? nil : PromiseSeal\(box\)\n",
         "        _box = box    // EXPERIMENT no-seal: every box is created sealed (PromiseState.initial)\n"),
    ])
    edit('Sources/Tomorrowland/State/PromiseState.swift', [
        (r"    /// A fresh pending promise with no observers, not sealed\.\n(.*)static (let|var) initial(.*)PromiseState\(raw: 0\)",
         r"    /// A fresh pending promise with no observers, sealed (EXPERIMENT no-seal: handles never block propagation).\n\1static \2 initial\3PromiseState(raw: 1 << 3 /* sealed */)"),
    ])
else:
    plain = "EXPERIMENT plain-callbacks"
    edit('Sources/Tomorrowland/Operators/Promise+Value.swift', [
        (r"(public func then\(on context: PromiseContext = \.auto, token: PromiseInvalidationToken\? = nil, )@_inheritActorContext (_ onSuccess: (?:__owned )?@escaping )@isolated\(any\) (@Sendable \(Value\) -> Void\) -> Promise<Value, Error> \{)",
         r"\1\2\3    // " + plain),
        (r"(public func map<U>\(on context: PromiseContext, token: PromiseInvalidationToken\? = nil, )@_inheritActorContext (_ onSuccess: (?:__owned )?@escaping )@isolated\(any\) (@Sendable \(Value\) -> U\) -> Promise<U, Error> \{)",
         r"\1\2\3    // " + plain),
        (r"(final class ThenBox<.*\n    @inlinable\n    init\(context: PromiseContext, token: PromiseInvalidationToken\?, callback: (?:__owned )?@escaping )@isolated\(any\) (@Sendable \(Value\) -> Void\) \{\n.*isolation: )callback\.isolation, callback: StoredVoidCallback\(isolated: callback\)",
         r"\1\2nil, callback: StoredVoidCallback(callback)"),
        (r"(final class MapBox<.*\n    @inlinable\n    init\(context: PromiseContext, token: PromiseInvalidationToken\?, callback: (?:__owned )?@escaping )@isolated\(any\) (@Sendable \(ParentValue\) -> Value\) \{\n.*isolation: )callback\.isolation, callback: StoredCallback\(isolated: (?:consume )?callback\)",
         r"\1\2nil, callback: StoredCallback(callback)"),
    ])
    edit('Sources/Tomorrowland/Invalidation/TokenPromise.swift', [
        (r"(public func then\(on context: PromiseContext = \.auto, )@_inheritActorContext (_ onSuccess: @escaping )@isolated\(any\) (@Sendable \(Value\) -> Void\) -> TokenPromise<Value, Error> \{)",
         r"\1\2\3    // " + plain),
        (r"(public func map<U>\(on context: PromiseContext, )@_inheritActorContext (_ onSuccess: @escaping )@isolated\(any\) (@Sendable \(Value\) -> U\) -> TokenPromise<U, Error> \{)",
         r"\1\2\3    // " + plain),
    ])
    p = 'Benchmarks/Sources/TomorrowlandScenarios/IsolatedScenarios.swift'
    s = open(p).read()
    a = "import TomorrowlandAsync\n\n"
    assert s.count(a) == 1
    s = s.replace(a, a + "// EXPERIMENT plain-callbacks: a callback can no longer be isolated to its caller's actor, so\n// the isolated variants of (a) do not compile (main actor-isolated state from a Sendable closure).\nlet isolatedScenarios: [Scenario] = []\n#if false\n", 1)
    open(p, 'w').write(s.rstrip("\n") + "\n#endif\n")
