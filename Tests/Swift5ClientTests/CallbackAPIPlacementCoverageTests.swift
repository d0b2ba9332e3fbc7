// Every API generated from the callback API table (Generator/Sources/CallbackAPI/Table.swift) has
// its case in the placement tests: `CallbackAPICases.labels` is generated from the same rows.

import Tomorrowland
import XCTest

final class CallbackAPIPlacementCoverageTests: XCTestCase {
    /// A row added to the table without a case in `MainActorPlacementClient.namedCases` fails here.
    func testEveryGeneratedAPIHasAPlacementCase() {
        let labels = MainActor.assumeIsolated {
            Set(MainActorPlacementClient().namedCases(.utility, token: nil, expected: .offMain, PlacementLog()).map(\.label))
        }
        XCTAssertFalse(CallbackAPICases.labels.isEmpty)
        let missing = CallbackAPICases.labels.filter { !labels.contains($0) }
        XCTAssertEqual(missing, [], "add a case for each to NamedContextPlacementTests' namedCases")
    }
}
