/// Runs `operation` on every element of `inputs` in child tasks, at most `limit` at once, and hands
/// each result to `received` as it comes (in completion order, with the input's index). `received`
/// returns the limit for the launches that follow, so a caller can grow or shrink it as answers
/// come in. The first error thrown cancels the rest and is rethrown.
///
/// The one bounded launcher of the package: paging reads and playlist refreshes both use it.
/// - Returns: the most tasks that were in flight at once.
package func withBoundedTaskGroup<Input: Sendable, Output: Sendable>(
    over inputs: [Input], limit: Int,
    isolation: isolated (any Actor)? = #isolation,
    operation: @escaping @Sendable (Input) async throws -> Output,
    received: (_ index: Int, _ output: Output) async throws -> Int
) async throws -> Int {
    var peak = 0
    try await withThrowingTaskGroup(of: (Int, Output).self) { group in
        var limit = max(1, limit)
        var next = 0
        var inFlight = 0
        func launchWhileAllowed() {
            while inFlight < limit, next < inputs.count {
                let index = next
                let input = inputs[index]
                next += 1
                inFlight += 1
                group.addTask { (index, try await operation(input)) }
            }
            peak = max(peak, inFlight)
        }
        launchWhileAllowed()
        while let (index, output) = try await group.next() {
            inFlight -= 1
            limit = max(1, try await received(index, output))
            launchWhileAllowed()
        }
    }
    return peak
}
