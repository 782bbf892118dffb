import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `carchain` end to end against tools/pyevm-node.py: deployment, the seed's scenario with its reads, the
/// config file, JSON output, signers and fee types.
@Suite(.serialized) struct NodeScenarioCLITests {
    static let uid1 = "O6fLnMnVXAUWmxdIYatVNzaE31i1"
    static let uid2 = "I7ZgpBfkQTMaEcUrcNlrcjolez22"

    @Test func seedScenarioEndToEnd() throws {
        guard let cli = try NodeCLIHarness.start(for: "carchain node CLI tests") else { return }
        defer { cli.stop() }
        let deploy = try cli.succeed(["deploy"])
        #expect(deploy.hasPrefix("deployed CarChain (project) at 0x"))
        #expect(NodeCLIHarness.isTransactionLine(deploy, summary: String(deploy.prefix { $0 != ":" })))

        // The address is remembered per chain id.
        let config = try JSONValue(parsing: [UInt8](Data(contentsOf: cli.home.appendingPathComponent("config.json"))))
        let remembered = try #require(config["contracts"]?["4"]?.stringValue)
        #expect(deploy.contains(remembered))

        let uid1 = Self.uid1, uid2 = Self.uid2
        #expect(NodeCLIHarness.isTransactionLine(try cli.succeed(["user", "register", uid1]), summary: "registered user \(uid1)"))
        try cli.succeed(["user", "register", uid2])
        #expect(try cli.fail(["user", "register", uid1]) == "carchain: user already registered (checked before sending; nothing was sent)")
        for plate in ["6789BBB", "2353HYP", "5432TPK"] {
            #expect(NodeCLIHarness.isTransactionLine(try cli.succeed(["car", "register", plate]), summary: "registered car \(plate)"))
        }
        #expect(NodeCLIHarness.isTransactionLine(try cli.succeed(["credit", "add", uid1, "111"]), summary: "added 111 credit to \(uid1)"))
        try cli.succeed(["credit", "add", uid1, "5"])
        try cli.succeed(["credit", "add", uid2, "1"])
        #expect(NodeCLIHarness.isTransactionLine(try cli.succeed(["rent", "6789BBB", "--user", uid1]), summary: "rented car 6789BBB to \(uid1)"))
        #expect(try cli.fail(["rent", "2353HYP", "--user", uid1]).hasPrefix("carchain: user already renting a car"))
        try cli.succeed(["rent", "2353HYP", "--user", uid2])
        #expect(try cli.succeed(["stats"]) == "registered users: 2\nregistered cars:  3\nrented cars:      2\navailable cars:   1\n")
        #expect(NodeCLIHarness.isTransactionLine(try cli.succeed(["return", "2353HYP", "--user", uid2]), summary: "returned car 2353HYP from \(uid2)"))
        try cli.succeed(["return", "6789BBB", "--user", uid1])
        try cli.succeed(["rent", "6789BBB", "--user", uid1])
        #expect(try cli.succeed(["profile", uid1]) == "user:   \(uid1)\ncredit: 114\ncar:    6789BBB\n")
        try cli.succeed(["return", "6789BBB", "--user", uid1])
        #expect(try cli.fail(["rent", "6789BBB", "--user", uid2]).hasPrefix("carchain: insufficient credit"))
        #expect(try cli.fail(["return", "6789BBB", "--user", uid1]).hasPrefix("carchain: car not rented"))

        #expect(try cli.succeed(["profile", uid1]) == "user:   \(uid1)\ncredit: 114\ncar:    -\n")
        #expect(try cli.succeed(["profile", uid2]) == "user:   \(uid2)\ncredit: 0\ncar:    -\n")
        let stats = try JSONValue(parsing: try cli.succeed(["stats", "--json"]))
        #expect(stats == .object([
            ("availableCars", .string("3")), ("registeredCars", .string("3")), ("registeredUsers", .string("2")), ("rentedCars", .string("0")),
        ]))
    }

    @Test func jsonOutputSignersAndFeeTypes() throws {
        guard let cli = try NodeCLIHarness.start(for: "carchain node CLI tests") else { return }
        defer { cli.stop() }
        try cli.succeed(["deploy", "--tx-type", "eip1559"])
        try cli.succeed(["car", "register", "CAR1", "--plate-format", "any"])
        // Account 1 of the test mnemonic, from an environment variable: the id is bound to it.
        let key1 = ["K1": "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"]
        try cli.succeed(["user", "register", "bob", "--private-key-env", "K1"], environment: key1)
        try cli.succeed(["credit", "add", "bob", "3", "--dev-account", "1"])  // the same account, derived
        // No view shows that an account already has an id: the gas estimate finds the contract's reason.
        #expect(try cli.fail(["user", "register", "bob2", "--dev-account", "1"])
            == "carchain: registerNewUser would revert: account already has a user id (found by eth_estimateGas; nothing was sent)")
        // Another account (not the manager, not bob's) is refused before sending.
        #expect(try cli.fail(["rent", "CAR1", "--user", "bob", "--dev-account", "2"])
            == "carchain: not user's account or manager (checked before sending; nothing was sent)")
        let json = try cli.succeed(["rent", "CAR1", "--user", "bob", "--private-key-env", "K1", "--tx-type", "auto", "--json"], environment: key1)
        let report = try JSONValue(parsing: json)
        #expect(report["action"] == .string("rentCar"))
        #expect(report["status"] == .string("success"))
        #expect(report["transactionHash"]?.stringValue?.count == 66)
        let gasUsed = try #require(report["gasUsed"].flatMap { UInt64($0.description) })
        let price = try #require(report["effectiveGasPrice"]?.stringValue.flatMap(UInt256.init))
        #expect(report["feeWei"]?.stringValue == (UInt256(gasUsed) * price).description)
        let profile = try JSONValue(parsing: try cli.succeed(["profile", "bob", "--json"]))
        #expect(profile["credit"] == .string("2"))
        #expect(profile["car"] == .string("CAR1"))
        // Explicit legacy fees and gas limit.
        try cli.succeed(["return", "CAR1", "--user", "bob", "--gas-price", "3 gwei", "--gas-limit", "100000"])
    }

    @Test func seedArtifactDeploysAndWorks() throws {
        guard let seed = TestPaths.shared("seed-carchain/CarChain.json", what: "seed CarChain artifact") else { return }
        guard let cli = try NodeCLIHarness.start(for: "carchain node CLI tests") else { return }
        defer { cli.stop() }
        #expect(try cli.succeed(["deploy", "--artifact", seed.path]).hasPrefix("deployed CarChain (seed) at 0x"))
        try cli.succeed(["user", "register", Self.uid1])
        try cli.succeed(["car", "register", "6789BBB"])
        try cli.succeed(["credit", "add", Self.uid1, "2"])
        try cli.succeed(["rent", "6789BBB", "--user", Self.uid1])
        #expect(try cli.succeed(["profile", Self.uid1]) == "user:   \(Self.uid1)\ncredit: 1\ncar:    6789BBB\n")
        // The seed's reverts carry no reason; the checks still catch what its views show.
        #expect(try cli.fail(["rent", "6789BBB", "--user", "nobody"]).hasPrefix("carchain: user not registered"))
        #expect(try cli.fail(["rent", "NOPE", "--user", Self.uid1, "--no-precheck"]).hasPrefix("carchain: rentCar reverted on chain: no reason given"))
    }
}
