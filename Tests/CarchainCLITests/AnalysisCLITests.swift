import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `carchain gas-report` and `carchain simulate`, run as the built binary.
@Suite struct AnalysisCLITests {
    static func run(_ arguments: [String], timeout: Double = 300) throws -> TimedProcess.Outcome? {
        guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
        let outcome = try TimedProcess.run(carchain, arguments, timeout: timeout)
        #expect(!outcome.timedOut, "carchain \(arguments.joined(separator: " ")) timed out")
        return outcome
    }

    static func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text)
    }

    @Test func helpDescribesBothCommands() throws {
        guard let gas = try Self.run(["gas-report", "--help"]), let sim = try Self.run(["simulate", "--help"]) else { return }
        #expect(gas.status == 0)
        for needle in ["--scenario", "--seed-scenario", "--hardfork", "--gas-price", "--eth-price", "--format", "--compare", "Examples:"] {
            #expect(gas.stdout.contains(needle), "gas-report --help lacks \(needle)")
        }
        #expect(sim.status == 0)
        for needle in ["--seed", "--users", "--cars", "--steps", "--json", "--spec", "--runs", "--depth", "--replay", "Examples:"] {
            #expect(sim.stdout.contains(needle), "simulate --help lacks \(needle)")
        }
        guard let top = try Self.run(["--help"]) else { return }
        #expect(top.stdout.contains("gas-report") && top.stdout.contains("simulate"))
    }

    @Test func seedScenarioJSON() throws {
        guard let out = try Self.run(["gas-report", "--seed-scenario", "--format", "json", "--eth-price", "3000", "--steps"]) else { return }
        #expect(out.status == 0, "\(out.stderr)")
        let value = try Self.json(out.stdout)
        #expect(value["scenario"] == .string("seed-replay"))
        #expect(value["hardfork"] == .string("Cancun"))
        #expect(value["deployment"]?["gas"] == .number("1111249"))
        #expect(value["functions"]?["rentCar"]?["calls"] == .number("5"))
        #expect(value["functions"]?["rentCar"]?["max"] == .number("40988"))
        #expect(value["functions"]?["returnCar"]?["min"] == .number("25124"))
        #expect(value["steps"]?.arrayValue?.count == 18)
        #expect(value["pricing"]?["ethPrice"] == .string("3000"))
    }

    @Test func compareWithSeedArtifact() throws {
        guard let seed = TestPaths.shared("seed-carchain/CarChain.json", what: "seed artifact") else { return }
        guard let out = try Self.run(["gas-report", "--seed-scenario", "--compare", seed.path, "--format", "json"]) else { return }
        #expect(out.status == 0, "\(out.stderr)")
        let value = try Self.json(out.stdout)
        #expect(value["candidate"]?["deployment"]?["gas"] == .number("1111249"))
        #expect(value["baseline"]?["deployment"]?["gas"] == .number("1176506"))
        #expect(value["baseline"]?["contract"] == .string("seed"))
        // rentCar max: 40988 vs 82453.
        #expect(value["change"]?["functions"]?["rentCar"]?["max"] == .number("-50.29"))
        guard let table = try Self.run(["gas-report", "--seed-scenario", "--compare", seed.path]) else { return }
        #expect(table.status == 0)
        #expect(table.stdout.contains("project") && table.stdout.contains("seed") && table.stdout.contains("%"))
    }

    @Test func markdownFormat() throws {
        let busy = TestPaths.packageRoot.appendingPathComponent("testdata/scenarios/busy-day.json").path
        guard let out = try Self.run(["gas-report", "--scenario", busy, "--format", "markdown", "--gas-price", "2gwei"]) else { return }
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("| Function Name | Min | Avg | Median | Max | # Calls | Avg fee (ETH) |"))
        #expect(out.stdout.contains("Gas price 2 gwei"))
    }

    @Test func badScenarioFileFailsWithOneLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(String, String)] = [
            (#"{"accounts": {"manager": "dev:0"}, "steps": [{"op": "rentCar", "plate": "P"}]}"#,
             #"carchain: scenario bad.json: steps[0].userId: missing (rentCar needs a user id: "userId" or "user")"#),
            ("{\n  not json", "carchain: scenario bad.json is not valid JSON: invalid value at line 2, column 3"),
            (#"{"accounts": {"manager": "dev:0"}, "steps": [{"op": "registerNewCar", "plate": "P"}, {"op": "registerNewCar", "plate": "P", "expect": "success"}]}"#,
             "carchain: scenario bad: step 2 registerNewCar(\"P\") from manager: expected success, got reverted: car already registered"),
        ]
        for (text, expected) in cases {
            let file = dir.appendingPathComponent("bad.json")
            try Data(text.utf8).write(to: file)
            guard let out = try Self.run(["gas-report", "--scenario", file.path]) else { return }
            #expect(out.status == 1)
            let line = out.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!line.contains("\n"), "\(line)")
            #expect(line == expected)
            #expect(out.stdout.isEmpty)
        }
        guard let missing = try Self.run(["gas-report", "--scenario", dir.appendingPathComponent("none.json").path]) else { return }
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("carchain: --scenario: cannot open ") && missing.stderr.contains("none.json: No such file"))
        guard let both = try Self.run(["gas-report", "--scenario", "x.json", "--seed-scenario"]) else { return }
        #expect(both.status == 1)
        #expect(both.stderr.contains("not both"))
        guard let fork = try Self.run(["gas-report", "--hardfork", "london"]) else { return }
        #expect(fork.status == 1)
        #expect(fork.stderr.contains("needs cancun or later"))
        let notArtifact = TestPaths.packageRoot.appendingPathComponent("Package.swift").path
        guard let artifact = try Self.run(["gas-report", "--compare", notArtifact]) else { return }
        #expect(artifact.status == 1)
        #expect(artifact.stderr == "carchain: --compare \(notArtifact): invalid CarChain artifact: not valid JSON\n")
        guard let price = try Self.run(["gas-report", "--eth-price", "lots"]) else { return }
        #expect(price.status == 1)
        #expect(price.stderr.contains("invalid ETH price"))
    }

    @Test func simulateIsDeterministicAcrossProcesses() throws {
        let arguments = ["simulate", "--seed", "7", "--users", "4", "--cars", "3", "--steps", "60", "--json"]
        guard let first = try Self.run(arguments), let second = try Self.run(arguments) else { return }
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        let a = try Self.json(first.stdout)
        let b = try Self.json(second.stdout)
        #expect(a["stateRoot"] != nil)
        #expect(a["stateRoot"] == b["stateRoot"])
        #expect(a["gasReport"] == b["gasReport"])
        #expect(a["agreed"] == .bool(true))
        #expect(a["blockNumber"] == .number("61"))
        // Not a terminal: no progress bar on stderr.
        #expect(first.stderr.isEmpty)
        guard let text = try Self.run(["simulate", "--seed", "7", "--users", "4", "--cars", "3", "--steps", "60"]) else { return }
        #expect(text.status == 0)
        #expect(text.stdout.contains("Simulated 60 steps (seed 7, 4 users, 3 cars) on Cancun"))
        #expect(text.stdout.contains(a["stateRoot"]?.stringValue ?? "missing"))
        guard let bad = try Self.run(["simulate", "--seed", "1", "--users", "0"]) else { return }
        #expect(bad.status == 1)
        #expect(bad.stderr == "carchain: --users must be 1 to 1000, got 0 (see --help)\n")
    }
}
