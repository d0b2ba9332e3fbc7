import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

final class DriverTests: XCTestCase {
    private var transport: FakeTransport!
    private var factory: DriverFactory!

    override func setUp() {
        super.setUp()
        transport = FakeTransport()
        factory = DriverFactory(transport: transport)
    }

    private func sentChange() -> StateChange? {
        transport.requests.last?.body.flatMap { try? JSONDecoder().decode(StateChange.self, from: $0) }
    }

    func testTheFactoryPicksTheSubclass() {
        XCTAssertTrue(factory.driver(for: Fixtures.lamp) is LightDriver)
        XCTAssertTrue(factory.driver(for: Fixtures.thermostat) is ThermostatDriver)
        XCTAssertTrue(factory.driver(for: Fixtures.lock) is LockDriver)
        XCTAssertTrue(factory.driver(for: Fixtures.sensor) is SensorDriver)
    }

    func testLightClampsBrightness() {
        transport.reply("/devices/lamp-1/state", DeviceState(isOn: true, brightness: 100))
        let driver = factory.driver(for: Fixtures.lamp)
        XCTAssertEqual(result(of: driver.apply(.brightness(250)))?.value?.brightness, 100)
        XCTAssertEqual(sentChange(), .brightness(100))
    }

    func testLightRejectsATemperature() {
        let driver = factory.driver(for: Fixtures.lamp)
        guard case .unsupported? = result(of: driver.apply(.targetTemperature(20)))?.error else {
            return XCTFail("expected .unsupported")
        }
        XCTAssertEqual(transport.paths, [])
    }

    func testThermostatRoundsToHalfDegreesAndChecksTheRange() {
        transport.reply("/devices/thermo-1/state", DeviceState(targetTemperature: 21.5))
        let driver = factory.driver(for: Fixtures.thermostat)
        XCTAssertEqual(result(of: driver.apply(.targetTemperature(21.4)))?.value?.targetTemperature, 21.5)
        XCTAssertEqual(sentChange(), .targetTemperature(21.5))
        XCTAssertEqual(result(of: driver.apply(.targetTemperature(35)))?.error, .unsupported("target 35.0 °C"))
    }

    func testLockVerifiesThePINBeforeUnlocking() {
        transport.reply("/locks/lock-1/verify", PinVerdict(accepted: true, attemptsLeft: 3))
        transport.reply("/devices/lock-1/state", DeviceState(isLocked: false))
        let driver = factory.driver(for: Fixtures.lock)
        XCTAssertEqual(result(of: driver.apply(.lock(false, pin: "1234")))?.value?.isLocked, false)
        XCTAssertEqual(transport.paths, ["/locks/lock-1/verify", "/devices/lock-1/state"])
    }

    func testLockWithAWrongPINStaysLocked() {
        transport.reply("/locks/lock-1/verify", PinVerdict(accepted: false, attemptsLeft: 2))
        let driver = factory.driver(for: Fixtures.lock)
        XCTAssertEqual(result(of: driver.apply(.lock(false, pin: "0000")))?.error, .unauthorized)
        XCTAssertEqual(transport.paths, ["/locks/lock-1/verify"])
        XCTAssertEqual(result(of: driver.apply(.lock(false, pin: nil)))?.error, .unauthorized)
    }

    func testLockingNeedsNoPIN() {
        transport.reply("/devices/lock-1/state", DeviceState(isLocked: true))
        let driver = factory.driver(for: Fixtures.lock)
        XCTAssertEqual(result(of: driver.apply(.lock(true, pin: nil)))?.value?.isLocked, true)
        XCTAssertEqual(transport.paths, ["/devices/lock-1/state"])
    }

    func testSensorFallsBackToItsCachedReadingWhenAsleep() {
        transport.fail("/devices/sensor-1/state", with: .offline)
        let driver = factory.driver(for: Fixtures.sensor)
        XCTAssertEqual(result(of: driver.readState())?.value, Fixtures.sensor.state)

        transport.fail("/devices/sensor-1/state", with: .unauthorized)
        XCTAssertEqual(result(of: driver.readState())?.error, .unauthorized)
        XCTAssertEqual(result(of: driver.apply(.power(true)))?.error, .unsupported("sensors are read-only"))
    }

    func testLockIdentifyBeepsAfterWakingUp() {
        transport.replyRaw("/devices/lock-1/identify", Data())
        let driver = factory.driver(for: Fixtures.lock)
        XCTAssertNotNil(result(of: driver.identify())?.value)
        XCTAssertEqual(transport.paths, ["/devices/lock-1/identify"])
    }
}
