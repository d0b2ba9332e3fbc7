// Tomorrowland's side of the async scenarios (d)–(h) and the combinator scenario (j).
// They need the async bridge (issue 4) and `when` (issue 3); until those land this list is
// empty and BENCHMARKS.md marks the rows as pending.

import ScenarioKit
import TomorrowlandAsync

/// The Tomorrowland scenarios that need the async bridge or the combinators.
let tomorrowlandAsyncScenarios: [Scenario] = []
