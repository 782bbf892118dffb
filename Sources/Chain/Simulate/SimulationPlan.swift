import EthereumPrimitives

/// The limits of one `eth_simulateV1` request beyond the node's call limits (geth's constants).
public enum SimulationLimits {
    /// The most blocks a request may simulate, counting the empty blocks that fill number gaps.
    public static let maxBlocks: UInt64 = 256
    /// The most calls in one block.
    public static let maxCallsPerBlock = 5_000
    /// The most calls in a request.
    public static let maxCalls = 10_000
    /// Seconds between two blocks whose time is not given.
    public static let timestampIncrement: UInt64 = 12
}

/// Checks a request's shape and orders its blocks, as geth's `sanitizeChain`: every block gets a number (the
/// previous + 1 unless given) and a time (the previous + 12 unless given), both strictly increasing; a gap in the
/// numbers is filled with empty blocks 12 seconds apart; at most ``SimulationLimits/maxBlocks`` after the base.
enum SimulationPlan {
    /// Refuses an empty request and one with too many blocks or calls, before any state is read.
    static func checkSize(_ request: SimulationRequest) throws(SimulationError) {
        if request.blocks.isEmpty { throw .invalidInput(code: -32602, "empty input") }
        if request.blocks.count > Int(SimulationLimits.maxBlocks) { throw .limitExceeded("too many blocks") }
        var total = 0
        for block in request.blocks {
            if block.calls.count > SimulationLimits.maxCallsPerBlock {
                throw .limitExceeded("too many calls in block: \(block.calls.count) > \(SimulationLimits.maxCallsPerBlock)")
            }
            total += block.calls.count
            if total > SimulationLimits.maxCalls {
                throw .limitExceeded("too many calls: \(total) > \(SimulationLimits.maxCalls)")
            }
        }
    }

    /// The blocks to build on a base block numbered `baseNumber` at `baseTime`, each with its number and time set.
    static func blocks(
        _ requested: [SimulatedBlockRequest], baseNumber: UInt64, baseTime: UInt64
    ) throws(SimulationError) -> [SimulatedBlockRequest] {
        var result: [SimulatedBlockRequest] = []
        var previousNumber = baseNumber
        var previousTime = baseTime
        for var block in requested {
            guard let next = previousNumber.addingWithoutOverflow(1) else {
                throw .invalidInput(code: -32602, "block number \(previousNumber) has no successor")
            }
            let number = block.overrides.number ?? next
            if number <= previousNumber { throw .blockNumberNotIncreasing(number, previous: previousNumber) }
            if number - baseNumber > SimulationLimits.maxBlocks { throw .limitExceeded("too many blocks") }
            // Empty blocks fill a gap (at most maxBlocks of them, checked just above).
            while previousNumber + 1 < number {
                previousNumber += 1
                previousTime = try nextTime(after: previousTime)
                var filler = SimulatedBlockRequest()
                filler.overrides.number = previousNumber
                filler.overrides.time = previousTime
                result.append(filler)
            }
            previousNumber = number
            block.overrides.number = number
            if let time = block.overrides.time {
                if time <= previousTime { throw .blockTimestampNotIncreasing(time, previous: previousTime) }
                previousTime = time
            } else {
                previousTime = try nextTime(after: previousTime)
                block.overrides.time = previousTime
            }
            result.append(block)
        }
        return result
    }

    private static func nextTime(after time: UInt64) throws(SimulationError) -> UInt64 {
        guard let next = time.addingWithoutOverflow(SimulationLimits.timestampIncrement) else {
            throw .invalidInput(code: -32602, "block timestamp \(time) + \(SimulationLimits.timestampIncrement) overflows")
        }
        return next
    }
}

extension UInt64 {
    /// `self + other`, or nil when it overflows.
    fileprivate func addingWithoutOverflow(_ other: UInt64) -> UInt64? {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? nil : sum
    }
}
