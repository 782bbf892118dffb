import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `carchain evm run` and `carchain evm statetest`, run as a subprocess.
@Suite struct EVMCLITests {
    func carchain(_ arguments: [String]) throws -> ProcessRunner.Output? {
        guard let executable = ProcessRunner.carchainExecutable() else { return nil }
        return try ProcessRunner.run(executable, arguments)
    }

    @Test func runPrintsOutputAndGas() throws {
        guard let out = try carchain(["evm", "run", "--code", "0x60003560005260206000f3", "--input", "0x2a", "--json"])
        else { return }
        #expect(out.status == 0)
        #expect(out.stdout.contains("\"gasUsed\":\"0x15\""))
        #expect(out.stdout.contains("\"output\":\"0x2a00000000000000000000000000000000000000000000000000000000000000\""))
    }

    @Test func runTraceIsOneJSONObjectPerStep() throws {
        guard let out = try carchain(["evm", "run", "--code", "0x6001600201", "--trace"]) else { return }
        let lines = out.stdout.split(separator: "\n")
        #expect(out.status == 0)
        #expect(lines.count == 5)  // PUSH1, PUSH1, ADD, STOP (end of code), summary
        #expect(lines[2].contains("\"opName\":\"ADD\"") && lines[2].contains("\"stack\":[\"0x1\",\"0x2\"]"))
        #expect(lines[2].contains("\"gasCost\":\"0x3\"") && lines[2].contains("\"depth\":1"))
    }

    @Test func clearOneLineErrors() throws {
        guard let bad = try carchain(["evm", "run", "--code", "0xzz"]) else { return }
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("carchain: bad hex for --code"))
        #expect(bad.stderr.split(separator: "\n").count == 1)
        guard let fork = try carchain(["evm", "run", "--code", "0x00", "--fork", "Atlantis"]) else { return }
        #expect(fork.status == 1 && fork.stderr.hasPrefix("carchain: unknown fork Atlantis"))
        guard let missing = try carchain(["evm", "statetest", "/nonexistent/dir"]) else { return }
        #expect(missing.status == 1 && missing.stderr.hasPrefix("carchain: no such file or directory: /nonexistent/dir"))
    }

    /// A prestate file (burntpix.json's shape) with the call to make: PUSH0 SLOAD PUSH1 1 ADD PUSH0 MSTORE
    /// PUSH1 32 PUSH0 RETURN on slot 0 = 0x29 costs 2 + 2,100 (cold, EIP-2929) + 3 + 3 + 2 + 3 + 3 (one
    /// word of memory) + 3 + 2 + 0 = 2,121 gas under Cancun and returns 0x2a.
    @Test func runOnAPrestateFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-prestate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let contract = "0x00000000000000000000000000000000000000aa"
        let accounts = "{\"\(contract)\": {\"code\": \"0x5f546001015f5260205ff3\", \"storage\": {\"0x00\": \"0x29\"}}}"
        let bare = dir.appendingPathComponent("pre.json")
        try Data(accounts.utf8).write(to: bare)
        let full = dir.appendingPathComponent("call.json")
        try Data("{\"pre\": \(accounts), \"to\": \"\(contract)\", \"gas\": \"0x5208\"}".utf8).write(to: full)

        guard let out = try carchain(["evm", "run", "--prestate", full.path, "--json"]) else { return }
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("\"gasUsed\":\"0x849\""))
        #expect(out.stdout.contains("\"output\":\"0x000000000000000000000000000000000000000000000000000000000000002a\""))
        guard let explicit = try carchain(["evm", "run", "--prestate", bare.path, "--to", contract, "--json"]) else { return }
        #expect(explicit.status == 0 && explicit.stdout.contains("\"gasUsed\":\"0x849\""))
        // --bench: every run starts from the prestate, so every run pays the cold SLOAD.
        guard let bench = try carchain(["evm", "run", "--prestate", full.path, "--bench", "3", "--json"]) else { return }
        #expect(bench.status == 0 && bench.stdout.contains("\"gasUsed\":2121") && bench.stdout.contains("\"runs\":3"))

        guard let noTarget = try carchain(["evm", "run", "--prestate", bare.path]) else { return }
        #expect(noTarget.status == 1 && noTarget.stderr.hasPrefix("carchain: --prestate") && noTarget.stderr.contains("--to"))
        guard let missing = try carchain(["evm", "run", "--prestate", dir.appendingPathComponent("none.json").path]) else { return }
        #expect(missing.status == 1 && missing.stderr.hasPrefix("carchain: --prestate: cannot open"))
        try Data("{\"pre\": 1}".utf8).write(to: bare)
        guard let malformed = try carchain(["evm", "run", "--prestate", bare.path]) else { return }
        #expect(malformed.status == 1 && malformed.stderr.hasPrefix("carchain: bad --prestate"))
        #expect(malformed.stderr.split(separator: "\n").count == 1)
        guard let neither = try carchain(["evm", "run"]) else { return }
        #expect(neither.status == 1 && neither.stderr.hasPrefix("carchain: give --code, --prestate or both"))
    }

    @Test func statetestJSONLinesAndSummary() throws {
        guard let dir = ConformanceVectors.directory("Cancun/GeneralStateTests/stExample", suite: "statetest CLI") else {
            return
        }
        guard let out = try carchain(["evm", "statetest", dir.path, "--fork", "Cancun", "--json"]) else { return }
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(out.status == 0)
        let summary = try #require(lines.last)
        #expect(summary.hasSuffix("passed, 0 failed, 0 skipped"))
        let cases = lines.dropLast()
        #expect(!cases.isEmpty)
        for line in cases {
            let object = try JSONValue(parsing: line)
            #expect(object["fork"]?.stringValue == "Cancun")
            #expect(object["pass"]?.boolValue == true)
            #expect(object["stateRoot"]?.stringValue?.count == 66)
            #expect(object["name"]?.stringValue != nil && object["index"] != nil)
        }
    }
}
