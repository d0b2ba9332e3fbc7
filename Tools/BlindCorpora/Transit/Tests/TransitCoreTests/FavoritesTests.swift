import Foundation
import Tomorrowland
import TransitCore
import XCTest

final class FavoritesTests: XCTestCase {
    private func makeStore(_ disk: FavoritesDisk = FavoritesDisk(), server: FakeTransitServer = FakeTransitServer()) -> FavoritesStore {
        FavoritesStore(stops: RemoteStopService(server: server), disk: disk)
    }

    func testAddNamesTheFavouriteAfterTheStopAndSaves() async {
        let disk = FavoritesDisk()
        let store = makeStore(disk)
        let promise = await store.add(stopID: "S2")
        let result = await resolvedAsync(promise)
        XCTAssertEqual(result?.value, [FavoriteStop(stopID: "S2", nickname: "Market Street")])
        XCTAssertEqual(disk.saved, [FavoriteStop(stopID: "S2", nickname: "Market Street")])
        XCTAssertEqual(disk.writes, 1)
        let saves = await store.saveCount
        XCTAssertEqual(saves, 1)
    }

    func testSavingRunsOnTheStorageQueue() async {
        let store = makeStore()
        _ = await resolvedAsync(await store.add(stopID: "S1", nickname: "Work"))
        XCTAssertEqual(store.trace.entries, ["save@transit.storage"])
    }

    func testNicknameAndDuplicates() async {
        let store = makeStore()
        let first = await resolvedAsync(await store.add(stopID: "S4", nickname: "Campus"))
        XCTAssertEqual(first?.value?.map { $0.nickname }, ["Campus"])
        let duplicate = await store.add(stopID: "S4")
        XCTAssertEqual(duplicate.result, .error(.invalidRequest("S4 is already a favourite")))
    }

    func testUnknownStopIsNotSaved() async {
        let disk = FavoritesDisk()
        let store = makeStore(disk)
        let result = await resolvedAsync(await store.add(stopID: "S99"))
        XCTAssertEqual(result, .error(.notFound("S99")))
        XCTAssertEqual(disk.writes, 0)
        let favorites = await store.favorites
        XCTAssertEqual(favorites, [])
    }

    func testFailedWriteIsReported() async {
        let disk = FavoritesDisk()
        disk.failsWrites = true
        let store = makeStore(disk)
        let result = await resolvedAsync(await store.add(stopID: "S2"))
        XCTAssertEqual(result, .error(.storage("disk full")))
    }

    func testRemoveAndRename() async {
        let disk = FavoritesDisk(saved: [FavoriteStop(stopID: "S1", nickname: "Central"), FavoriteStop(stopID: "S2", nickname: "Market")])
        let store = makeStore(disk)
        let renamed = await resolvedAsync(await store.rename(stopID: "S1", to: "Work"))
        XCTAssertEqual(renamed?.value, FavoriteStop(stopID: "S1", nickname: "Work"))
        let removed = await resolvedAsync(await store.remove(stopID: "S2"))
        XCTAssertEqual(removed?.value, [FavoriteStop(stopID: "S1", nickname: "Work")])
        XCTAssertEqual(disk.saved, [FavoriteStop(stopID: "S1", nickname: "Work")])
        let missing = await store.remove(stopID: "S9")
        XCTAssertEqual(missing.result, .error(.notFound("S9")))
    }

    func testSaveIsCountedBeforeTheCallReturns() async {
        let disk = FavoritesDisk(saved: [FavoriteStop(stopID: "S1", nickname: "Central")])
        let store = makeStore(disk)
        let promise = await store.remove(stopID: "S1")
        let saves = await store.saveCount
        XCTAssertEqual(saves, 1)
        _ = await resolvedAsync(promise)
    }

    func testResolvedStopsKeepTheSavedOrder() async {
        let disk = FavoritesDisk(saved: [FavoriteStop(stopID: "S4", nickname: "Uni"), FavoriteStop(stopID: "S1", nickname: "Central")])
        let store = makeStore(disk)
        let result = await resolvedAsync(await store.resolvedStops())
        XCTAssertEqual(result?.value?.map { $0.name }, ["University", "Central Station"])
    }
}
