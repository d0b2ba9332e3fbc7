// The handler of `Promise(on:_:)` runs on the given context: it cannot capture a
// non-Sendable object.
import Tomorrowland

final class Parser {
    var consumed = 0
    func parse() -> Int { consumed += 1; return consumed }
}

func parse(with parser: Parser) -> Promise<Int, String> {
    return Promise(on: .utility) { resolver in
        resolver.fulfill(with: parser.parse()) // expected-error: capture of 'parser' with non-Sendable type 'Parser'
    }
}
