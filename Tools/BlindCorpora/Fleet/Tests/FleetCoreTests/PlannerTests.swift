import FleetCore
import Foundation
import Tomorrowland
import XCTest

final class PlannerTests: XCTestCase {
    func testGridPlannerPlansOnItsQueue() {
        let journal = Journal()
        let planner = GridPlanner(journal: journal)
        XCTAssertEqual(value(of: planner.plan(from: "depot", to: "north"))?.distanceKm, 35)
        XCTAssertEqual(error(of: planner.plan(from: "depot", to: "")) as? FleetError, .routeUnavailable(""))
    }

    func testTrafficAwareOverrideBuildsOnSuper() {
        let journal = Journal()
        let planner = TrafficAwarePlanner(journal: journal, congestion: 4)
        XCTAssertEqual(value(of: planner.plan(from: "depot", to: "north"))?.distanceKm, 39)
        XCTAssertEqual(journal.entries, ["grid plan north", "traffic detour 4 on traffic"])
    }

    func testEstimatedMinutesOfEveryConformer() {
        let journal = Journal()
        let route = Route(origin: "depot", destination: "north", distanceKm: 10)
        let planners: [any RoutePlanning] = [
            GridPlanner(journal: journal),
            TrafficAwarePlanner(journal: journal, congestion: 4),
            DirectPlanner(),
        ]
        let minutes = planners.map { $0.estimatedMinutes(for: route) }
        XCTAssertEqual(minutes[2].result?.value, 10)
        XCTAssertEqual(minutes.map { value(of: $0) }, [20, 32, 10])
    }

    func testDirectPlannerAnswersDuringTheCall() {
        let planner = DirectPlanner(kilometresPerHop: 3)
        XCTAssertEqual(planner.plan(from: "a", to: "b").result?.value?.distanceKm, 3)
        let refused = planner.plan(from: "a", to: "a")
        XCTAssertEqual(refused.result?.error as? FleetError, .routeUnavailable("a"))
    }
}
