import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `carchain simulate --spec` on any contract: testdata/simulations' specs next to their contracts compiled by the
/// venv's vyper — snekmate's ERC-20, whose supply invariant holds, and Examples/ContractTests' FeeVault, whose planted
/// bug the simulation finds, shrinks and prints as a replay that fails the same way.
@Suite(.serialized) struct SimulateSpecCLITests {
    /// A directory with both specs and both artifacts (ERC20Token.json, FeeVault.json); nil without the venv.
    static func workspace() throws -> URL? {
        guard let python = PythonVenv.python(for: "simulate --spec CLI tests") else { return nil }
        let located = try ProcessRunner.run(python, ["-c", "import os, snekmate; print(os.path.dirname(list(snekmate.__path__)[0]))"])
        guard located.status == 0 else {
            Prerequisite.missing("simulate --spec CLI tests (snekmate is not installed in the venv; run make venv)")
            return nil
        }
        let sitePackages = located.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-simulate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let root = TestPaths.packageRoot
        let sources = [
            ("ERC20Token.json", "testdata/contracts/snekmate/ERC20Token.vy"), ("FeeVault.json", "Examples/ContractTests/contracts/FeeVault.vy"),
        ]
        for (artifact, source) in sources {
            let json = try PythonVenv.vyper(root.appendingPathComponent(source).path, sitePackages: sitePackages)
            try Data(json.utf8).write(to: directory.appendingPathComponent(artifact))
        }
        for spec in ["erc20-supply.json", "feevault-books.json"] {
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("testdata/simulations/\(spec)"), to: directory.appendingPathComponent(spec))
        }
        return directory
    }

    /// `carchain simulate` with `arguments`, whose file names (`--spec`, `--replay`) are in `directory`.
    static func run(_ arguments: [String], in directory: URL) throws -> TimedProcess.Outcome? {
        guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
        var resolved = arguments
        for index in resolved.indices.dropFirst() where ["--spec", "--replay"].contains(resolved[index - 1]) {
            resolved[index] = directory.appendingPathComponent(resolved[index]).path
        }
        let outcome = try TimedProcess.run(carchain, ["simulate"] + resolved, timeout: 300)
        #expect(!outcome.timedOut, "carchain simulate \(arguments.joined(separator: " ")) timed out")
        return outcome
    }

    @Test func erc20SupplyHoldsAndTheFeeVaultBugIsFoundShrunkAndReplayed() throws {
        guard let directory = try Self.workspace() else { return }
        defer { try? FileManager.default.removeItem(at: directory) }

        // snekmate's ERC-20: 20 sequences of up to 40 steps; every invariant holds, some calls revert (mints by
        // non-minters, transfers above balances), and no progress bar is drawn when stderr is not a terminal.
        guard let erc20 = try Self.run(["--spec", "erc20-supply.json", "--runs", "20", "--depth", "40", "--seed", "7", "--json"], in: directory)
        else { return }
        #expect(erc20.status == 0, "\(erc20.stderr)")
        #expect(erc20.stderr.isEmpty, "\(erc20.stderr)")
        let summary = try JSONValue(parsing: erc20.stdout)
        #expect(summary["held"] == .bool(true))
        #expect(summary["seed"] == .number("7"))
        #expect(summary["sequences"] == .number("20"))
        #expect(summary["invariants"]?.arrayValue?.count == 3)
        func number(_ value: JSONValue?) -> Int {
            guard case .number(let text)? = value else { return 0 }
            return Int(text) ?? 0
        }
        let calls = number(summary["calls"])
        let reverts = number(summary["reverts"])
        #expect(calls >= 200, "\(calls) calls")
        #expect(reverts > 0 && reverts < calls, "\(reverts) of \(calls) reverted")

        // FeeVault: the books break; the failure is shrunk to a deposit, a wait and a withdrawal of at least 100 by one
        // actor, printed with its seed, and the command exits 1 with one line on stderr.
        guard let vault = try Self.run(["--spec", "feevault-books.json", "--seed", "3"], in: directory) else { return }
        #expect(vault.status == 1)
        let errorLines = vault.stderr.split(separator: "\n")
        #expect(errorLines.count == 1, "\(vault.stderr)")
        #expect(vault.stderr.hasPrefix("carchain: simulation feevault-books: invariant the books balance broken: Vault.total() is "), "\(vault.stderr)")
        #expect(vault.stderr.contains("(seed 3; the replay is printed above)"), "\(vault.stderr)")
        #expect(vault.stdout.contains("Simulated feevault-books on Cancun (seed 3): an invariant broke"), "\(vault.stdout)")
        #expect(vault.stdout.contains("shrunk from"))
        #expect(vault.stdout.contains("try await invariants.replay(["), "\(vault.stdout)")
        let lines = vault.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("Replay file") }, "\(vault.stdout)")
        let replayText = try #require(lines.indices.contains(header + 1) ? lines[header + 1] : nil)
        let replay = try JSONValue(parsing: replayText)
        #expect(replay["seed"] == .number("3"))
        let steps = try #require(replay["steps"]?.arrayValue)
        // The smallest failing sequence: a deposit, a wait past the lock, and a withdrawal of 100 or more (the fee
        // needs 100), all three needed.
        #expect(steps.count == 3, "\(replayText)")
        #expect(steps.map { $0["action"]?.stringValue } == ["Vault.deposit(uint256)", "wait", "Vault.withdraw(uint256)"], "\(replayText)")
        #expect(steps[0]["actor"] == steps[2]["actor"], "\(replayText)")
        let withdrawal = steps[2]["call"]?.stringValue ?? ""
        let amount = Int(withdrawal.drop { $0 != "(" }.dropFirst().split(separator: "(").last?.dropLast() ?? "") ?? 0
        #expect(amount >= 100, "\(withdrawal)")

        // The printed replay fails the same way; without its last step it holds.
        try replayText.write(to: directory.appendingPathComponent("replay.json"), atomically: true, encoding: .utf8)
        guard let replayed = try Self.run(["--spec", "feevault-books.json", "--replay", "replay.json"], in: directory) else { return }
        #expect(replayed.status == 1)
        #expect(replayed.stderr.hasPrefix("carchain: simulation feevault-books: replay replay.json: invariant the books balance broken: "), "\(replayed.stderr)")
        #expect(replayed.stderr.hasSuffix(" after 3 steps\n"), "\(replayed.stderr)")
        #expect(replayed.stdout.contains("an invariant broke after step 3 of 3"), "\(replayed.stdout)")
        let shorter = JSONValue.object([("steps", .array(Array(steps.prefix(2))))])
        try shorter.description.write(to: directory.appendingPathComponent("shorter.json"), atomically: true, encoding: .utf8)
        guard let held = try Self.run(["--spec", "feevault-books.json", "--replay", "shorter.json", "--json"], in: directory) else { return }
        #expect(held.status == 0, "\(held.stderr)")
        #expect(try JSONValue(parsing: held.stdout)["held"] == .bool(true))

        // The same seed finds and shrinks the same sequence (in a second process, as JSON).
        guard let again = try Self.run(["--spec", "feevault-books.json", "--seed", "3", "--json"], in: directory) else { return }
        #expect(again.status == 1)
        let document = try JSONValue(parsing: again.stdout)
        #expect(document["held"] == .bool(false))
        #expect(document["failure"]?["replay"] == replay, "\(again.stdout)")
    }

    @Test func badSpecsAndOptionsFailWithOneLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-simulate-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // An artifact with the Bank-like ABI only matters for parsing: the errors below come before anything runs.
        let artifact = #"{"abi": [{"type": "function", "name": "total", "inputs": [], "outputs": [{"name": "", "type": "uint256"}], "stateMutability": "view"}, {"type": "function", "name": "put", "inputs": [{"name": "amount", "type": "uint256"}], "outputs": [], "stateMutability": "nonpayable"}], "bytecode": "0x00"}"#
        try artifact.write(to: directory.appendingPathComponent("Thing.json"), atomically: true, encoding: .utf8)
        let head = #""accounts": {"a": "dev:0"}, "steps": [{"deploy": "T", "artifact": "Thing.json"}], "actors": ["a"]"#
        let cases: [(String, [String], String)] = [
            (#"{\#(head), "actions": [{"call": "T.put(uint256)", "args": [{"range": [5, 1]}]}], "invariants": [{"call": "T.total()", "equals": 0}]}"#, [],
             "carchain: simulation spec bad.json: actions[0].args[0].range: the lowest value 5 is above the highest 1\n"),
            (#"{\#(head), "actions": [{"call": "T.put(uint256)", "args": ["$who"]}], "invariants": [{"call": "T.total()", "equals": 0}]}"#, [],
             #"carchain: simulation spec bad.json: actions[0].args[0]: "$who": the generators are "$actor" and "$target" (write a literal $ as {"oneOf": ["$who"]})"# + "\n"),
            (#"{\#(head), "actions": [{"call": "T.put(uint256)", "args": [1]}], "invariants": [{"call": "T.total()", "equals": 0, "atMost": 1}]}"#, [],
             #"carchain: simulation spec bad.json: invariants[0]: give exactly one of "equals", "atMost", "atLeast" or "succeeds""# + "\n"),
            (#"{\#(head), "actions": [{"call": "T.put(uint256)", "args": [1]}], "invariants": [{"call": "T.total()", "equals": {"sum": "T.total()"}}]}"#, [],
             "carchain: simulation spec bad.json: invariants[0].equals.sum: total(): a sum needs a view of one address (such as balanceOf(address))\n"),
            (#"{\#(head), "actions": [{"call": "U.put(uint256)", "args": [1]}], "invariants": [{"call": "T.total()", "equals": 0}]}"#, [],
             #"carchain: simulation spec bad.json: actions[0].call: no earlier step deploys "U" (deployed: T)"# + "\n"),
            (#"{\#(head), "actions": [{"call": "T.put(uint256)", "args": [1]}], "invariants": [{"call": "T.total()", "equals": 0}], "ators": 1}"#, [],
             "carchain: simulation spec bad.json: (document): unknown field \"ators\" (expected one of accounts, actions, actors, deployer, depth, description, gasLimits, invariants, name, runs, steps)\n"),
            ("{}", ["--users", "3"], "carchain: --users applies to the CarChain simulation (without --spec) (see --help)\n"),
            ("{}", ["--replay", "r.json", "--seed", "1"], "carchain: --seed applies to random runs, not --replay (a replay's steps are fixed) (see --help)\n"),
            ("{}", ["--runs", "0"], "carchain: --runs must be 1 to 1000000, got 0 (see --help)\n"),
        ]
        for (text, options, expected) in cases {
            try text.write(to: directory.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
            guard let out = try Self.run(["--spec", "bad.json"] + options, in: directory) else { return }
            #expect(out.status == 1)
            #expect(out.stderr == expected)
        }
        // CarChain's simulation still needs its seed; the spec's options need --spec.
        guard let noSeed = try Self.run([], in: directory), let runs = try Self.run(["--seed", "1", "--runs", "5"], in: directory) else { return }
        #expect(noSeed.status == 1)
        #expect(noSeed.stderr == "carchain: --seed is required (or give --spec FILE to simulate any contract) (see --help)\n")
        #expect(runs.stderr == "carchain: --runs applies to --spec only (see --help)\n")
    }
}
