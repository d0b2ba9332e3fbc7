// BENCHMARKS.md, "`yieldingAfter`": swiftc -O -parse-as-library -swift-version 6 yielding-after.swift -o bench
// then `./bench actor-plain|actor-yield|nonisolated-plain|nonisolated-yield 20000`, rounds interleaved.
import Foundation
extension Task where Success == Never, Failure == Never {
    @inlinable
    public static func yieldingAfter<T, E: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(E) -> T
    ) async throws(E) -> T {
        let result: Result<T, E>
        do { result = .success(try await operation()) } catch { result = .failure(error) }
        await Task.yield()
        return try result.get()
    }
}
@inline(never) func resolved(_ i: Int) async throws -> Int { i }
actor Store {
    var total = 0
    func plain(_ i: Int) async throws -> Int { let v = try await resolved(i); total += v; return v }
    func yielding(_ i: Int) async throws -> Int { let v = try await Task.yieldingAfter { try await resolved(i) }; total += v; return v }
    func run(_ n: Int, yielding y: Bool) async throws {
        for i in 0..<n {
            let t = y ? Task.immediate { try await self.yielding(i) } : Task.immediate { try await self.plain(i) }
            _ = try await t.value
        }
    }
}
func nonisolatedPlain(_ i: Int) async throws -> Int { try await resolved(i) }
nonisolated(nonsending) func nonisolatedYielding(_ i: Int) async throws -> Int { try await Task.yieldingAfter { try await resolved(i) } }
@main struct B {
    static func main() async throws {
        let args = CommandLine.arguments
        let mode = args[1]; let n = Int(args[2])!
        let s = Store()
        let start = DispatchTime.now().uptimeNanoseconds
        switch mode {
        case "actor-plain": try await s.run(n, yielding: false)
        case "actor-yield": try await s.run(n, yielding: true)
        case "nonisolated-plain": for i in 0..<n { _ = try await Task.immediate { try await nonisolatedPlain(i) }.value }
        case "nonisolated-yield": for i in 0..<n { _ = try await Task.immediate { try await nonisolatedYielding(i) }.value }
        default: fatalError()
        }
        let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)
        print(mode, String(format: "%.0f ns/op", ns))
    }
}
