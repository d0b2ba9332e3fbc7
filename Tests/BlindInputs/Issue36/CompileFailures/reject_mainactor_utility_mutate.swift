// MUST NOT COMPILE (Swift 5 and 6), already documented (MIGRATION.md, 'The data races'): a
// named context (.utility) in a @MainActor class, touching main-actor state. Harness control.
import Dispatch
import Tomorrowland

@MainActor
final class Screen {
    var rows = 0

    func go(_ p: StdPromise<Int>) {
        _ = p.then(on: .utility) { _ in
            print("utility")
            self.rows += 1 // REJECT
        }
    }
}
