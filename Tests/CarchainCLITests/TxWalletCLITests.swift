import EthereumPrimitives
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The `tx`, `wallet`, `sign-message` and `verify-message` commands, run as a subprocess.
@Suite struct TxWalletCLITests {
    static let key = "0x4646464646464646464646464646464646464646464646464646464646464646"
    static let keyAddress = "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F"
    static let devMnemonic = "test test test test test test test test test test test junk"
    /// The private keys whose hex must never appear in output without --show-private-key.
    static let secrets = [
        "4646464646464646464646464646464646464646464646464646464646464646",
        "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",  // dev mnemonic, index 0
    ]

    /// A sandbox: a temporary CARCHAIN_HOME, a password file, and the environment variables the commands read.
    struct Sandbox {
        let root: URL
        let carchain: URL
        var environment: [String: String] {
            ["CARCHAIN_HOME": root.appendingPathComponent("home").path, "PK": TxWalletCLITests.key, "MNEMONIC": TxWalletCLITests.devMnemonic]
        }
        var passwordFile: String { root.appendingPathComponent("password").path }
        var wrongPasswordFile: String { root.appendingPathComponent("wrong").path }

        init?() throws {
            guard let carchain = ProcessRunner.carchainExecutable() else { return nil }
            self.carchain = carchain
            root = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try "correct horse\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
            try "battery staple\n".write(toFile: wrongPasswordFile, atomically: true, encoding: .utf8)
        }

        /// Runs carchain; checks that no private key appears in the output unless `showsKey`.
        func run(_ arguments: [String], showsKey: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessRunner.Output {
            let output = try ProcessRunner.run(carchain, arguments, environment: environment)
            if !showsKey {
                for secret in TxWalletCLITests.secrets {
                    #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret), "private key printed by \(arguments)", sourceLocation: sourceLocation)
                }
            }
            return output
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    @Test func signAndDecodeRoundTrip() throws {
        guard let box = try Sandbox() else { return }
        defer { box.remove() }
        // The EIP-155 example.
        let legacy = try box.run(["tx", "sign", "--to", "0x3535353535353535353535353535353535353535", "--nonce", "9", "--gas-limit", "21000",
                                  "--gas-price", "20gwei", "--value", "1ether", "--chain-id", "1", "--private-key-env", "PK"])
        #expect(legacy.status == 0, "\(legacy.stderr)")
        #expect(legacy.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83")
        // Default chain id 4, type 2 with an access list, JSON output.
        let signed = try box.run(["tx", "sign", "--type", "1559", "--to", "0x3535353535353535353535353535353535353535", "--nonce", "1",
                                  "--gas-limit", "50000", "--max-fee", "30gwei", "--max-priority-fee", "0x3b9aca00", "--data", "0x1234",
                                  "--access-list", #"[{"address":"0x3535353535353535353535353535353535353535","storageKeys":["0x0000000000000000000000000000000000000000000000000000000000000001"]}]"#,
                                  "--private-key-env", "PK", "--json"])
        #expect(signed.status == 0, "\(signed.stderr)")
        let result = try Self.json(signed.stdout)
        #expect(result["from"]?.stringValue == Self.keyAddress)
        #expect(result["chainId"]?.stringValue == "0x4")
        let raw = try #require(result["raw"]?.stringValue)
        let decoded = try box.run(["tx", "decode", raw, "--fork", "london", "--chain-id", "4"])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let fields = try Self.json(decoded.stdout)
        #expect(fields["type"]?.stringValue == "0x2")
        #expect(fields["chainId"]?.stringValue == "0x4")
        #expect(fields["maxFeePerGas"]?.stringValue == "0x6fc23ac00")
        #expect(fields["maxPriorityFeePerGas"]?.stringValue == "0x3b9aca00")
        #expect(fields["input"]?.stringValue == "0x1234")
        #expect(fields["accessList"]?.arrayValue?.count == 1)
        #expect(fields["hash"]?.stringValue == result["hash"]?.stringValue)
        #expect(fields["from"]?.stringValue == Self.keyAddress)
        #expect(fields["valid"] == .bool(true))
        // Malformed input: one line on stderr, exit 1.
        let bad = try box.run(["tx", "decode", raw + "00"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("carchain: ") && bad.stderr.split(separator: "\n").count == 1)
    }

    @Test func walletLifecycle() throws {
        guard let box = try Sandbox() else { return }
        defer { box.remove() }
        let created = try box.run(["wallet", "new", "--kdf", "light", "--password-file", box.passwordFile, "--json"])
        #expect(created.status == 0, "\(created.stderr)")
        let newAccount = try Self.json(created.stdout)
        let newFile = try #require(newAccount["file"]?.stringValue)
        #expect(newAccount["privateKey"] == nil)
        let imported = try box.run(["wallet", "import", "--private-key-env", "PK", "--kdf", "light", "--password-file", box.passwordFile, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let file = try #require(try Self.json(imported.stdout)["file"]?.stringValue)
        // Files are 0600 in a 0700 directory.
        var info = stat()
        for path in [newFile, file] {
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "\(path)")
        }
        #expect(stat(box.root.appendingPathComponent("home/keystore").path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        // list reads addresses without a password.
        let list = try box.run(["wallet", "list", "--json"])
        let addresses = try Self.json(list.stdout).arrayValue?.compactMap { $0["address"]?.stringValue } ?? []
        #expect(Set(addresses) == [Self.keyAddress, newAccount["address"]?.stringValue ?? ""])
        #expect(try box.run(["wallet", "address", "--keystore", file]).stdout.contains(Self.keyAddress))
        let verified = try box.run(["wallet", "address", "--keystore", file, "--verify", "--password-file", box.passwordFile])
        #expect(verified.stdout.contains(Self.keyAddress), "\(verified.stderr)")
        // A wrong password: one line on stderr, exit 1, no secret.
        let wrong = try box.run(["wallet", "address", "--keystore", file, "--verify", "--password-file", box.wrongPasswordFile])
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "carchain: could not decrypt key: wrong password (MAC mismatch)\n")
        #expect(!wrong.stderr.contains("battery") && !wrong.stdout.contains("battery"))
        // Signing from the keystore equals signing from the key.
        let args = ["tx", "sign", "--to", "0x3535353535353535353535353535353535353535", "--nonce", "0", "--gas-limit", "21000", "--gas-price", "1"]
        let fromKeystore = try box.run(args + ["--keystore", file, "--password-file", box.passwordFile])
        let fromEnv = try box.run(args + ["--private-key-env", "PK"])
        #expect(fromKeystore.status == 0 && fromKeystore.stdout == fromEnv.stdout, "\(fromKeystore.stderr)")
        // Importing the same key again is refused.
        #expect(try box.run(["wallet", "import", "--private-key-env", "PK", "--kdf", "light", "--password-file", box.passwordFile]).status == 1)
    }

    @Test func deriveFromMnemonic() throws {
        guard let box = try Sandbox() else { return }
        defer { box.remove() }
        let derived = try box.run(["wallet", "derive", "--mnemonic-env", "MNEMONIC", "--index", "0"])
        #expect(derived.stdout == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n", "\(derived.stderr)")
        let second = try box.run(["wallet", "derive", "--mnemonic-env", "MNEMONIC", "--index", "1", "--json"])
        #expect(try Self.json(second.stdout)["address"]?.stringValue == "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
        let shown = try box.run(["wallet", "derive", "--mnemonic-env", "MNEMONIC", "--index", "0", "--show-private-key"], showsKey: true)
        #expect(shown.stdout.contains(Self.secrets[1]))
        let missing = try box.run(["wallet", "derive", "--mnemonic-env", "NOT_SET_ANYWHERE"])
        #expect(missing.status == 1 && missing.stderr.contains("NOT_SET_ANYWHERE"))
    }

    @Test func signAndVerifyMessages() throws {
        guard let box = try Sandbox() else { return }
        defer { box.remove() }
        // eth-account's documented personal_sign example ("I♥SF").
        let ethAccountKey = "0xb25c7db31feed9122727bf0939dc769a96564b2de4c4726d035b36ecf1e5b364"
        let output = try ProcessRunner.run(box.carchain, ["sign-message", "--private-key-env", "K", "I♥SF"], environment: ["K": ethAccountKey])
        #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0xe6ca9bba58c88611fad66a6ce8f996908195593807c4b38bd528d2cff09d4eb33e5bfbbf4d3e39b1a2fd816a7680c19ebebaf3a141b239934ad43cb33fcec8ce1c")

        let signature = try box.run(["sign-message", "--private-key-env", "PK", "hello"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let ok = try box.run(["verify-message", "--address", Self.keyAddress, "--signature", signature, "hello"])
        #expect(ok.status == 0 && ok.stdout.contains("valid"), "\(ok.stderr)")
        let tampered = try box.run(["verify-message", "--address", Self.keyAddress, "--signature", signature, "hellO"])
        #expect(tampered.status == 1 && tampered.stderr.hasPrefix("carchain: signature is not valid"))

        // EIP-712 from a file.
        let typed = box.root.appendingPathComponent("mail.json")
        try #"""
            {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},{"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],
            "Person":[{"name":"name","type":"string"},{"name":"wallet","type":"address"}],
            "Mail":[{"name":"from","type":"Person"},{"name":"to","type":"Person"},{"name":"contents","type":"string"}]},
            "primaryType":"Mail","domain":{"name":"Ether Mail","version":"1","chainId":1,"verifyingContract":"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
            "message":{"from":{"name":"Cow","wallet":"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},"to":{"name":"Bob","wallet":"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},"contents":"Hello, Bob!"}}
            """#.write(to: typed, atomically: true, encoding: .utf8)
        let signedTyped = try Self.json(try box.run(["sign-message", "--private-key-env", "PK", "--typed-data", typed.path, "--json"]).stdout)
        #expect(signedTyped["hash"]?.stringValue == "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2")
        let typedSignature = try #require(signedTyped["signature"]?.stringValue)
        let verifiedTyped = try box.run(["verify-message", "--address", Self.keyAddress, "--signature", typedSignature, "--typed-data", typed.path])
        #expect(verifiedTyped.status == 0, "\(verifiedTyped.stderr)")
    }
}
