import EthereumCrypto
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// Cross-implementation tests against eth-account (Python, in the project venv): keystores written by one are
/// decrypted by the other; EIP-191 and EIP-712 hashes and signatures agree.
@Suite struct EthAccountCryptoCrossTests {
    static func runScript(_ python: URL, _ script: String, _ requestJSON: String) throws -> JSONValue {
        try JSONValue(parsing: Array(PythonVenv.run(python, script: "xcheck/\(script)", input: Data(requestJSON.utf8))))
    }

    @Test func keystoresRoundTripBetweenImplementations() throws {
        guard let python = PythonVenv.python(for: "eth-account keystore cross-check") else { return }
        let kdfs: [Keystore.KDF] = [.scrypt(n: 1_024, r: 8, p: 1), .scrypt(n: 2_048, r: 8, p: 1), .pbkdf2(iterations: 1_000), .pbkdf2(iterations: 2_048)]
        let keys = (0..<kdfs.count).map { _ in PrivateKey.random() }
        let passwords = ["correct horse", "pässwörd ♥", "", "x"]
        // Swift writes, Python decrypts.
        var decrypt: [JSONValue] = []
        for (i, kdf) in kdfs.enumerated() {
            let keystore = try Keystore.encrypt(keys[i], password: passwords[i], kdf: kdf)
            let parsed = try JSONValue(parsing: keystore.json)
            decrypt.append(.object([("json", parsed), ("password", .string(passwords[i]))]))
        }
        // Python writes, Swift decrypts.
        var encrypt: [JSONValue] = []
        for (i, kdf) in kdfs.enumerated() {
            let (name, iterations): (String, Int)
            switch kdf {
            case .scrypt(let n, _, _): (name, iterations) = ("scrypt", n)
            case .pbkdf2(let c): (name, iterations) = ("pbkdf2", c)
            }
            encrypt.append(.object([
                ("key", .string(Hex.encode(keys[i].rawBytes))), ("password", .string(passwords[i])),
                ("kdf", .string(name)), ("iterations", .number(String(iterations))),
            ]))
        }
        let response = try Self.runScript(python, "eth_account_keystore.py", JSONValue.object([("decrypt", .array(decrypt)), ("encrypt", .array(encrypt))]).description)
        var tally = ConformanceTally(suite: "eth-account keystores")
        for (i, result) in (response["decrypted"]?.arrayValue ?? []).enumerated() {
            tally.check(result.stringValue == Hex.encode(keys[i].rawBytes), "Swift-written \(kdfs[i]) → eth-account", "eth-account: \(result)")
        }
        for (i, document) in (response["encrypted"]?.arrayValue ?? []).enumerated() {
            let name = "eth-account-written \(kdfs[i]) → Swift"
            do {
                let keystore = try Keystore(json: document)
                tally.check(try keystore.decrypt(password: passwords[i]) == keys[i], name, "decrypted another key")
                tally.check((try? keystore.decrypt(password: passwords[i] + "!")) == nil, name + " (wrong password)", "a wrong password decrypted")
            } catch {
                tally.record(.fail("\(error)"), case: name)
            }
        }
        tally.report()
        #expect(tally.passed == 3 * kdfs.count)
        #expect(tally.failed == 0)
    }

    // MARK: EIP-712

    static let atomicTypes = ["uint8", "uint32", "uint256", "int8", "int64", "int256", "bool", "address", "bytes1", "bytes16", "bytes32", "string", "bytes"]

    static func value(for type: String, structs: [String: [TypedData.Field]], _ rng: inout SplitMix64) -> JSONValue {
        if type.hasSuffix("]"), let open = type.lastIndex(of: "[") {
            let element = String(type[..<open])
            let inside = type[type.index(after: open)..<type.index(before: type.endIndex)]
            let count = Int(inside) ?? Int(rng.next() % 4)
            return .array((0..<count).map { _ in value(for: element, structs: structs, &rng) })
        }
        if let fields = structs[type] {
            return .object(fields.map { ($0.name, value(for: $0.type, structs: structs, &rng)) })
        }
        switch type {
        case "bool": return .bool(rng.next() % 2 == 0)
        case "address": return .string(Address(bytes: rng.bytes(20))!.checksummed)
        case "string": return .string(["", "hello", "Ünïcødé ♥", String(repeating: "x", count: 70)][Int(rng.next() % 4)])
        case "bytes": return .string(Hex.encode(rng.bytes(Int(rng.next() % 70))))
        case "bytes1", "bytes16", "bytes32":
            let n = Int(type.dropFirst(5))!
            return .string(Hex.encode(rng.bytes(n)))
        default:
            let signed = type.hasPrefix("int")
            let bits = Int(type.dropFirst(signed ? 3 : 4))!
            var magnitude = UInt256(limbs: (rng.next(), rng.next(), rng.next(), rng.next())) >> (256 - bits + (signed ? 1 : 0))
            if rng.next() % 4 == 0 { magnitude = UInt256(rng.next() % 100) }
            if signed && rng.next() % 2 == 0 && !magnitude.isZero { return .string("-" + magnitude.description) }
            return rng.next() % 2 == 0 ? .string(magnitude.description) : .string(magnitude.hexString)
        }
    }

    /// A random set of struct types (acyclic, with nested structs, arrays of atomics and structs, fixed-size arrays)
    /// and a message of the first one.
    static func randomTypedData(_ rng: inout SplitMix64) -> JSONValue {
        let names = ["Mail", "Person", "Asset", "Group", "Zeta"].shuffled(using: &rng)
        let count = 1 + Int(rng.next() % 4)
        var structs: [String: [TypedData.Field]] = [:]
        for i in (0..<count).reversed() {
            var fields: [TypedData.Field] = []
            for f in 0..<(1 + Int(rng.next() % 5)) {
                var type: String
                if i + 1 < count && rng.next() % 3 == 0 {
                    type = names[i + 1 + Int(rng.next() % UInt64(count - i - 1))]
                } else {
                    type = atomicTypes[Int(rng.next() % UInt64(atomicTypes.count))]
                }
                switch rng.next() % 5 {
                case 0: type += "[]"
                case 1: type += "[2]"
                default: break
                }
                fields.append(TypedData.Field(name: "f\(f)", type: type))
            }
            structs[names[i]] = fields
        }
        // Keep only the types the primary type reaches (eth-account rejects documents with unused types).
        var reachable: Set<String> = []
        var pending = [names[0]]
        while let next = pending.popLast() {
            guard reachable.insert(next).inserted else { continue }
            for field in structs[next] ?? [] {
                let base = String(field.type.prefix { $0 != "[" })
                if structs[base] != nil { pending.append(base) }
            }
        }
        structs = structs.filter { reachable.contains($0.key) }
        let domainFields: [(String, String, JSONValue)] = [
            ("name", "string", .string("carchain")), ("version", "string", .string("1")),
            ("chainId", "uint256", .number(String(rng.next() % 100_000))),
            ("verifyingContract", "address", .string(Address(bytes: rng.bytes(20))!.checksummed)),
            ("salt", "bytes32", .string(Hex.encode(rng.bytes(32)))),
        ].filter { _ in rng.next() % 3 != 0 }
        var types: [(key: String, value: JSONValue)] = [("EIP712Domain", .array(domainFields.map {
            .object([("name", .string($0.0)), ("type", .string($0.1))])
        }))]
        for name in structs.keys.sorted() {
            types.append((name, .array(structs[name]!.map { .object([("name", .string($0.name)), ("type", .string($0.type))]) })))
        }
        return .object([
            ("types", .object(types)), ("primaryType", .string(names[0])),
            ("domain", .object(domainFields.map { ($0.0, $0.2) })),
            ("message", value(for: names[0], structs: structs, &rng)),
        ])
    }

    /// EIP-191 personal messages (20 random ones) and EIP-712 typed data (60 random documents and the EIP's
    /// Mail example), in one eth-account run: hashes and signatures must be identical.
    @Test func messagesMatchEthAccount() throws {
        guard let python = PythonVenv.python(for: "eth-account EIP-191/EIP-712 cross-check") else { return }
        var rng = SplitMix64(seed: 191)
        var personalCases: [(PrivateKey, [UInt8])] = []
        for i in 0..<20 {
            var key: PrivateKey?
            while key == nil { key = try? PrivateKey(bytes: rng.bytes(32)) }
            personalCases.append((key!, i == 0 ? [] : rng.bytes(Int(rng.next() % 200))))
        }
        var typedRNG = SplitMix64(seed: 712)
        let key = try PrivateKey(hex: "0x" + String(repeating: "42", count: 32))
        var documents = (0..<60).map { _ in Self.randomTypedData(&typedRNG) }
        documents.append(try JSONValue(parsing: MessageSigningTests.mailJSON))
        // Integers as JSON numbers beyond 2^53 and 2^64: read exactly (2^70, 2^256 - 1, -2^100), as eth-account does.
        documents.append(
            try JSONValue(
                parsing: #"""
                    {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"chainId","type":"uint256"}],
                     "Amounts":[{"name":"big","type":"uint256"},{"name":"max","type":"uint256"},{"name":"negative","type":"int128"}]},
                     "primaryType":"Amounts","domain":{"name":"exact","chainId":1180591620717411303424},
                     "message":{"big":1180591620717411303424,
                      "max":115792089237316195423570985008687907853269984665640564039457584007913129639935,
                      "negative":-1267650600228229401496703205376}}
                    """#))
        let request = JSONValue.object([
            ("personal", .array(personalCases.map {
                .object([("key", .string(Hex.encode($0.0.rawBytes))), ("message", .string(Hex.encode($0.1)))])
            })),
            ("typed", .array(documents.map { .object([("key", .string(Hex.encode(key.rawBytes))), ("data", $0)]) })),
        ])
        let response = try Self.runScript(python, "eth_account_messages.py", request.description)

        var personal = ConformanceTally(suite: "eth-account EIP-191")
        for (i, (result, c)) in zip(response["personal"]?.arrayValue ?? [], personalCases).enumerated() {
            let signature = PersonalMessage.sign(c.1, with: c.0)
            personal.check(result["hash"]?.stringValue == PersonalMessage.hash(c.1).hexString, "#\(i) hash", "hash differs")
            personal.check(result["signature"]?.stringValue == Hex.encode(signature.rsv), "#\(i) signature", "signature differs")
        }
        personal.report()
        #expect(personal.passed == 2 * personalCases.count)

        var tally = ConformanceTally(suite: "eth-account EIP-712")
        for (i, (result, document)) in zip(response["typed"]?.arrayValue ?? [], documents).enumerated() {
            let name = "#\(i) \(document["primaryType"]?.stringValue ?? "")"
            if let error = result["error"]?.stringValue {
                tally.record(.fail("eth-account: \(error) for \(document)"), case: name)
                continue
            }
            do {
                let data = try TypedData(json: document)
                var problems: [String] = []
                if result["domain"]?.stringValue != (try data.domainSeparator()).hexString { problems.append("domain separator") }
                if result["message"]?.stringValue != (try data.messageHash()).hexString { problems.append("message hash") }
                if result["hash"]?.stringValue != (try data.signingHash()).hexString { problems.append("digest") }
                if result["signature"]?.stringValue != Hex.encode(try data.sign(with: key).rsv) { problems.append("signature") }
                tally.record(problems.isEmpty ? .pass : .fail("differs: \(problems) for \(document)"), case: name)
            } catch {
                tally.record(.fail("\(error) for \(document)"), case: name)
            }
        }
        tally.report()
        #expect(tally.passed == documents.count)
    }
}
