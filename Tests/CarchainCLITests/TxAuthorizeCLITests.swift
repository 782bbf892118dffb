import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `carchain tx authorize` and `carchain tx sign --type 4`, byte for byte against eth-account
/// (tools/xcheck/eth_account_authorization.py and eth_account_tx.py), and their one-line errors.
@Suite struct TxAuthorizeCLITests {
    typealias Sandbox = TxWalletCLITests.Sandbox
    static let key = TxWalletCLITests.key

    /// (chain id, delegate, nonce): any-chain and chain-bound, the zero address (clears a delegation), the
    /// largest nonce and chain id the options accept.
    /// And 20 random ones (SplitMix64, seed 7702).
    static let authorizations: [(UInt64, String, UInt64)] = {
        var fixed: [(UInt64, String, UInt64)] = [
            (4, "0x5FbDB2315678afecb367f032d93F642f64180aa3", 0),
            (0, "0x1111111111111111111111111111111111111111", 7),
            (1, "0x0000000000000000000000000000000000000000", UInt64.max - 1),
            (UInt64.max / 2 - 36, "0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef", 1 << 32),
            (31337, "0x00000000000000000000000000000000000000ff", 255),
        ]
        var random = SplitMix64(seed: 7702)
        for i in 0..<20 {
            let chain = i % 3 == 0 ? 0 : random.next() % (UInt64.max / 2 - 36)
            let address = "0x" + random.bytes(20).map { String(format: "%02x", $0) }.joined()
            let nonce = i % 2 == 0 ? random.next() % 1000 : random.next() % (UInt64.max - 1)
            fixed.append((chain, address, nonce))
        }
        return fixed
    }()

    static func hex(_ n: UInt64) -> String { "0x" + String(n, radix: 16) }

    func python(_ script: String, _ request: [String: Any]) throws -> [JSONValue]? {
        guard let python = PythonVenv.python(for: "eth-account cross-check of carchain tx authorize") else { return nil }
        let input = try JSONSerialization.data(withJSONObject: request)
        return try JSONValue(parsing: Array(PythonVenv.run(python, script: "xcheck/\(script)", input: input)))["results"]?.arrayValue
    }

    @Test func authorizeMatchesEthAccount() throws {
        guard let box = try Sandbox() else { return }
        defer { box.remove() }
        let cases = Self.authorizations.map { chain, address, nonce in
            ["key": Self.key, "chainId": Self.hex(chain), "address": address, "nonce": Self.hex(nonce)]
        }
        guard let expected = try python("eth_account_authorization.py", ["cases": cases]) else { return }
        #expect(expected.count == cases.count)
        var matched = 0
        for ((chain, address, nonce), reference) in zip(Self.authorizations, expected) {
            let base = ["tx", "authorize", "--chain-id", String(chain), "--address", address, "--nonce", String(nonce), "--private-key-env", "PK"]
            let plain = try box.run(base)
            #expect(plain.status == 0, "\(plain.stderr)")
            let json = try JSONValue(parsing: plain.stdout)
            for field in ["chainId", "address", "nonce", "yParity", "r", "s"] {
                #expect(json[field] == reference[field], "\(field) of authorization (\(chain), \(address), \(nonce))")
            }
            let rlp = try box.run(base + ["--hex"])
            #expect(rlp.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == reference["rlp"]?.stringValue)
            let full = try JSONValue(parsing: try box.run(base + ["--json"]).stdout)
            #expect(full["authority"]?.stringValue?.lowercased() == reference["authority"]?.stringValue)
            #expect(full["signingHash"] == reference["signingHash"])
            if json["r"] == reference["r"], json["s"] == reference["s"], rlp.stdout.contains(reference["rlp"]?.stringValue ?? "-") { matched += 1 }
        }
        print("TxAuthorizeEthAccount: \(matched) passed, \(cases.count - matched) failed, 0 skipped")
    }

    @Test func typeFourSignMatchesEthAccount() throws {
        guard let box = try Sandbox() else { return }
        defer { box.remove() }
        let to = "0x3535353535353535353535353535353535353535"
        // (nonce, data, value, access list, authorizations as (chain, delegate, nonce), authorization form).
        let cases: [(UInt64, String, String, String?, [(UInt64, String, UInt64)], Bool)] = [
            (0, "0x", "0", nil, [(4, "0x5FbDB2315678afecb367f032d93F642f64180aa3", 1)], false),
            (9, "0xdeadbeef", "1000000000000000000", nil, [(0, "0x1111111111111111111111111111111111111111", 0)], true),
            (3, "0x", "0", "[{\"address\":\"0x1111111111111111111111111111111111111111\",\"storageKeys\":[\"0x0000000000000000000000000000000000000000000000000000000000000001\"]}]",
             [(4, "0x2222222222222222222222222222222222222222", 4), (1, "0x0000000000000000000000000000000000000000", 5)], false),
            (UInt64.max - 1, "0x00", "255", nil, [(31337, "0x00000000000000000000000000000000000000ff", 2)], true),
        ]
        var requests: [[String: Any]] = []
        for (nonce, data, value, accessList, auths, _) in cases {
            var tx: [String: Any] = [
                "type": "0x4", "chainId": "0x4", "nonce": Self.hex(nonce), "gas": Self.hex(100_000),
                "maxFeePerGas": Self.hex(30_000_000_000), "maxPriorityFeePerGas": Self.hex(1_000_000_000), "to": to,
                "value": "0x" + String(UInt64(value)!, radix: 16), "data": data,
                "authorizationList": auths.map { ["chainId": Self.hex($0.0), "address": $0.1, "nonce": Self.hex($0.2), "key": Self.key] },
            ]
            if let accessList { tx["accessList"] = try JSONSerialization.jsonObject(with: Data(accessList.utf8)) } else { tx["accessList"] = [Any]() }
            requests.append(["key": Self.key, "tx": tx])
        }
        guard let expected = try python("eth_account_tx.py", ["cases": requests]) else { return }
        var matched = 0
        for ((nonce, data, value, accessList, auths, useHex), reference) in zip(cases, expected) {
            var arguments = [
                "tx", "sign", "--type", "4", "--to", to, "--nonce", String(nonce), "--gas-limit", "100000", "--max-fee", "30gwei",
                "--max-priority-fee", "1gwei", "--chain-id", "4", "--value", value, "--data", data, "--private-key-env", "PK", "--json",
            ]
            if let accessList { arguments += ["--access-list", accessList] }
            for (chain, delegate, authNonce) in auths {
                var authorize = ["tx", "authorize", "--chain-id", String(chain), "--address", delegate, "--nonce", String(authNonce), "--private-key-env", "PK"]
                if useHex { authorize.append("--hex") }
                let auth = try box.run(authorize)
                #expect(auth.status == 0, "\(auth.stderr)")
                arguments += ["--authorization", auth.stdout.trimmingCharacters(in: .whitespacesAndNewlines)]
            }
            let signed = try box.run(arguments)
            #expect(signed.status == 0, "\(signed.stderr)")
            let json = try JSONValue(parsing: signed.stdout)
            #expect(json["type"]?.stringValue == "0x4")
            #expect(json["raw"] == reference["raw"], "type-4 raw for nonce \(nonce)")
            #expect(json["hash"] == reference["hash"])
            if json["raw"] == reference["raw"] { matched += 1 }
            // And it decodes back with its authorizations and their authority.
            let decoded = try JSONValue(parsing: try box.run(["tx", "decode", json["raw"]?.stringValue ?? ""]).stdout)
            #expect(decoded["authorizationList"]?.arrayValue?.count == auths.count)
            #expect(decoded["authorizationList"]?.arrayValue?.first?["authority"]?.stringValue == TxWalletCLITests.keyAddress)
        }
        print("TxSignType4EthAccount: \(matched) passed, \(cases.count - matched) failed, 0 skipped")
    }

    @Test func badInputGetsOneLine() throws {
        guard let box = try Sandbox() else { return }
        defer { box.remove() }
        let sign = ["tx", "sign", "--nonce", "0", "--gas-limit", "100000", "--max-fee", "30gwei", "--max-priority-fee", "1gwei", "--private-key-env", "PK"]
        let to = ["--to", "0x3535353535353535353535353535353535353535"]
        let auth = try box.run(["tx", "authorize", "--chain-id", "4", "--address", "0x1111111111111111111111111111111111111111", "--nonce", "0", "--private-key-env", "PK"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let cases: [([String], String)] = [
            (sign + to + ["--type", "4"], "needs at least one --authorization"),
            (sign + ["--type", "4", "--authorization", auth], "cannot create a contract"),
            (sign + to + ["--type", "1559", "--authorization", auth], "applies to --type 4 only"),
            (sign + to + ["--authorization", "{\"chainId\":\"0x4\"}"], "--authorization.nonce: missing"),
            (sign + to + ["--authorization", "{not json"], "not valid JSON"),
            (sign + to + ["--authorization", "0xc0"], "not an RLP authorization"),
            (sign + to + ["--authorization", "hello"], "JSON object"),
            (sign + to + ["--authorization", auth.replacingOccurrences(of: "\"yParity\":\"0x0\"", with: "\"yParity\":\"0x100\"")
                .replacingOccurrences(of: "\"yParity\":\"0x1\"", with: "\"yParity\":\"0x100\"")], "above 255"),
            (sign + to + ["--type", "9"], "--type"),
            (["tx", "authorize", "--chain-id", "4", "--address", "0x12", "--nonce", "0", "--private-key-env", "PK"], "--address"),
            (["tx", "authorize", "--chain-id", "4", "--address", "0x1111111111111111111111111111111111111111", "--nonce", "18446744073709551615",
              "--private-key-env", "PK"], "--nonce"),
            (["tx", "authorize", "--chain-id", "9223372036854775772", "--address", "0x1111111111111111111111111111111111111111", "--nonce", "0",
              "--private-key-env", "PK"], "--chain-id"),
            (["tx", "authorize", "--chain-id", "4", "--address", "0x1111111111111111111111111111111111111111", "--nonce", "0",
              "--private-key-env", "PK", "--hex", "--json"], "exclusive"),
        ]
        for (arguments, message) in cases {
            let output = try box.run(arguments)
            #expect(output.status == 1, "\(arguments) should fail")
            let lines = output.stderr.split(separator: "\n")
            #expect(lines.count == 1, "one line on stderr for \(arguments): \(output.stderr)")
            #expect(output.stderr.hasPrefix("carchain: ") && output.stderr.contains(message), "\(arguments): \(output.stderr)")
        }
    }

    @Test func helpHasExamples() throws {
        guard let box = try Sandbox() else { return }
        defer { box.remove() }
        let authorize = try box.run(["tx", "authorize", "--help"])
        #expect(authorize.stdout.contains("Examples:") && authorize.stdout.contains("--chain-id"))
        // The ranges, with ArgumentParser's wrapping collapsed.
        let text = authorize.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("0 (any chain) to 9223372036854775771") && text.contains("0 to 2^64-2 (EIP-2681)"))
        let sign = try box.run(["tx", "sign", "--help"])
        #expect(sign.stdout.contains("--authorization") && sign.stdout.contains("--type 4"))
    }
}
