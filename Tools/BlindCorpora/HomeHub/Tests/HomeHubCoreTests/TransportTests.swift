import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

/// A cloud HTTP client that answers from a closure.
private final class StubHTTPClient: CloudHTTPClient, @unchecked Sendable {
    let answer: @Sendable (HubRequest, [String: String]) -> (Int?, Data?, Swift.Error?)
    private(set) var headers: [[String: String]] = []

    init(answer: @escaping @Sendable (HubRequest, [String: String]) -> (Int?, Data?, Swift.Error?)) {
        self.answer = answer
    }

    final class Call: LinkExchange, @unchecked Sendable {
        func cancel() {}
    }

    func start(_ request: HubRequest, headers: [String: String],
               completion: @escaping @Sendable (Int?, Data?, Swift.Error?) -> Void) -> LinkExchange {
        self.headers.append(headers)
        let (status, body, error) = answer(request, headers)
        DispatchQueue.global().async { completion(status, body, error) }
        return Call()
    }
}

final class TransportTests: XCTestCase {
    func testLANTransportFulfilsWithTheReply() {
        let link = FakeLink()
        let transport = LANTransport(link: link)
        let reply = transport.send(HubRequest(.get, "/ping"))
        XCTAssertEqual(link.exchanges.count, 1, "the exchange starts synchronously")
        XCTAssertEqual(String(decoding: link.exchanges[0].payload, as: UTF8.self), "GET /ping\n")
        link.exchanges[0].finish(.success(Data("pong".utf8)))
        XCTAssertEqual(result(of: reply)?.value, Data("pong".utf8))
    }

    func testLANTransportMapsLinkFailures() {
        let link = FakeLink()
        let transport = LANTransport(link: link)
        let offline = transport.send(HubRequest(.get, "/devices/a/state"))
        let missing = transport.send(HubRequest(.get, "/devices/b/state"))
        let denied = transport.send(HubRequest(.get, "/devices/c/state"))
        let broken = transport.send(HubRequest(.get, "/devices/d/state"))
        link.exchanges[0].finish(.failure(.unreachable))
        link.exchanges[1].finish(.failure(.status(404)))
        link.exchanges[2].finish(.failure(.status(401)))
        link.exchanges[3].finish(.failure(.status(500)))
        XCTAssertEqual(result(of: offline)?.error, .offline)
        XCTAssertEqual(result(of: missing)?.error, .deviceNotFound("b"))
        XCTAssertEqual(result(of: denied)?.error, .unauthorized)
        XCTAssertEqual(result(of: broken)?.error, .rejectedByDevice(code: 500))
    }

    func testCancellingALANRequestCancelsTheExchange() {
        let link = FakeLink()
        let transport = LANTransport(link: link)
        let reply = transport.send(HubRequest(.get, "/ping"))
        reply.requestCancel()
        XCTAssertTrue(link.exchanges[0].wasCancelled)
        XCTAssertEqual(result(of: reply)?.isCancelled, true)
    }

    func testCloudTransportNeedsASession() {
        let client = StubHTTPClient { _, _ in (200, Data(), nil) }
        let transport = CloudTransport(client: client)
        XCTAssertEqual(result(of: transport.send(HubRequest(.get, "/ping")))?.error, .unauthorized)
        XCTAssertEqual(client.headers.count, 0)

        transport.use(CloudSession(accountID: "a", accessToken: "t", expiresAt: Date().addingTimeInterval(60)))
        XCTAssertEqual(result(of: transport.send(HubRequest(.get, "/ping")))?.value, Data())
        XCTAssertEqual(client.headers.first?["Authorization"], "Bearer t")
    }

    func testCloudTransportMapsStatusCodes() {
        let client = StubHTTPClient { request, _ in
            switch request.path {
            case "/gone": return (504, nil, nil)
            case "/denied": return (403, nil, nil)
            case "/down": return (nil, nil, LinkFailure.unreachable)
            default: return (418, nil, nil)
            }
        }
        let transport = CloudTransport(client: client,
                                       session: CloudSession(accountID: "a", accessToken: "t", expiresAt: .distantFuture))
        XCTAssertEqual(result(of: transport.send(HubRequest(.get, "/gone")))?.error, .timedOut)
        XCTAssertEqual(result(of: transport.send(HubRequest(.get, "/denied")))?.error, .unauthorized)
        XCTAssertEqual(result(of: transport.send(HubRequest(.get, "/down")))?.error, .offline)
        XCTAssertEqual(result(of: transport.send(HubRequest(.get, "/teapot")))?.error, .rejectedByDevice(code: 418))
    }

    func testFailoverUsesTheSecondTransportOnlyWhenTheFirstIsOffline() {
        let lan = FakeTransport()
        let cloud = FakeTransport()
        lan.fail("/ping", with: .offline)
        cloud.replyRaw("/ping", Data("cloud".utf8))
        lan.fail("/devices", with: .unauthorized)
        let failover = FailoverTransport(primary: lan, secondary: cloud)
        XCTAssertEqual(failover.name, "fake+fake")
        XCTAssertEqual(result(of: failover.send(HubRequest(.get, "/ping")))?.value, Data("cloud".utf8))
        XCTAssertEqual(result(of: failover.send(HubRequest(.get, "/devices")))?.error, .unauthorized)
        XCTAssertEqual(cloud.paths, ["/ping"])
    }

    func testFetchDecodesOrRejectsWithDecoding() {
        let transport = FakeTransport()
        transport.reply("/rooms", [Room(id: "a", name: "A")])
        transport.replyRaw("/broken", Data("{".utf8))
        XCTAssertEqual(result(of: transport.fetch([Room].self, HubRequest(.get, "/rooms")))?.value?.first?.name, "A")
        guard case .decoding? = result(of: transport.fetch([Room].self, HubRequest(.get, "/broken")))?.error else {
            return XCTFail("expected .decoding")
        }
    }

    func testCommandTimesOut() {
        let transport = FakeTransport()
        transport.hold("/slow")
        let cancelled = transport.expectCancel("/slow", in: self)
        let command = Command<[Room]>(HubRequest(.get, "/slow"), timeout: 0.1)
        XCTAssertEqual(result(of: command.send(via: transport))?.error, .timedOut)
        wait(for: [cancelled], timeout: Self.patience)
    }

    func testCommandTriesTheNextTransportOnATransientFailure() {
        let first = FakeTransport()
        let second = FakeTransport()
        first.fail("/devices/lamp-1/state", with: .offline)
        second.reply("/devices/lamp-1/state", DeviceState(isOn: true))
        let state = result(of: Command<DeviceState>.readState(of: "lamp-1").send(viaFirstOf: [first, second]))
        XCTAssertEqual(state?.value?.isOn, true)
        XCTAssertEqual(result(of: Command<DeviceState>.readState(of: "lamp-1").send(viaFirstOf: []))?.error, .offline)
    }

    func testReachabilityNeverFails() {
        let transport = FakeTransport()
        transport.replyRaw("/ping", Data("pong".utf8))
        XCTAssertEqual(result(of: transport.isReachable())?.value, true)
        transport.fail("/ping", with: .offline)
        XCTAssertEqual(result(of: transport.isReachable())?.value, false)
    }

    func testLoopbackAnswersFromTheSimulatedHome() {
        let home = SimulatedHome.sample()
        let transport = LoopbackTransport(home: home)
        let devices = result(of: Command<[Device]>.listDevices.send(via: transport))?.value
        XCTAssertEqual(devices?.count, 5)
        home.isOffline = true
        XCTAssertEqual(result(of: Command<[Device]>.listDevices.send(via: transport))?.error, .offline)
        XCTAssertEqual(home.requests.count, 2)
    }

    func testPromiseHelpers() {
        let transient = HubPromise<Int>(rejected: .timedOut).replacingTransientFailure(with: 7)
        XCTAssertEqual(result(of: transient)?.value, 7)
        let fatal = HubPromise<Int>(rejected: .unauthorized).replacingTransientFailure(with: 7)
        XCTAssertEqual(result(of: fatal)?.error, .unauthorized)

        let std = HubPromise<Int>(rejected: .offline).std
        XCTAssertEqual(result(of: std)?.error as? HubError, .offline)
        let narrowed = StdPromise<Int>(rejected: LinkFailure.unreachable).asHubPromise()
        XCTAssertEqual(result(of: narrowed)?.error, .other("unreachable"))
    }

    func testRecordingFailureLogsWithoutChangingTheResult() {
        let log = EventLog()
        let failed = HubPromise<Int>(rejected: .offline).recordingFailure(in: log, source: "test")
        XCTAssertEqual(result(of: failed)?.error, .offline)
        eventually("the failure is logged") {
            self.result(of: log.entries(of: .failure))?.value?.first?.message == "test: offline"
        }
    }
}
