import Foundation
import GalleryCore
import Tomorrowland
import XCTest

final class FaceTaggerTests: XCTestCase {
    func testTheFirstDetectorToAnswerWinsAndTheOtherIsCancelled() throws {
        let transport = ManualTransport()
        let serverCancelled = expectation(description: "server request cancelled")
        transport.whenCancelled = { path in
            if path == "faces/a" { serverCancelled.fulfill() }
        }
        let tagger = FaceTagger(detectors: [ServerFaceDetector(transport: transport), QuickFaceDetector(model: ["a": [0.9]])])

        let faces = try value(of: tagger.detect(in: Asset(id: "a")))

        XCTAssertEqual(faces, [FaceTag(assetID: "a", person: nil, confidence: 0.9)])
        wait(for: [serverCancelled], timeout: 10)
    }

    func testServerDetectorParsesScores() throws {
        let transport = ManualTransport()
        transport.autoReplies["faces/s"] = Data("0.25,0.75".utf8)

        let faces = try value(of: ServerFaceDetector(transport: transport).detectFaces(in: Asset(id: "s")))

        XCTAssertEqual(faces.map { $0.confidence }, [0.25, 0.75])
    }

    func testTagNamesConfidentFacesAndRecordsThem() throws {
        let tagger = FaceTagger(detectors: [QuickFaceDetector(model: ["a": [0.9, 0.2, 0.8]])])
        tagger.people = [0: "Ada", 2: "Grace"]

        let faces = try value(of: tagger.tag(Asset(id: "a")).inner)

        XCTAssertEqual(faces.map { $0.person }, ["Ada", "Grace"])
        XCTAssertEqual(tagger.tags["a"], faces)
    }

    func testStopCancelsTagsStillInFlight() {
        let transport = ManualTransport()
        let sent = expectation(description: "request sent")
        transport.whenSent = { _ in sent.fulfill() }
        let tagger = FaceTagger(detectors: [ServerFaceDetector(transport: transport)])

        let promise = tagger.tag(Asset(id: "late")).inner
        tagger.stop()
        wait(for: [sent], timeout: 10)
        transport.reply(to: "faces/late", data: Data("0.9".utf8))

        XCTAssertEqual(result(of: promise)?.isCancelled, true)
        XCTAssertNil(tagger.tags["late"])
    }

    func testTagAllCountsTheFaces() throws {
        let tagger = FaceTagger(detectors: [QuickFaceDetector(model: ["a": [0.9], "b": [0.6, 0.7]])])

        XCTAssertEqual(try value(of: tagger.tagAll([Asset(id: "a"), Asset(id: "b")])), 3)
    }

    func testWithoutDetectorsTheTagFailsAtOnce() {
        let tagger = FaceTagger(detectors: [])

        XCTAssertEqual(tagger.detect(in: Asset(id: "a")).result, .error(.notFound("face detector")))
    }
}
