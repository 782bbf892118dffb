import EthereumPrimitives
import Foundation

/// Pass/fail/skip counts of a state-test run, overall and per fork (as the files name them).
public struct StateTestTally: Sendable {
    public internal(set) var passed = 0
    public internal(set) var failed = 0
    public internal(set) var skipped = 0
    public internal(set) var byFork: [String: (passed: Int, failed: Int, skipped: Int)] = [:]

    public init() {}

    /// Counts one case.
    public mutating func record(_ result: StateTestCaseResult) {
        var row = byFork[result.fork] ?? (0, 0, 0)
        if result.skipped {
            skipped += 1
            row.skipped += 1
        } else if result.pass {
            passed += 1
            row.passed += 1
        } else {
            failed += 1
            row.failed += 1
        }
        byFork[result.fork] = row
    }


    /// `N passed, M failed, K skipped`: the last line of every conformance run.
    public var summary: String { "\(passed) passed, \(failed) failed, \(skipped) skipped" }

    /// One line per fork in fork order: name, passed/total, percentage, failed, skipped.
    public func table() -> [String] {
        let order = byFork.keys.sorted { a, b in
            let fa = Hardfork(name: a)?.rawValue ?? Int.max
            let fb = Hardfork(name: b)?.rawValue ?? Int.max
            return fa == fb ? a < b : fa < fb
        }
        return order.map { fork in
            let row = byFork[fork] ?? (0, 0, 0)
            let total = row.passed + row.failed + row.skipped
            let percent = total == 0 ? 100 : Double(row.passed) * 100 / Double(total)
            let name = fork.padding(toLength: max(18, fork.count), withPad: " ", startingAt: 0)
            return name
                + String(format: " %6d / %6d  %7.3f%%  (%d failed, %d skipped)", row.passed, total, percent, row.failed, row.skipped)
        }
    }
}

