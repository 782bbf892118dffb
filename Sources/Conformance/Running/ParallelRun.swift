import Dispatch
import Foundation

/// Runs work items on `workers` threads and hands results back in input order on the calling thread (so
/// a long conformance run can print as it goes, deterministically).
public enum ParallelRun {
    /// Runs `work` on every input, calling `completed` with the number done so far and each output, in order.
    public static func forEach<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], workers: Int, _ work: @escaping @Sendable (Input) -> Output,
        completed: (_ done: Int, _ output: Output) -> Void
    ) {
        let state = ResultsBuffer<Output>(count: inputs.count)
        let queue = DispatchQueue(label: "carchain.statetest", attributes: .concurrent)
        let group = DispatchGroup()
        for _ in 0..<min(workers, inputs.count) {
            queue.async(group: group) {
                while let index = state.claim() { state.store(work(inputs[index]), at: index) }
            }
        }
        var next = 0
        while next < inputs.count {
            let output = state.waitFor(next)
            next += 1
            completed(next, output)
        }
        group.wait()
    }
}

/// Results filled in by workers, consumed in order by one reader.
final class ResultsBuffer<Output: Sendable>: @unchecked Sendable {
    private var results: [Output?]
    private var nextToClaim = 0
    private let condition = NSCondition()

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard nextToClaim < results.count else { return nil }
        nextToClaim += 1
        return nextToClaim - 1
    }

    func store(_ output: Output, at index: Int) {
        condition.lock()
        results[index] = output
        condition.broadcast()
        condition.unlock()
    }

    func waitFor(_ index: Int) -> Output {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let output = results[index] {
                results[index] = nil
                return output
            }
            condition.wait()
        }
    }
}
