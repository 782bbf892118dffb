import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `carchain deploy --artifact`, `call`, `send`, `logs` and `bindgen` on any contract: snekmate's ERC-20 (compiled
/// by the venv's vyper, combined_json) on the embedded chain, cast-style signatures and ABI-named functions, JSON
/// output, decoded events and reverts, and one-line errors for bad input.
@Suite(.serialized) struct ContractCommandsCLITests {
    /// snekmate's ERC-20 through the wrapper, as `vyper -f combined_json` writes it; nil when the venv is missing.
    static func compileToken(into directory: URL) throws -> URL? {
        guard let python = PythonVenv.python(for: "contract CLI tests") else { return nil }
        let located = try ProcessRunner.run(python, ["-c", "import os, snekmate; print(os.path.dirname(list(snekmate.__path__)[0]))"])
        guard located.status == 0 else {
            Prerequisite.missing("contract CLI tests (snekmate is not installed in the venv; run make venv)")
            return nil
        }
        let sitePackages = located.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let source = TestPaths.packageRoot.appendingPathComponent("testdata/contracts/snekmate/ERC20Token.vy").path
        let out = try ProcessRunner.run(PythonVenv.directory.appendingPathComponent("bin/vyper"), ["-p", sitePackages, source, "-f", "combined_json"])
        #expect(out.status == 0, "vyper: \(out.stderr)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("token.json")
        try Data(out.stdout.utf8).write(to: file)
        return file
    }

    @Test func anyContractFromTheCommandLine() throws {
        guard let home = EmbeddedCLITests.Home() else { return }
        guard let artifact = try Self.compileToken(into: home.directory) else { return }
        let alice = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"  // dev account 1
        // Deploy with constructor arguments, as JSON.
        let deployed = try JSONValue(parsing: try home.succeed([
            "deploy", "--artifact", artifact.path, "Snek Token", "SNEK", "18", "Snek Token", "1", "--json",
        ]))
        let token = try #require(deployed["contractAddress"]?.stringValue)
        #expect(deployed["contract"]?.stringValue == "ERC20Token")
        // Mint (dev account 0 is the owner and minter), by a cast-style signature; the event decoded with --abi.
        let minted = try home.succeed(["send", token, "mint(address,uint256)", alice, "1000", "--abi", artifact.path])
        #expect(minted.contains("event Transfer(sender=0x0000000000000000000000000000000000000000, receiver=\(alice), value=1000)"), "\(minted)")
        // Transfer from alice by name (the ABI resolves it), JSON receipt.
        let sent = try JSONValue(parsing: try home.succeed([
            "send", token, "transfer", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "250", "--abi", artifact.path, "--dev-account", "1", "--json",
        ]))
        #expect(sent["status"]?.stringValue == "success")
        #expect(sent["events"]?.arrayValue?.first?["args"]?["value"]?.stringValue == "250")
        // Calls: cast-style outputs, a human-readable signature, an ABI name with --json.
        #expect(try home.succeed(["call", token, "balanceOf(address)(uint256)", alice]) == "750\n")
        #expect(try home.succeed(["call", token, "function symbol() view returns (string)"]) == "\"SNEK\"\n")
        let supply = try JSONValue(parsing: try home.succeed(["call", token, "totalSupply", "--abi", artifact.path, "--json"]))
        #expect(supply["values"] == .array([.string("1000")]))
        // At the mint's block (CarChain is block 1 on a new embedded chain, the token 2, the mint 3).
        #expect(try home.succeed(["call", token, "balanceOf(address)(uint256)", alice, "--block", "3"]) == "1000\n")
        #expect(try home.succeed(["call", token, "balanceOf(address)(uint256)", alice, "--block", "2"]) == "0\n")
        // Logs: every event, one event with an indexed filter, and an event given by its signature alone.
        let all = try home.succeed(["logs", token, "--abi", artifact.path])
        #expect(all.contains("OwnershipTransferred(") && all.components(separatedBy: ": Transfer(").count == 3, "\(all)")
        let toAlice = try JSONValue(parsing: try home.succeed([
            "logs", token, "--abi", artifact.path, "--event", "Transfer", "--topic", "*", "--topic", alice, "--json",
        ]))
        #expect(toAlice.arrayValue?.count == 1 && toAlice.arrayValue?.first?["args"]?["value"]?.stringValue == "1000")
        let bySignature = try home.succeed(["logs", token, "--event", "Transfer(address indexed sender, address indexed receiver, uint256 value)"])
        #expect(bySignature.split(separator: "\n").count == 2, "\(bySignature)")
        // A revert is one line with the contract's reason; nothing is sent.
        let refused = try home.fail(["send", token, "transfer(address,uint256)", alice, "5000", "--dev-account", "2"])
        #expect(refused.hasPrefix("carchain: transfer(address,uint256) reverted: erc20: transfer amount exceeds balance"), "\(refused)")
        // Bad input: one line each.
        #expect(try home.fail(["call", token, "balanceOf(address)(uint256)"]).contains("takes 1 argument, got 0"))
        #expect(try home.fail(["call", token, "balanceOf(address)(uint256)", "0x12"]).contains("argument 1 (address)"))
        #expect(try home.fail(["call", token, "nope", "--abi", artifact.path]).contains("the ABI has no function \"nope\""))
        #expect(try home.fail(["call", "0xnothex", "totalSupply()(uint256)"]).contains("ADDRESS"))
        #expect(try home.fail(["logs", token]).contains("give --abi FILE"))
        #expect(try home.fail(["deploy", "--artifact", artifact.path, "too", "few"]).contains("takes 5 arguments, got 2"))
        // Bindings for the same artifact.
        let out = home.directory.appendingPathComponent("gen")
        let generated = try home.succeed(["bindgen", artifact.path, "--out", out.path, "--access", "internal"])
        #expect(generated.hasPrefix("ERC20Token: "))
        let source = try String(contentsOf: out.appendingPathComponent("ERC20Token.swift"), encoding: .utf8)
        #expect(source.contains("struct ERC20Token: Sendable") && !source.contains("public struct") && source.contains("static let bytecode"))
        #expect(try home.fail(["bindgen", artifact.path, "--out", out.path, "--access", "open"]).contains("--access must be public or internal"))
    }
}
