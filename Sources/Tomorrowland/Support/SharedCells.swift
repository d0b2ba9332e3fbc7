// SharedCells: the two types every piece of the library's shared mutable state goes through,
// so that the interleaving explorer sees each access by construction (loom's way) rather than
// by a schedule point placed by hand beside it:
//
// - `SharedAtomic<Value>`, an atomic cell: every operation (load, store, exchange,
//   compare-exchange, add) is a schedule point of its own, labelled `cell.operation`.
// - `PublishedField<Value>`, a plain field that one thread writes and another reads only after
//   an atomic (or a lock) published it: a promise's result, an awaiting Task's continuation,
//   a value `when` assembles, a handler that only the winner of a compare-exchange takes.
//   A write is a schedule point; reads and writes are reported to the explorer, which checks
//   that the last write happens before each access through the acquire/release pairs of the
//   `SharedAtomic`s and `Locked`s in between (see Testing.md, "Memory orderings").
//
// In the `Tomorrowland` target (what apps build) both are type aliases: `SharedAtomic` is
// `Synchronization.Atomic` and `PublishedField<Value>` is `Value`, and the accessors below are
// transparent, so every access compiles to the bare operation (the same code as before the
// wrappers, which `Benchmarks/scripts/instructions.sh` confirms). In `TomorrowlandExplored`
// (`TOMORROWLAND_SCHEDULE_POINTS`) they are the structs at the end of this file: the same
// operations, each reporting to the installed `SchedulePointHandler` first.
//
// A field written only in `init` or read only in `deinit` (the object is not shared then) uses
// `unsharedLoad` / the field's initial value: no point, no check.

import Foundation
import Synchronization

#if !TOMORROWLAND_SCHEDULE_POINTS

/// An atomic cell of shared state (see the top of this file). In this build, `Atomic` itself.
@usableFromInline
typealias SharedAtomic<Value: AtomicRepresentable> = Atomic<Value>

/// A plain field published through an atomic (see the top of this file). In this build, the
/// value itself.
@usableFromInline
typealias PublishedField<Value> = Value

extension Atomic {
    /// An atomic cell named `name` (the explorer's label for its steps).
    @_transparent @usableFromInline
    init(_ value: consuming Value, _ name: StaticString) {
        self.init(value)
    }
}

// (`Atomic`'s operations exist per representation, and their orderings must be constants:
// hence one extension per size the library uses and a switch that the constant folds away.)
extension Atomic where Value.AtomicRepresentation == _Atomic8BitStorage {
    /// A load by a thread that has the object to itself (a `deinit`): no schedule point.
    @_transparent @usableFromInline
    func unsharedLoad(ordering: AtomicLoadOrdering) -> Value {
        switch ordering {
        case .relaxed: load(ordering: .relaxed)
        case .acquiring: load(ordering: .acquiring)
        default: load(ordering: .sequentiallyConsistent)
        }
    }
}

extension Atomic where Value.AtomicRepresentation == _Atomic64BitStorage {
    /// A load by a thread that has the object to itself (a `deinit`): no schedule point.
    @_transparent @usableFromInline
    func unsharedLoad(ordering: AtomicLoadOrdering) -> Value {
        switch ordering {
        case .relaxed: load(ordering: .relaxed)
        case .acquiring: load(ordering: .acquiring)
        default: load(ordering: .sequentiallyConsistent)
        }
    }

    /// A load that is no schedule point of its own, of a cell written once (by a
    /// compare-exchange from its initial value, which is one): the thread-local key.
    @_transparent @usableFromInline
    func unscheduledLoad(ordering: AtomicLoadOrdering) -> Value {
        unsharedLoad(ordering: ordering)
    }
}

/// A published field named `name`, holding `value` (written while the object is not shared yet).
@_transparent @usableFromInline
func publishedField<Value>(_ value: Value, _ name: StaticString) -> PublishedField<Value> {
    value
}

/// Initializes `count` published fields at `fields`, each holding `value` and named `name`.
@_transparent @usableFromInline
func initializePublishedFields<Value>(_ fields: UnsafeMutablePointer<PublishedField<Value>>, count: Int, _ value: Value, _ name: StaticString) {
    fields.initialize(repeating: value, count: count)
}

/// Writes a published field, before the atomic (or the unlock) that publishes it.
@_transparent @usableFromInline
func publishField<Value>(_ field: inout PublishedField<Value>, _ value: consuming Value) {
    field = consume value
}

/// Reads a published field, after the atomic (or the lock) that made the last write visible.
@_transparent @usableFromInline
func readField<Value>(_ field: PublishedField<Value>) -> Value {
    field
}

/// Takes the value out of a published optional field (a read and a write of `nil`), leaving `nil`.
@_transparent @usableFromInline
func takeField<Value>(_ field: inout PublishedField<Value?>) -> Value? {
    field.take()
}

#else

/// An atomic cell of shared state in the explorer's build: every operation is a schedule point
/// of its own (`cell.operation`) and is reported, right after, with its declared ordering to
/// the installed handler (the explorer's happens-before check). The value sits behind a mutex
/// (`Atomic`'s operations exist only for concrete representations, not for a generic wrapper),
/// so every operation is sequentially consistent, at least as strong as the one declared:
/// the declared ordering is what the explorer checks. Compare-exchanges are strong: a weak
/// one's spurious failure would add a step, and the same decisions would no longer give the
/// same steps.
@usableFromInline
struct SharedAtomic<Value: AtomicRepresentable>: ~Copyable {
    @usableFromInline let storage: SharedAtomicStorage<Value>
    @usableFromInline var cell: SharedCell { storage.cell }

    @usableFromInline
    init(_ value: consuming Value, _ name: StaticString) {
        storage = SharedAtomicStorage(value, SharedCell(name))
    }

    @usableFromInline
    func load(ordering: AtomicLoadOrdering) -> Value {
        cell.reached("load")
        let value = storage.withLock { $0 }
        cell.synchronized(.load(ordering))
        return value
    }

    /// A load by a thread that has the object to itself (a `deinit`): no schedule point.
    @usableFromInline
    func unsharedLoad(ordering: AtomicLoadOrdering) -> Value {
        storage.withLock { $0 }
    }

    /// A load that is no schedule point of its own, of a cell written once (by a
    /// compare-exchange from its initial value, which is one): the thread-local key. Its
    /// ordering still counts for the happens-before check.
    @usableFromInline
    func unscheduledLoad(ordering: AtomicLoadOrdering) -> Value {
        let value = storage.withLock { $0 }
        cell.synchronized(.load(ordering))
        return value
    }

    @usableFromInline
    func store(_ value: consuming Value, ordering: AtomicStoreOrdering) {
        cell.reached("store")
        let new = value
        storage.withLock { $0 = new }
        cell.synchronized(.store(ordering))
    }

    @usableFromInline @discardableResult
    func exchange(_ value: consuming Value, ordering: AtomicUpdateOrdering) -> Value {
        cell.reached("exchange")
        let new = value
        let old = storage.withLock { current in
            defer { current = new }
            return current
        }
        cell.synchronized(.readModifyWrite(ordering))
        return old
    }

    @usableFromInline
    func compareExchange(expected: consuming Value, desired: consuming Value,
                         ordering: AtomicUpdateOrdering) -> (exchanged: Bool, original: Value) {
        cell.reached("cas")
        let result = storage.compareExchange(expected, desired)
        cell.synchronized(result.exchanged ? .readModifyWrite(ordering) : .failedCompareExchange(ordering))
        return result
    }

    @usableFromInline
    func compareExchange(expected: consuming Value, desired: consuming Value, successOrdering: AtomicUpdateOrdering,
                         failureOrdering: AtomicLoadOrdering) -> (exchanged: Bool, original: Value) {
        cell.reached("cas")
        let result = storage.compareExchange(expected, desired)
        cell.synchronized(result.exchanged ? .readModifyWrite(successOrdering) : .load(failureOrdering))
        return result
    }

    /// Strong here (see the type's comment).
    @usableFromInline
    func weakCompareExchange(expected: consuming Value, desired: consuming Value, successOrdering: AtomicUpdateOrdering,
                             failureOrdering: AtomicLoadOrdering) -> (exchanged: Bool, original: Value) {
        compareExchange(expected: expected, desired: desired, successOrdering: successOrdering, failureOrdering: failureOrdering)
    }

    /// A read-modify-write of an integer cell: returns the old and the new value.
    @usableFromInline
    func update(_ operation: StaticString, _ ordering: AtomicUpdateOrdering, _ change: (Value) -> Value) -> (oldValue: Value, newValue: Value) {
        cell.reached(operation)
        let result = storage.withLock { current in
            let old = current
            current = change(old)
            return (oldValue: old, newValue: current)
        }
        cell.synchronized(.readModifyWrite(ordering))
        return result
    }
}

extension SharedAtomic where Value == Int {
    @usableFromInline @discardableResult
    func wrappingAdd(_ operand: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
        update("add", ordering) { $0 &+ operand }
    }

    @usableFromInline @discardableResult
    func wrappingSubtract(_ operand: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
        update("sub", ordering) { $0 &- operand }
    }

    @usableFromInline @discardableResult
    func add(_ operand: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
        update("add", ordering) { $0 + operand }
    }

    @usableFromInline @discardableResult
    func subtract(_ operand: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
        update("sub", ordering) { $0 - operand }
    }
}

extension SharedAtomic where Value == UInt {
    @usableFromInline @discardableResult
    func wrappingAdd(_ operand: UInt, ordering: AtomicUpdateOrdering) -> (oldValue: UInt, newValue: UInt) {
        update("add", ordering) { $0 &+ operand }
    }
}

extension SharedAtomic where Value == UInt64 {
    @usableFromInline @discardableResult
    func wrappingAdd(_ operand: UInt64, ordering: AtomicUpdateOrdering) -> (oldValue: UInt64, newValue: UInt64) {
        update("add", ordering) { $0 &+ operand }
    }
}

/// Safety: the value is only accessed under its mutex; the cell's record only by the
/// installed handler, under its own lock.
extension SharedAtomic: @unchecked Sendable {}

/// A `SharedAtomic`'s value behind a lock, and its cell.
///
/// Safety of `@unchecked Sendable`: `value` is only accessed under `lock`; `cell`, see `SharedCell`.
@usableFromInline
final class SharedAtomicStorage<Value: AtomicRepresentable>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value
    @usableFromInline let cell: SharedCell

    @usableFromInline
    init(_ value: consuming Value, _ cell: SharedCell) {
        self.value = value
        self.cell = cell
    }

    @usableFromInline
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    /// Compares the representations byte for byte (atomic values are plain bits: integers,
    /// raw-value enums, optional pointers), as the hardware's compare-exchange does.
    @usableFromInline
    func compareExchange(_ expected: Value, _ desired: Value) -> (exchanged: Bool, original: Value) {
        withLock { current in
            let equal = withUnsafeBytes(of: current) { a in withUnsafeBytes(of: expected) { b in a.elementsEqual(b) } }
            if equal { current = desired }
            return (equal, equal ? expected : current)
        }
    }
}

/// A plain field published through an atomic: the value and its cell. Accessed only through
/// `publishField`, `readField` and `takeField` below.
@usableFromInline
struct PublishedField<Value> {
    @usableFromInline var value: Value
    @usableFromInline let cell: SharedCell

    @usableFromInline
    init(value: Value, cell: SharedCell) {
        self.value = value
        self.cell = cell
    }
}

/// A published field named `name`, holding `value` (written while the object is not shared yet).
@inline(__always) @usableFromInline
func publishedField<Value>(_ value: Value, _ name: StaticString) -> PublishedField<Value> {
    PublishedField(value: value, cell: SharedCell(name))
}

/// Initializes `count` published fields at `fields`, each holding `value` and named `name`
/// (each its own cell).
@inline(__always) @usableFromInline
func initializePublishedFields<Value>(_ fields: UnsafeMutablePointer<PublishedField<Value>>, count: Int, _ value: Value, _ name: StaticString) {
    for index in 0..<count { (fields + index).initialize(to: publishedField(value, name)) }
}

/// Writes a published field (a schedule point), before the atomic that publishes it.
@inline(__always) @usableFromInline
func publishField<Value>(_ field: inout PublishedField<Value>, _ value: consuming Value) {
    field.cell.reached("store")
    field.cell.accessed(writing: true)
    field.value = consume value
}

/// Reads a published field: no schedule point (a write that could come between would race with
/// this read, which the explorer's check reports), but checked to happen after the last write.
@inline(__always) @usableFromInline
func readField<Value>(_ field: PublishedField<Value>) -> Value {
    field.cell.accessed(writing: false)
    return field.value
}

/// Takes the value out of a published optional field, leaving `nil`: a read and a write, checked
/// as a write (no schedule point: only the thread that won the atomic that hands the field over
/// takes it).
@inline(__always) @usableFromInline
func takeField<Value>(_ field: inout PublishedField<Value?>) -> Value? {
    field.cell.accessed(writing: true)
    return field.value.take()
}

#endif
