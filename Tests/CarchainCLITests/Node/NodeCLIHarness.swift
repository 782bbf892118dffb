import Foundation
import Testing
import TestSupport

/// Runs the built `carchain` against a tools/pyevm-node.py node with a private `$CARCHAIN_HOME`.
/// `start` returns nil (after a SKIPPED line) when the binary or the Python venv is missing.
final class NodeCLIHarness: @unchecked Sendable {
    let node: ProcessPyEVMNode
    let carchain: URL
    let home: URL

    private init(node: ProcessPyEVMNode, carchain: URL, home: URL) {
        self.node = node
        self.carchain = carchain
        self.home = home
    }

    static func start(_ nodeArguments: [String] = [], for what: String) throws -> NodeCLIHarness? {
        guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
        guard let node = try ProcessPyEVMNode.start(nodeArguments, for: what) else { return nil }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-home-\(UUID().uuidString)")
        return NodeCLIHarness(node: node, carchain: carchain, home: home)
    }

    /// Runs `carchain arguments` with `CARCHAIN_RPC` and `CARCHAIN_HOME` set (a per-command limit of 120 s).
    func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 120) throws -> TimedProcess.Outcome {
        let outcome = try TimedProcess.run(
            carchain, arguments,
            environment: ["CARCHAIN_RPC": node.url, "CARCHAIN_HOME": home.path].merging(environment) { _, new in new },
            timeout: timeout)
        #expect(!outcome.timedOut, "carchain \(arguments.joined(separator: " ")) timed out")
        return outcome
    }

    /// Runs a command that must succeed and returns its stdout.
    @discardableResult
    func succeed(_ arguments: [String], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let outcome = try run(arguments, environment: environment)
        #expect(outcome.status == 0, "carchain \(arguments.joined(separator: " ")) failed: \(outcome.stderr)", sourceLocation: sourceLocation)
        return outcome.stdout
    }

    /// Runs a command that must fail with exit status 1 and returns its one-line stderr.
    @discardableResult
    func fail(_ arguments: [String], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let outcome = try run(arguments, environment: environment)
        #expect(outcome.status == 1, "carchain \(arguments.joined(separator: " ")) should fail, got \(outcome.status): \(outcome.stdout)", sourceLocation: sourceLocation)
        let line = outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!line.contains("\n"), "expected one line on stderr, got: \(line)", sourceLocation: sourceLocation)
        return line
    }

    /// True when `line` is a transaction report: "<summary>: tx 0x…, block N, gas used G, fee F ETH".
    static func isTransactionLine(_ line: String, summary: String) -> Bool {
        let pattern = "^" + NSRegularExpression.escapedPattern(for: summary)
            + ": tx 0x[0-9a-f]{64}, block [0-9]+, gas used [0-9]+, fee [0-9.]+ ETH$"
        return line.trimmingCharacters(in: .whitespacesAndNewlines).range(of: pattern, options: .regularExpression) != nil
    }

    func stop() {
        node.stop()
        try? FileManager.default.removeItem(at: home)
    }

    deinit { stop() }
}
