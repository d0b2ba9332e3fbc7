// ActorOnQueue: an actor that runs on the same serial DispatchQueue as existing promise
// callbacks, so both sides share one isolation domain.
//
// `PromiseContext.queue(q).serialExecutor` is `q` as a `SerialExecutor`; it keeps `q` alive
// while it is held. An actor that returns it as its `unownedExecutor` runs its methods on `q`,
// and a promise callback registered on `.queue(q)` may enter the actor synchronously with
// `assumeIsolated`, without an `await` and without a hop.

import Dispatch
import Foundation
import TomorrowlandAsync

/// The queue that the old code already uses for all of its bookkeeping.
let ledgerQueue = DispatchQueue(label: "ledger")
/// Kept once: asking for it in every `unownedExecutor` call would make a new handle each time.
let ledgerExecutor = PromiseContext.queue(ledgerQueue).serialExecutor!

actor Ledger {
    private var entries: [String] = []

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        ledgerExecutor.asUnownedSerialExecutor()
    }

    func record(_ entry: String) {
        dispatchPrecondition(condition: .onQueue(ledgerQueue))
        entries.append(entry)
    }

    var all: [String] { entries }
}

/// Old code: a promise whose callbacks run on the ledger queue.
func fetchPayment(_ id: Int) -> Promise<String, NoError> {
    Promise(on: .utility) { resolver in resolver.fulfill(with: "payment #\(id)") }
}

/// Old (nonisolated) code: a callback on `.queue(ledgerQueue)` enters the actor synchronously.
/// (Written in `main()`, which is main-actor isolated, the callback would be isolated to the
/// main actor and run there instead.)
func recordPayment(_ id: Int, in ledger: Ledger) -> Promise<String, NoError> {
    fetchPayment(id).map(on: .queue(ledgerQueue)) { payment in
        ledger.assumeIsolated { ledger in
            ledger.record("\(payment), recorded by a promise callback")
        }
        return payment
    }
}

@main
enum ActorOnQueue {
    static func main() async {
        let ledger = Ledger()

        print("1. New async code calls the actor: its methods run on the ledger queue.")
        await ledger.record("opened by async code")

        print("2. A promise callback on .queue(ledgerQueue) enters the actor synchronously.")
        let recorded = recordPayment(7, in: ledger)
        _ = try? await recorded.value

        print("3. A Task can prefer a context's executor for its nonisolated work.")
        if let executor = PromiseContext.utility.taskExecutor {
            await withTaskExecutorPreference(executor) {
                await ledger.record("recorded from a task preferring .utility")
            }
        }

        for entry in await ledger.all {
            print("  ledger: \(entry)")
        }
    }
}
