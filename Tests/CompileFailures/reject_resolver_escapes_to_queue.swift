// The resolver of a promise with a non-Sendable value is not Sendable either.
import Dispatch
import Tomorrowland

final class Frame {
    var pixels: [UInt8] = []
}

func render() -> Promise<Frame, String> {
    let (promise, resolver) = Promise<Frame, String>.makeWithResolver()
    DispatchQueue.global().async {
        resolver.fulfill(with: Frame()) // expected-error: capture of 'resolver' with non-Sendable type 'Promise<Frame, String>.Resolver'
    }
    return promise
}
