import FleetCore
import Foundation
import Tomorrowland
import XCTest

final class RegistryTests: XCTestCase {
    func testCachedLookupIsResolvedWhenTheCallReturns() {
        let fleet = FleetFixture()
        XCTAssertEqual(value(of: fleet.registry.warm(ids: [1]))?.count, 1)
        let lookup = fleet.registry.vehicle(id: 1)
        XCTAssertEqual(lookup.result?.value, FleetFixture.vehicles[0])
    }

    func testUncachedLookupResolvesLater() {
        let fleet = FleetFixture()
        let lookup = fleet.registry.vehicle(id: 2)
        XCTAssertNil(lookup.result)
        XCTAssertEqual(value(of: lookup), FleetFixture.vehicles[1])
    }

    func testUnknownVehicleRejectsWithTypedError() {
        let fleet = FleetFixture()
        XCTAssertEqual(error(of: fleet.registry.vehicle(id: 99)), .unknownVehicle(99))
    }

    func testPlateOfCachedVehicleIsComputedDuringTheCall() {
        let fleet = FleetFixture()
        _ = value(of: fleet.registry.warm(ids: [1]))
        let plate = fleet.registry.plate(ofVehicle: 1)
        fleet.journal.log("after call")
        XCTAssertEqual(plate.result?.value, "kx-101")
        XCTAssertEqual(Array(fleet.journal.entries.suffix(3)), ["lookup 1", "plate 1 now=true", "after call"])
    }

    func testPlateOfUncachedVehicleIsComputedLaterOnTheRegistryQueue() {
        let fleet = FleetFixture()
        let plate = fleet.registry.plate(ofVehicle: 2)
        fleet.journal.log("after call")
        XCTAssertNil(plate.result)
        XCTAssertEqual(value(of: plate), "kx-202")
        XCTAssertEqual(fleet.journal.entries, ["lookup 2", "after call", "plate 2 now=false"])
    }

    func testCapacityOfAnUncachedVehicleRunsOnTheRegistryQueueAndItsTapIsNotNow() {
        let fleet = FleetFixture()
        let capacity = fleet.registry.capacity(ofVehicle: 1)
        XCTAssertEqual(value(of: capacity), 8)
        XCTAssertTrue(waitUntil { fleet.journal.entries.contains("capacity tap now=false") })
        XCTAssertTrue(fleet.journal.entries.contains("capacity on registry"))
        XCTAssertFalse(fleet.journal.entries.contains("capacity tap now=true"))
    }

    func testTwoLookupsInARowAreJournalledInCallOrder() {
        let fleet = FleetFixture()
        let first = fleet.registry.vehicle(id: 1)
        let second = fleet.registry.vehicle(id: 2)
        fleet.journal.log("after calls")
        XCTAssertEqual(fleet.journal.entries, ["lookup 1", "lookup 2", "after calls"])
        XCTAssertEqual(value(of: first)?.id, 1)
        XCTAssertEqual(value(of: second)?.id, 2)
        XCTAssertEqual(fleet.registry.lookups, 2)
    }

    func testWarmLogsBeforeItsPromiseResolves() {
        let fleet = FleetFixture()
        XCTAssertEqual(value(of: fleet.registry.warm(ids: [1, 2]))?.map(\.id), [1, 2])
        XCTAssertEqual(fleet.journal.entries.last, "warm done 2 now=false")
    }

    func testWarmOfCachedVehiclesIsDoneDuringTheCall() {
        let fleet = FleetFixture()
        _ = value(of: fleet.registry.warm(ids: [1, 3]))
        let again = fleet.registry.warm(ids: [3, 1])
        XCTAssertEqual(again.result?.value?.map(\.id), [3, 1])
        XCTAssertEqual(Array(fleet.journal.entries.suffix(4)), ["warm 2", "lookup 3", "lookup 1", "warm done 2 now=true"])
    }

    func testWarmFailsWithTheFirstError() {
        let fleet = FleetFixture()
        XCTAssertEqual(error(of: fleet.registry.warm(ids: [1, 99])), .unknownVehicle(99))
        XCTAssertEqual(fleet.journal.entries.last, "warm done -1 now=false")
    }

    func testVehiclesCarryingSkipsUnknownAndSmallOnes() {
        let fleet = FleetFixture()
        let found = fleet.registry.vehicles(ids: [1, 2, 99, 3], carrying: 5)
        XCTAssertEqual(value(of: found)?.map(\.id), [1, 3])
    }

    func testSmallBatchIsFilteredToo() {
        let fleet = FleetFixture()
        XCTAssertEqual(value(of: fleet.registry.vehicles(ids: [1, 3], carrying: 10))?.map(\.id), [3])
    }
}
