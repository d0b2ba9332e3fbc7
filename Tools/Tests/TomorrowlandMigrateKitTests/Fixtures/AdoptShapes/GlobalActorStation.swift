import Foundation
import Tomorrowland

@globalActor
actor RobotActor {
    static let shared = RobotActor()
}

/// A class on a custom global actor whose callbacks touch its state off that actor: on a named
/// queue and on `.main` (the main actor is not its actor either).
@RobotActor
final class Robot {
    private(set) var lastLabel: String?
    private(set) var done: [String] = []

    func print(_ promise: Promise<String, Never>) -> Promise<String, Never> {
        done.append("start")
        return promise
            .map(on: .utility) { label in
                self.lastLabel = label
                return label
            }
            .then(on: .main) { label in
                _ = self.done.count
            }
    }
}
