import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `carchain evm blocktest`, run as a subprocess: JSON lines and the summary on real fixtures, and on copies
/// altered in a temporary directory, a failure line that names what differs (the fixtures themselves are
/// never written).
@Suite struct BlockTestCLITests {
    static let root = "BlockchainTests-Prague/blockchain_tests/prague"

    func carchain(_ arguments: [String]) throws -> ProcessRunner.Output? {
        guard let executable = ProcessRunner.carchainExecutable() else { return nil }
        return try ProcessRunner.run(executable, arguments)
    }

    @Test func jsonLinesAndSummary() throws {
        guard let dir = ConformanceVectors.directory("\(Self.root)/eip7251_consolidations", suite: "blocktest CLI") else { return }
        guard let out = try carchain(["evm", "blocktest", dir.path, "--json"]) else { return }
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(out.status == 0)
        #expect(try #require(lines.last).hasSuffix("passed, 0 failed, 0 skipped"))
        #expect(lines.count > 1)
        for line in lines.dropLast() {
            let object = try JSONValue(parsing: line)
            #expect(object["fork"]?.stringValue == "Prague")
            #expect(object["pass"]?.boolValue == true)
            #expect(object["stateRoot"]?.stringValue?.count == 66)
        }
    }

    @Test func alteredFixturesFailNamingTheRule() throws {
        guard let dir = ConformanceVectors.directory(Self.root, suite: "blocktest CLI") else { return }
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("blocktest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temp) }

        // A wrong last block hash.
        var consolidations = try String(
            contentsOf: dir.appendingPathComponent("eip7251_consolidations/test_eip_7251.json"), encoding: .utf8)
        let key = "\"lastblockhash\":\""
        let start = try #require(consolidations.range(of: key)).upperBound
        let end = consolidations.index(start, offsetBy: 66)
        consolidations.replaceSubrange(start..<end, with: "0x" + String(repeating: "1", count: 64))
        try consolidations.write(to: temp.appendingPathComponent("last.json"), atomically: true, encoding: .utf8)
        guard let last = try carchain(["evm", "blocktest", temp.path, "--quiet"]) else { return }
        #expect(last.status == 1)
        #expect(last.stdout.contains("last block hash 0x"))
        #expect(last.stdout.contains("expected 0x" + String(repeating: "1", count: 64)))

        // An invalid block whose expectException is dropped: rejected, naming the rule.
        try FileManager.default.removeItem(at: temp.appendingPathComponent("last.json"))
        let requests = try String(
            contentsOf: dir.appendingPathComponent("eip7685_general_purpose_el_requests/test_invalid_multi_type_requests.json"),
            encoding: .utf8)
        let unexpected = requests.replacingOccurrences(of: "\"expectException\":\"BlockException.INVALID_REQUESTS\",", with: "")
        #expect(unexpected != requests)
        try unexpected.write(to: temp.appendingPathComponent("requests.json"), atomically: true, encoding: .utf8)
        guard let rejected = try carchain(["evm", "blocktest", temp.path, "--quiet"]) else { return }
        #expect(rejected.status == 1)
        #expect(rejected.stdout.contains("rejected: BlockException.INVALID_REQUESTS: requests hash"))
        #expect(!rejected.stdout.contains("\n0 failed"))

        guard let missing = try carchain(["evm", "blocktest", "/nonexistent/dir"]) else { return }
        #expect(missing.status == 1 && missing.stderr.hasPrefix("carchain: no such file or directory: /nonexistent/dir"))
        #expect(missing.stderr.split(separator: "\n").count == 1)
    }
}
