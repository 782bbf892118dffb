import Foundation
import Testing
import TestSupport

/// Every refusal with its message — found before sending (no gas spent) and, with --no-precheck, decoded
/// from the on-chain revert — and the node failures: a wrong chain id, a dead node, a hanging node.
@Suite(.serialized) struct NodeFailureCLITests {
    /// Each case: the command, and the contract's reason (contracts/README.md, RULES).
    static let refusals: [(arguments: [String], reason: String)] = [
        (["user", "register", ""], "empty user id"),
        (["user", "register", String(repeating: "u", count: 129)], "user id too long"),
        (["user", "register", "alice"], "user already registered"),
        (["car", "register", "CAR2", "--plate-format", "any", "--dev-account", "1"], "caller is not the manager"),
        (["car", "register", "", "--plate-format", "any"], "empty plate"),
        (["car", "register", String(repeating: "P", count: 32), "--plate-format", "any"], "plate too long"),
        (["car", "register", "-", "--plate-format", "any"], "plate \"-\" is reserved"),
        (["car", "register", "CAR1", "--plate-format", "any"], "car already registered"),
        (["credit", "add", "alice", "5", "--dev-account", "2"], "not user's account or manager"),
        (["credit", "add", "nobody", "5"], "user not registered"),
        (["rent", "NOPE", "--user", "alice"], "car not registered"),
        (["rent", "CAR1", "--user", "broke"], "car already rented"),
        (["rent", "CAR3", "--user", "nobody"], "user not registered"),
        (["rent", "CAR3", "--user", "broke"], "insufficient credit"),
        (["rent", "CAR3", "--user", "alice"], "user already renting a car"),
        (["return", "NOPE", "--user", "alice"], "car not registered"),
        (["return", "CAR3", "--user", "alice"], "car not rented"),
        (["return", "CAR1", "--user", "nobody"], "user not registered"),
        (["return", "CAR1", "--user", "broke"], "car rented by another user"),
        (["rent", "CAR3", "--user", "alice", "--dev-account", "3"], "not user's account or manager"),
    ]

    @Test func everyRefusalBeforeSendingAndOnChain() throws {
        guard let cli = try NodeCLIHarness.start(for: "carchain node CLI tests") else { return }
        defer { cli.stop() }
        try cli.succeed(["deploy"])
        for plate in ["CAR1", "CAR3"] { try cli.succeed(["car", "register", plate, "--plate-format", "any"]) }
        try cli.succeed(["user", "register", "alice"])
        try cli.succeed(["user", "register", "broke"])
        try cli.succeed(["credit", "add", "alice", "2"])
        try cli.succeed(["rent", "CAR1", "--user", "alice"])
        let stats = try cli.succeed(["stats", "--json"])

        for (arguments, reason) in Self.refusals {
            let checked = try cli.fail(arguments)
            #expect(checked == "carchain: \(reason) (checked before sending; nothing was sent)", "\(arguments)")
        }
        #expect(try cli.succeed(["stats", "--json"]) == stats)

        // The same calls sent anyway: the chain refuses them with the same reason, decoded from the revert.
        // (Reasons the ABI layer gives without data — none here — would read "no reason given".)
        for (arguments, reason) in Self.refusals {
            let line = try cli.fail(arguments + ["--no-precheck"])
            let function = ["user": "registerNewUser", "car": "registerNewCar", "credit": "addCredit", "rent": "rentCar", "return": "returnCar"][arguments[0]] ?? "?"
            #expect(line.hasPrefix("carchain: \(function) reverted on chain: \(reason) (tx 0x"), "\(arguments): \(line)")
            #expect(line.range(of: #"block [0-9]+, gas used [0-9]+, fee [0-9.]+ ETH\)$"#, options: .regularExpression) != nil, "\(line)")
        }
        #expect(try cli.succeed(["stats", "--json"]) == stats)
    }

    @Test func commandLineMistakes() throws {
        guard let cli = try NodeCLIHarness.start(for: "carchain node CLI tests") else { return }
        defer { cli.stop() }
        for amount in ["0", "1000", "1.5", "1e2", "+5", "abc", "0012"] {
            let line = try cli.fail(["credit", "add", "alice", amount])
            #expect(line.contains("AMOUNT must be a whole number from 1 to 999"), "\(amount): \(line)")
        }
        #expect(try cli.fail(["stats"]) == "carchain: no contract for chain 4: run `carchain deploy` or give --contract ADDRESS")
        #expect(try cli.fail(["stats", "--contract", "0x5FbDB2315678afecb367f032d93F642f64180aa3"])
            == "carchain: no contract at 0x5FbDB2315678afecb367f032d93F642f64180aa3 on chain 4 (nothing deployed there on this node)")
        #expect(try cli.fail(["rent", "X", "--user", "u", "--tx-type", "fast"]).contains("--tx-type must be legacy, eip1559 or auto"))
        // Without a node URL the embedded chain (in $CARCHAIN_HOME/chain) answers.
        let embedded = try cli.succeed(["stats"], environment: ["CARCHAIN_RPC": ""])
        #expect(embedded.hasPrefix("registered users: 0\n"))
        #expect(try cli.fail(["stats", "--rpc", "ftp://x"]).contains("the scheme must be http or https"))
    }

    @Test func wrongChainIDIsRefusedBeforeSigning() throws {
        guard let cli = try NodeCLIHarness.start(["--chain-id", "5"], for: "carchain node CLI tests") else { return }
        defer { cli.stop() }
        let line = try cli.fail(["deploy", "--private-key-env", "K"], environment: ["K": "0x" + String(repeating: "01", count: 32)])
        #expect(line == "carchain: the node at \(cli.node.url) is on chain id 5, not the expected 4; refusing to sign (use --chain-id 5 if that chain is intended)")
        // With the right chain id it works (chain 5 is not a dev chain id, but the node says it is a dev node).
        #expect(try cli.succeed(["deploy", "--chain-id", "5"]).contains("on chain 5"))
    }

    @Test func deadNodeFailsClearlyWithinTheTimeout() throws {
        guard let cli = try NodeCLIHarness.start(for: "carchain node CLI tests") else { return }
        cli.stop()
        // A port bound by nobody's server: connections are refused while `refusing` lives.
        let refusing = try #require(RefusingPort())
        let port = refusing.port
        defer { withExtendedLifetime(refusing) {} }
        let outcome = try cli.run(["stats", "--rpc", "http://127.0.0.1:\(port)", "--timeout", "3"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("carchain: cannot reach the node at http://127.0.0.1:\(port) (eth_chainId): connection refused"), "\(outcome.stderr)")
        #expect(outcome.seconds < 10, "took \(outcome.seconds) s")
    }

    @Test func hangingNodeFailsClearlyWithinTheTimeout() throws {
        guard let cli = try NodeCLIHarness.start(["--hang"], for: "carchain node CLI tests") else { return }
        defer { cli.stop() }
        let outcome = try cli.run(["rent", "CAR1", "--user", "alice", "--timeout", "2"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "carchain: the node at \(cli.node.url) did not answer eth_chainId: no answer within 2 s\n", "\(outcome.stderr)")
        #expect(outcome.seconds < 10, "took \(outcome.seconds) s")
    }
}
