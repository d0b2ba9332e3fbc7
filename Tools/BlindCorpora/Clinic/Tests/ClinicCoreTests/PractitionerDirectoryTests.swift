import Foundation
import XCTest
import Tomorrowland
@testable import ClinicCore

final class PractitionerDirectoryTests: XCTestCase {
    func testPractitionersAreFilteredAndSorted() {
        let directory = PractitionerDirectory(server: makeServer())
        let gps = waitForValue(directory.practitioners(specialty: "GP"))
        XCTAssertEqual(gps?.map(\.name), ["Dr. Brown", "Dr. Quinn"])
    }

    func testMissingSpecialtyIsNotFound() {
        let directory = PractitionerDirectory(server: makeServer())
        let exp = expectation(description: "error")
        directory.practitioner(specialty: "Dentistry")
            .then { practitioner in
                XCTFail("no dentist expected, got \(practitioner)")
            }
            .catch { error in
                if case .notFound(let what) = error {
                    XCTAssertEqual(what, "practitioner for Dentistry")
                } else {
                    XCTFail("wrong error \(error)")
                }
                exp.fulfill()
            }
        waitForExpectations(timeout: 5)
    }

    func testSortingRunsOnTheWorkContext() {
        let queue = ClinicQueues.tagged("test.directory")
        let directory = PractitionerDirectory(server: makeServer(), workContext: .queue(queue))
        let done = expectation(description: "specialties")
        var onQueue: String?
        directory.specialties().then(on: .immediate) { names in
            onQueue = ClinicQueues.current
            XCTAssertEqual(names, ["Diagnostics", "GP"])
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(onQueue, "test.directory")
    }
}
