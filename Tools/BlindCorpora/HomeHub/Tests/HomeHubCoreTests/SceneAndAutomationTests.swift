import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

final class SceneEngineTests: XCTestCase {
    private var transport: FakeTransport!
    private var registry: DeviceRegistry!
    private var engine: SceneEngine!
    private let evening = HomeScene(id: "evening", name: "Evening", actions: [
        SceneAction(deviceID: "lamp-1", change: .brightness(30)),
        SceneAction(deviceID: "thermo-1", change: .targetTemperature(21)),
    ])

    override func setUp() {
        super.setUp()
        transport = FakeTransport()
        registry = DeviceRegistry(transport: transport)
        Fixtures.all.forEach(registry.table.upsert)
        transport.reply("/devices/lamp-1/state", DeviceState(isOn: true, brightness: 30))
        transport.reply("/devices/thermo-1/state", DeviceState(targetTemperature: 21, currentTemperature: 19))
        engine = SceneEngine(registry: registry, scenes: [evening], activationTimeout: 10)
    }

    func testActivationReportsEveryDevicesNewState() {
        let report = result(of: engine.activate(sceneID: "evening"))?.value
        XCTAssertEqual(report?.sceneID, "evening")
        XCTAssertEqual(report?.states["lamp-1"]?.brightness, 30)
        XCTAssertEqual(report?.states["thermo-1"]?.targetTemperature, 21)
        XCTAssertEqual(Set(transport.paths), ["/devices/lamp-1/state", "/devices/thermo-1/state"])
    }

    func testUnknownSceneIsRejected() {
        XCTAssertEqual(result(of: engine.activate(sceneID: "nope"))?.error, .other("no scene nope"))
    }

    func testOneFailingDeviceFailsTheSceneAndCancelsTheRest() {
        transport.hold("/devices/lamp-1/state")
        transport.fail("/devices/thermo-1/state", with: .rejectedByDevice(code: 503))
        let cancelled = transport.expectCancel("/devices/lamp-1/state", in: self)
        XCTAssertEqual(result(of: engine.activate(evening))?.error, .rejectedByDevice(code: 503))
        wait(for: [cancelled], timeout: Self.patience)
    }

    func testCancellingAnActivationCancelsEveryChange() {
        transport.hold("/devices/")
        let sent = transport.expectRequest("/devices/", count: 2, in: self)
        let activation = engine.activate(evening)
        wait(for: [sent], timeout: Self.patience)
        let lamp = transport.expectCancel("/devices/lamp-1", in: self)
        let thermostat = transport.expectCancel("/devices/thermo-1", in: self)
        activation.requestCancel()
        wait(for: [lamp, thermostat], timeout: Self.patience)
        XCTAssertEqual(result(of: activation)?.isCancelled, true)
    }

    func testActivationTimesOut() {
        engine = SceneEngine(registry: registry, scenes: [evening], activationTimeout: 0.2)
        transport.hold("/devices/lamp-1/state")
        XCTAssertEqual(result(of: engine.activate(evening))?.error, .timedOut)
    }

    func testPreviewUsesTheCacheWhenTheHubFails() {
        transport.fail("/devices/lamp-1/state", with: .offline)
        let preview = result(of: engine.preview(evening))?.value
        XCTAssertEqual(preview?["lamp-1"]?.brightness, 30)
        XCTAssertEqual(preview?["lamp-1"]?.isOn, true)
        XCTAssertEqual(preview?["thermo-1"]?.targetTemperature, 21)
    }
}

final class AutomationSchedulerTests: XCTestCase {
    private var transport: FakeTransport!
    private var scheduler: AutomationScheduler!
    private let movie = HomeScene(id: "movie", name: "Movie", actions: [SceneAction(deviceID: "lamp-1", change: .power(false))])
    private let morning = HomeScene(id: "morning", name: "Morning", actions: [SceneAction(deviceID: "thermo-1", change: .targetTemperature(21))])

    override func setUp() {
        super.setUp()
        transport = FakeTransport()
        let registry = DeviceRegistry(transport: transport)
        Fixtures.all.forEach(registry.table.upsert)
        transport.reply("/devices/lamp-1/state", DeviceState(isOn: false))
        transport.reply("/devices/thermo-1/state", DeviceState(targetTemperature: 21))
        let engine = SceneEngine(registry: registry, scenes: [movie, morning])
        scheduler = AutomationScheduler(engine: engine, automations: [
            Automation(id: "a1", name: "Movie at 20:00", trigger: .time(hour: 20, minute: 0), sceneID: "movie"),
            Automation(id: "a2", name: "Broken at 20:00", trigger: .time(hour: 20, minute: 0), sceneID: "gone"),
            Automation(id: "a3", name: "Off", trigger: .time(hour: 7, minute: 0), sceneID: "morning", isEnabled: false),
            Automation(id: "a4", name: "Morning", trigger: .time(hour: 7, minute: 0), sceneID: "morning"),
        ])
    }

    func testRunReportsTheSceneAndCounts() {
        let run = result(of: scheduler.run(id: "a1"))?.value
        XCTAssertEqual(run?.automationID, "a1")
        XCTAssertEqual(run?.report.states["lamp-1"]?.isOn, false)
        XCTAssertEqual(scheduler.runCount, 1)
    }

    func testRunFailuresAreTyped() {
        XCTAssertEqual(result(of: scheduler.run(id: "a2"))?.error, .sceneMissing("gone"))
        XCTAssertEqual(result(of: scheduler.run(id: "a3"))?.error, .disabled("a3"))
        XCTAssertEqual(result(of: scheduler.run(id: "zz"))?.error, .sceneMissing("zz"))
        transport.fail("/devices/lamp-1/state", with: .offline)
        XCTAssertEqual(result(of: scheduler.run(id: "a1"))?.error, .failed(.offline))
    }

    func testTimeTriggeredRunsKeepOnlyTheSuccesses() {
        let runs = result(of: scheduler.runTimeTriggered(hour: 20, minute: 0))?.value
        XCTAssertEqual(runs?.map(\.automationID), ["a1"])
    }

    func testScheduledRunWaitsForItsDelay() {
        let automation = scheduler.automations["a4"]!
        let started = Date()
        let run = result(of: scheduler.schedule(automation, after: 0.1))
        XCTAssertEqual(run?.value?.automationID, "a4")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.09)
    }

    func testCancelAllStopsAScheduledRunBeforeItStarts() {
        let automation = scheduler.automations["a4"]!
        let run = scheduler.schedule(automation, after: 0.3)
        scheduler.cancelAll()
        XCTAssertEqual(result(of: run)?.isCancelled, true)
        XCTAssertEqual(transport.paths, [])
    }

    func testQueuedRunsGoOneAtATime() {
        transport.hold("/devices/lamp-1/state")
        let firstSent = transport.expectRequest("/devices/lamp-1/state", in: self)
        let first = scheduler.enqueue(scheduler.automations["a1"]!)
        let second = scheduler.enqueue(scheduler.automations["a4"]!)
        wait(for: [firstSent], timeout: Self.patience)
        // The second run has not started: its request is not sent while the first is pending.
        RunLoop.current.run(until: Date().addingTimeInterval(0.1))
        XCTAssertEqual(transport.paths, ["/devices/lamp-1/state"])
        XCTAssertNil(second.result)

        transport.releaseOldest()
        XCTAssertEqual(result(of: first)?.value?.automationID, "a1")
        XCTAssertEqual(result(of: second)?.value?.automationID, "a4")
        XCTAssertEqual(transport.paths, ["/devices/lamp-1/state", "/devices/thermo-1/state"])
    }

    func testSunsetsAreComputedOnFirstAccess() {
        let sunsets = result(of: scheduler.sunsets.promise)?.value
        XCTAssertEqual(sunsets?.count, 3)
        XCTAssertEqual(sunsets, sunsets?.sorted())
        XCTAssertTrue(scheduler.sunsets.promise == scheduler.sunsets.promise)
    }
}
