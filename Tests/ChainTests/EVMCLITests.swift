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
