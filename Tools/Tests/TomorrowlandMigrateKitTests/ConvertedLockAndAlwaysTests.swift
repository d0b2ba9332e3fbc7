import Foundation
import Testing
import Tomorrowland
import TomorrowlandAsync

/// `lock(); defer { unlock() }` in a step's closure and a final `always` on a named context in a
/// chain that cannot fail, converted (ConvertedBehaviour.swift's `BehaviourStock` and
/// `BehaviourFryer`, the shapes of the blind corpus Kitchen). What 1.x's chains did, checked at
/// run time: the locked statements run on the step's queue under the lock, which is released
/// after a value and after a throw; the `always` closure runs on its queue after the value and
/// after a cancellation, before the wrapper resolves.
@Suite("convert-body: a lock held by `defer`, `always` on a chain that cannot fail", .timeLimit(.minutes(2)))
struct ConvertedLockAndAlwaysTests {
    @Test("`restock`: the level after it, from the step's queue; the lock is free afterwards")
    func restocked() async throws {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let stock = BehaviourStock()
        let observed = Observed()
        #expect(try await (stock.restock("fries", amount: 3, after: 0, observed: observed) as Promise<Int, NoError>).value == 3)
        #expect(try await (stock.restock("fries", amount: 4, after: 0.01, observed: observed) as Promise<Int, NoError>).value == 7)
        #expect(observed.places == ["behaviourQueue", "behaviourQueue"])
        #expect(stock.level(of: "fries") == 7)
    }

    @Test("`restock` from many tasks at once: each level is read under the lock its addition held")
    func restockedTogether() async throws {
        let stock = BehaviourStock()
        let observed = Observed()
        let levels = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 {
                group.addTask { try await (stock.restock("buns", amount: 1, after: 0, observed: observed) as Promise<Int, NoError>).value }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(levels.sorted() == Array(1...40))
        #expect(stock.level(of: "buns") == 40)
    }

    @Test("`restock` cancelled before its delay: cancelled, the locked statements never ran")
    func restockCancelled() async {
        let stock = BehaviourStock()
        let observed = Observed()
        let promise: Promise<Int, NoError> = stock.restock("oil", amount: 5, after: 30, observed: observed)
        promise.requestCancel()
        let result = await promise.resolvedResult
        #expect(result == .cancelled, "\(result)")
        #expect(observed.places.isEmpty)
        #expect(stock.level(of: "oil") == 0)
    }

    @Test("`take`: a value under the lock, and a throw from under it that releases it")
    func taken() async throws {
        let stock = BehaviourStock()
        _ = try await (stock.restock("salt", amount: 5, after: 0, observed: Observed()) as Promise<Int, NoError>).value
        #expect(try await (stock.take("salt", from: Promise(fulfilled: 2)) as Promise<Int, Error>).value == 3)
        let failed = await (stock.take("salt", from: Promise(fulfilled: 9)) as Promise<Int, Error>).resolvedResult
        #expect(failed.error as? BehaviourError == .failed, "\(failed)")
        // The lock is free (this read would never return otherwise) and the stock untouched.
        #expect(stock.level(of: "salt") == 3)
        let rejected = await (stock.take("salt", from: Promise(rejected: .failed)) as Promise<Int, Error>).resolvedResult
        #expect(rejected.error as? BehaviourError == .failed, "\(rejected)")
        #expect(stock.level(of: "salt") == 3)
    }

    @Test("`changeOil`: its statements during the call; the `always` on its queue after the value, before the wrapper resolves")
    func oilChanged() async throws {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let fryer = BehaviourFryer()
        let observed = Observed()
        let promise: Promise<Void, NoError> = fryer.changeOil(duration: 0.05, observed: observed)
        #expect(fryer.oilChanges == 1)
        #expect(fryer.changingOil != nil)
        let result = await promise.resolvedResult
        #expect(result.value != nil, "\(result)")
        #expect(observed.places == ["behaviourQueue"])
        #expect(fryer.changingOil == nil)
    }

    @Test("`changeOil` cancelled: cancelled, and the `always` ran on its queue first, as on a value")
    func oilChangeCancelled() async throws {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let fryer = BehaviourFryer()
        let observed = Observed()
        let promise: Promise<Void, NoError> = fryer.changeOil(duration: 30, observed: observed)
        #expect(fryer.changingOil != nil)
        promise.requestCancel()
        let result = await promise.resolvedResult
        #expect(result.isCancelled, "\(result)")
        #expect(observed.places == ["behaviourQueue"])
        #expect(fryer.changingOil == nil)
    }
}
