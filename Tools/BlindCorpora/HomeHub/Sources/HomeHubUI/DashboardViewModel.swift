import Foundation
import Tomorrowland
import HomeHubCore

/// The dashboard: every device as a tile, the scenes as buttons.
@MainActor
public final class DashboardViewModel {
    public private(set) var state: LoadState<[DeviceTile]> = .idle
    public private(set) var isLoading = false
    public private(set) var lastError: HubError?
    public private(set) var pendingToggles: Set<DeviceID> = []
    public private(set) var lastScene: SceneActivationReport?
    /// What happened, in order; the debug overlay shows it.
    public private(set) var history: [String] = []

    private let hub: HomeHub
    private let token = PromiseInvalidationToken()
    /// Where results are handed to the view.
    private let delivery: PromiseContext = .main

    public init(hub: HomeHub) {
        self.hub = hub
    }

    /// Reloads every device. A reload in progress is silenced and cancelled.
    @discardableResult
    public func reload() -> HubPromise<[Device]> {
        token.invalidate()
        isLoading = true
        state = .loading
        history.append("reload")
        return hub.registry.refreshAll()
            .then(on: .main, token: token) { devices in
                self.state = .loaded(devices.map(DeviceTile.init))
                self.history.append("loaded \(devices.count)")
            }
            .catch(on: .ui, token: token) { error in
                self.lastError = error
                self.state = .failed(error)
                self.history.append("failed \(error)")
            }
            .always(on: .main) { _ in
                self.isLoading = false
            }
            .requestCancelOnInvalidate(token)
    }

    /// Switches a device on or off. The tile shows a spinner until the device answers.
    public func toggle(_ id: DeviceID) -> HubPromise<DeviceState> {
        history.append("toggle \(id)")
        pendingToggles.insert(id)
        return hub.registry.toggle(id: id)
            .then(on: delivery) { [weak self] state in
                self?.replaceTile(id) { device in device.state = state }
            }
            .always { [weak self] _ in
                self?.pendingToggles.remove(id)
                self?.history.append("toggled \(id)")
            }
    }

    /// Activates a scene and refreshes the tiles it touched.
    public func activateScene(id: String) -> HubPromise<SceneActivationReport> {
        history.append("scene \(id)")
        return hub.scenes.activate(sceneID: id)
            .then(on: .ui) { [weak self] report in
                guard let self = self else { return }
                self.lastScene = report
                for (deviceID, state) in report.states {
                    self.replaceTile(deviceID) { $0.state = state }
                }
            }
            .catch(on: .main) { [weak self] error in
                self?.lastError = error
            }
    }

    /// Sets a thermostat; the value is rounded to half degrees by the driver.
    public func setTemperature(_ degrees: Double, on id: DeviceID) -> HubPromise<DeviceState> {
        hub.registry.apply(.targetTemperature(degrees), to: id)
            .then(on: .main) { state in
                self.replaceTile(id) { $0.state = state }
            }
    }

    /// Stops whatever the dashboard is loading.
    public func cancelLoading() {
        token.invalidate()
        isLoading = false
        history.append("cancelled")
    }

    private func replaceTile(_ id: DeviceID, _ update: (inout Device) -> Void) {
        guard var device = hub.registry.table[id] else { return }
        update(&device)
        guard case .loaded(var tiles) = state, let index = tiles.firstIndex(where: { $0.id == id }) else { return }
        tiles[index] = DeviceTile(device)
        state = .loaded(tiles)
    }
}
