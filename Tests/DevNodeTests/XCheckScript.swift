import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// Runs a `tools/xcheck/*.py` script — a real client (web3.py, eth-account, websockets) driving a node — with
/// `request` as JSON on stdin, records each failed check as an issue, prints the tally under `suite` and returns
/// the counts. The scripts print `{"checks": [{"name", "ok", "detail"}]}`.
enum XCheckScript {
    static func run(
        _ script: String, python: URL, request: [String: String], suite: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (passed: Int, total: Int) {
        let path = TestPaths.packageRoot.appendingPathComponent("tools/xcheck/\(script)").path
        let output = try await ProcessRunner.run(python, [path], stdin: try JSONSerialization.data(withJSONObject: request))
        #expect(output.status == 0, "\(script) failed: \(output.stderr)", sourceLocation: sourceLocation)
        let result = try JSONValue(parsing: output.stdout)
        let checks = try #require(result["checks"]?.arrayValue, sourceLocation: sourceLocation)
        var passed = 0
        for check in checks {
            if check["ok"] == .bool(true) {
                passed += 1
            } else {
                Issue.record(
                    "\(suite) check failed: \(check["name"]?.stringValue ?? "?"): \(check["detail"]?.stringValue ?? "")",
                    sourceLocation: sourceLocation)
            }
        }
        print("\(suite): \(passed) passed, \(checks.count - passed) failed, 0 skipped")
        if let figures = result["figures"], figures != .object([]) { print("\(suite) figures: \(figures)") }
        return (passed, checks.count)
    }
}
