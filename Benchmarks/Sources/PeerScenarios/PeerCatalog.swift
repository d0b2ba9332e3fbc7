// Every peer scenario, in issue order.

import ScenarioKit

/// The peers' scenarios: NIO, OpenCombine, raw Swift concurrency, Dispatch.
public let peerScenarios: [Scenario] = nioScenarios + openCombineScenarios + concurrencyScenarios + dispatchExecutorScenarios + pendingAwaitPeerScenarios + taskBridgeFloorScenarios + machineReferenceScenarios
