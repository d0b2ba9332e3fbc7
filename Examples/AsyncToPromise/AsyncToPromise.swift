// AsyncToPromise: new async functions handed to old promise-based code.
//
// `StdPromise<Value> { try await … }` runs the operation in a new Task (inheriting priority and
// task-local values, like `Task {}`) and resolves with its outcome. A cancel request that
// reaches the promise cancels that Task; an operation that throws `CancellationError` cancels
// the promise instead of rejecting it.

import Foundation
import TomorrowlandAsync

struct Forecast: Sendable {
    var city: String
    var celsius: Int
}

enum WeatherError: Error {
    case unknownCity(String)
}

/// New code: async.
func forecast(for city: String) async throws -> Forecast {
    try await Task.sleep(for: .milliseconds(20))
    guard city != "Atlantis" else { throw WeatherError.unknownCity(city) }
    return Forecast(city: city, celsius: city.count + 10)
}

/// New code that takes a while, and notices cancellation through `Task.sleep`.
func slowForecast(for city: String) async throws -> Forecast {
    try await Task.sleep(for: .seconds(10))
    return try await forecast(for: city)
}

/// Old code: takes promises, registers callbacks.
enum WeatherWidget {
    static func show(_ forecast: StdPromise<Forecast>, done: @escaping @Sendable () -> Void) {
        forecast.then(on: .main) { forecast in
            print("  widget: \(forecast.city) \(forecast.celsius) °C")
        }.catch(on: .main) { error in
            print("  widget: error \(error)")
        }.onCancel(on: .main) {
            print("  widget: cancelled")
        }.always(on: .main) { _ in
            done()
        }
    }
}

@main
enum AsyncToPromise {
    static func main() async {
        print("1. An async function as a promise, consumed with then/catch.")
        await shown(StdPromise<Forecast> { try await forecast(for: "Lisbon") })

        print("2. A thrown error rejects the promise.")
        await shown(StdPromise<Forecast> { try await forecast(for: "Atlantis") })

        print("3. requestCancel() on the promise cancels the Task running the operation.")
        let slow = StdPromise<Forecast> { try await slowForecast(for: "Oslo") }
        slow.requestCancel()
        await shown(slow)

        print("4. On a context: the operation prefers that context's executor.")
        await shown(StdPromise<Forecast>(on: .utility) { try await forecast(for: "Kyoto") })
    }

    /// Hands `promise` to the old widget and waits until it has shown something.
    static func shown(_ promise: StdPromise<Forecast>) async {
        await withCheckedContinuation { continuation in
            WeatherWidget.show(promise) { continuation.resume() }
        }
    }
}
