import EthereumContracts
import EthereumTesting
import Foundation
import Testing
import TestSupport

/// A scenario of any contract (docs/SCENARIOS.md) — CarChain's committed artifact and the bank compiled by the venv's
/// vyper, calls by signature with typed arguments from named accounts, a revert reason and a custom error expected —
/// gives the same gas three ways: on EthereumTesting's bench, from `carchain gas-report --scenario` in process, and
/// from `carchain gas-report --scenario --rpc` against a `carchain node` process, whose receipts are read back over HTTP.
@Suite(.serialized) struct ScenarioGasTests {
    /// Writes the scenario and the bank's artifact into `dir`; returns the scenario file.
    static func writeScenario(in dir: URL, bank: ContractArtifact) throws -> URL {
        let artifact: JSONValue = .object([
            ("contractName", .string("Bank")), ("abi", bank.abiJSON), ("bytecode", .string(Hex.encode(try #require(bank.bytecode)))),
            ("deployedBytecode", .string(Hex.encode(bank.deployedBytecode ?? []))),
        ])
        try Data(artifact.description.utf8).write(to: dir.appendingPathComponent("Bank.json"))
        let carchain = TestPaths.packageRoot.appendingPathComponent("contracts/CarChain.json").path
        let scenario = """
            {
              "name": "two-contracts",
              "description": "CarChain and the bank side by side: storage from zero and non-zero, refusals, a custom error.",
              "accounts": {"owner": "dev:0", "alice": "dev:1", "bob": "0x0202020202020202020202020202020202020202020202020202020202020202"},
              "deployer": "owner",
              "steps": [
                {"deploy": "CarChain", "artifact": "\(carchain)"},
                {"deploy": "Bank", "artifact": "Bank.json", "args": [0]},
                {"call": "CarChain.registerNewCar(string)", "args": ["CAR-1"]},
                {"call": "CarChain.registerNewUser", "args": ["alice"], "from": "alice"},
                {"call": "CarChain.addCredit(string,uint256)", "args": ["alice", "5"], "from": "alice"},
                {"call": "CarChain.rentCar(string,string)", "args": ["CAR-1", "alice"], "from": "alice", "expect": "success"},
                {"call": "CarChain.rentCar(string,string)", "args": ["CAR-1", "alice"], "from": "alice", "expect": {"revert": "car already rented"}},
                {"call": "Bank.deposit(uint256)", "args": [100], "from": "alice"},
                {"call": "Bank.deposit(uint256)", "args": [50], "from": "bob"},
                {"call": "Bank.move(address,uint256)", "args": ["bob", 30], "from": "alice"},
                {"call": "Bank.withdraw(uint256)", "args": [71], "from": "alice",
                 "expect": {"error": "InsufficientBalance(uint256,uint256)", "args": [70, 71]}},
                {"call": "Bank.withdraw(uint256)", "args": [70], "from": "alice", "label": "all of it", "expect": "success"}
              ]
            }
            """
        let url = dir.appendingPathComponent("two-contracts.json")
        try Data(scenario.utf8).write(to: url)
        return url
    }

    /// Runs `carchain` on a thread of its own (not the test pool's).
    static func carchain(_ executable: URL, _ arguments: [String]) async throws -> TimedProcess.Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try TimedProcess.run(executable, arguments, timeout: 300) })
            }
        }
    }

    @Test func benchCLIAndNodeReceiptsAgree() async throws {
        guard let bank = try await TestContracts.bank() else { return }
        guard let executable = ProcessRunner.carchainExecutable() else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-gas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.writeScenario(in: dir, bank: bank)

        // 1. EthereumTesting: the scenario on the bench, its snapshot as the bench writes it.
        let scenario = try ContractScenario(contentsOf: file)
        #expect(scenario.contracts.map(\.name) == ["CarChain", "Bank"])
        let t = try await TestChain(hardfork: .cancun)
        defer { Task { await t.close() } }
        let run = try await scenario.run(on: t)
        #expect(run.steps.count == 12 && run.steps.filter { !$0.succeeded }.count == 2)
        let benchSnapshot = await t.gasSnapshot().text
        let benchGas = t.transactions.map(\.outcome.gasUsed)
        #expect(benchGas == run.steps.map(\.outcome.gasUsed))
        #expect(benchSnapshot.contains("Bank:withdraw@Cancun (calls: 2, "), "\(benchSnapshot)")
        #expect(benchSnapshot.contains("CarChain:rentCar@Cancun (calls: 2, "), "\(benchSnapshot)")

        // 2. The CLI in process: the same snapshot, byte for byte; its check passes against it.
        let snapshot = dir.appendingPathComponent(".gas-snapshot").path
        let local = try await Self.carchain(executable, ["gas-report", "--scenario", file.path, "--hardfork", "cancun", "--snapshot", snapshot])
        #expect(local.status == 0, "\(local.stderr)")
        #expect(local.stdout.contains("Bank contract") && local.stdout.contains("CarChain contract"), "\(local.stdout)")
        #expect(try String(contentsOfFile: snapshot, encoding: .utf8) == benchSnapshot)
        let checked = try await Self.carchain(executable, ["gas-report", "--scenario", file.path, "--check", snapshot])
        #expect(checked.status == 0, "\(checked.stderr)")

        // 3. Against a carchain node process: the report, and each step's receipt read back over HTTP.
        let home = dir.appendingPathComponent("home")
        let node = try BackgroundProcess(executable, ["node", "--port", "0", "--ephemeral", "--hardfork", "cancun"], home: home)
        defer { node.stop() }
        let url = try #require(node.waitFor("listening on "), "carchain node did not start: \(node.stderr)").trimmingCharacters(in: .whitespaces)
        let remoteSnapshot = dir.appendingPathComponent("node.gas-snapshot").path
        let remote = try await Self.carchain(
            executable, ["gas-report", "--scenario", file.path, "--rpc", url, "--snapshot", remoteSnapshot, "--steps", "--format", "json"])
        #expect(remote.status == 0, "\(remote.stderr)")
        // The node's keys have no @Cancun (its fork is its own); otherwise every line is the bench's.
        let nodeLines = try String(contentsOfFile: remoteSnapshot, encoding: .utf8)
        #expect(nodeLines == benchSnapshot.replacingOccurrences(of: "@Cancun", with: ""))
        let document = try JSONValue(parsing: remote.stdout)
        let steps = try #require(document["steps"]?.arrayValue)
        #expect(steps.count == benchGas.count)
        let client = try RPCClient(url: url)
        for (index, (step, gas)) in zip(steps, benchGas).enumerated() {
            let hash = try Bytes32(hex: try #require(step["transactionHash"]?.stringValue))
            let receipt = try #require(try await client.receipt(hash), "step \(index + 1): no receipt for \(hash)")
            #expect(receipt.gasUsed == gas, "step \(index + 1): the node's receipt says \(receipt.gasUsed), the bench \(gas)")
            #expect(step["gasUsed"] == .number(String(gas)), "step \(index + 1)")
        }

        // A wrong expectation is one line naming the step, and exit 1.
        let wrong = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"args\": [70, 71]", with: "\"args\": [70, 72]")
        try Data(wrong.utf8).write(to: file)
        let failed = try await Self.carchain(executable, ["gas-report", "--scenario", file.path])
        #expect(failed.status == 1)
        #expect(
            failed.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                == "carchain: scenario two-contracts: step 11 Bank.withdraw(uint256) from alice: expected error "
                + "InsufficientBalance(uint256,uint256)(70, 72), got reverted with InsufficientBalance(70, 71)",
            "\(failed.stderr)")
    }
}

extension ScenarioGasTests {
    /// Malformed scenarios are refused before anything runs, each with one message naming the file and the field.
    @Test func malformedScenariosNameTheField() throws {
        let carchain = TestPaths.packageRoot.appendingPathComponent("contracts/CarChain.json").path
        let deploy = #"{"deploy": "CarChain", "artifact": "\#(carchain)"}"#
        let cases: [(String, String)] = [
            (#"{"accounts": {"a": "dev:10"}, "steps": [\#(deploy)]}"#, #"accounts.a: "dev:10": dev accounts are dev:0 to dev:9"#),
            (#"{"accounts": {"a": "0x12"}, "steps": [\#(deploy)]}"#, #"accounts.a: expected "dev:N" or a 0x-prefixed 32-byte private key"#),
            (#"{"accounts": {"a": "dev:0", "b": "dev:1"}, "steps": [\#(deploy)]}"#, #"deployer: missing (name the account that sends steps without "from")"#),
            (#"{"accounts": {"a": "dev:0"}, "steps": [{"call": "Vault.deposit(uint256)", "args": [1]}]}"#,
             #"steps[0].call: no earlier step deploys "Vault" (nothing is deployed before it)"#),
            (#"{"accounts": {"a": "dev:0"}, "steps": [\#(deploy), {"call": "CarChain.rentCar", "args": ["x"]}]}"#,
             "steps[1].args: expected 2 argument(s), got 1"),
            (#"{"accounts": {"a": "dev:0"}, "steps": [\#(deploy), {"call": "CarChain.fly", "args": []}]}"#,
             "steps[1].call: the ABI has no function fly"),
            (#"{"accounts": {"a": "dev:0"}, "steps": [\#(deploy), {"call": "CarChain.registerNewCar", "args": ["x"], "expect": {"error": "E(uint256)", "args": []}}]}"#,
             "steps[1].expect.args: E(uint256) takes 1 argument(s), got 0"),
            (#"{"accounts": {"a": "dev:0"}, "gasLimits": {"call": 1e9}, "steps": [\#(deploy)]}"#,
             "gasLimits.call: expected a whole number of gas from 21000 to 30000000"),
            (#"{"accounts": {"a": "dev:0"}, "steps": [\#(deploy), {"call": "CarChain.registerNewCar", "args": ["x"], "value": "1.5wei"}]}"#,
             "steps[1].value: "),
            (#"{"accounts": {"a": "dev:0"}, "steps": [{"deploy": "CarChain", "artifact": "missing.json"}]}"#, "steps[0].artifact: missing.json: "),
        ]
        for (text, message) in cases {
            let document = try JSONValue(parsing: text)
            do {
                _ = try ContractScenario(document: document, source: "bad.json", defaultName: "bad", directory: URL(fileURLWithPath: "/nonexistent"))
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.hasPrefix("scenario bad.json: " + message), "\(error.description)")
            }
        }
    }
}
