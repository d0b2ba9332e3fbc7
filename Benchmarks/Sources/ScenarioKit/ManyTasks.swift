// ManyTasks: n calls spread over many concurrent Tasks, for the throughput scenario (g-many).

/// How many Tasks `fromManyTasks` starts.
public let manyTasksCount = 16

/// Makes `n` calls `call(i)` for `i` in `0 ..< n`, spread over `manyTasksCount` child Tasks
/// running at the same time (Task `t` makes the calls `t, t + manyTasksCount, …`), and
/// checks that the results add up to `0 + 1 + … + (n - 1)`. Returns that sum.
public func fromManyTasks(_ n: Int, _ call: @escaping @Sendable (Int) async -> Int) async -> Int {
    let sum = await withTaskGroup(of: Int.self) { group in
        for task in 0..<manyTasksCount {
            group.addTask {
                var sum = 0
                for i in stride(from: task, to: n, by: manyTasksCount) { sum &+= await call(i) }
                return sum
            }
        }
        var sum = 0
        for await partial in group { sum &+= partial }
        return sum
    }
    precondition(sum == expectedTally(n), "fromManyTasks: calls added up to \(sum), expected \(expectedTally(n))")
    return sum
}
