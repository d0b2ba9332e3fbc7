import Foundation

/// When an automation fires.
public enum AutomationTrigger: Codable, Equatable, Sendable {
    /// Every day at this local time.
    case time(hour: Int, minute: Int)
    /// At sunset, shifted by `offset` seconds.
    case sunset(offset: TimeInterval)
    /// When a sensor's reading goes above `threshold`.
    case sensorAbove(DeviceID, threshold: Double)
}

/// "At sunset, activate Evening".
public struct Automation: Codable, Equatable, Sendable, Identifiable {
    public let id: String
    public var name: String
    public var trigger: AutomationTrigger
    public var sceneID: String
    public var isEnabled: Bool

    public init(id: String, name: String, trigger: AutomationTrigger, sceneID: String, isEnabled: Bool = true) {
        self.id = id
        self.name = name
        self.trigger = trigger
        self.sceneID = sceneID
        self.isEnabled = isEnabled
    }
}

/// One run of an automation.
public struct AutomationRun: Equatable, Sendable {
    public let automationID: String
    public let startedAt: Date
    public let report: SceneActivationReport

    public init(automationID: String, startedAt: Date, report: SceneActivationReport) {
        self.automationID = automationID
        self.startedAt = startedAt
        self.report = report
    }
}

/// Why an automation did not run.
public enum AutomationError: Error, Equatable, Sendable {
    case disabled(String)
    case sceneMissing(String)
    case conditionNotMet
    case failed(HubError)
}
