import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing
import TestSupport

/// Cross-implementation tests against eth-account (Python, in the project venv): the same transactions signed
/// by both must give byte-identical raw transactions and hashes, and eth-account's bytes must decode here to the
/// same fields and recover the signing key's address.
@Suite struct EthAccountCrossTests {
    struct Request: Encodable {
        struct Case: Encodable {
            let key: String
            let tx: [String: Field]
        }
        let cases: [Case]
    }

    /// A JSON value in eth-account's transaction dictionaries.
    enum Field: Encodable {
        case text(String)
        case accessList([[String: Field]])
        case strings([String])
        case authorizations([[String: String]])

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let s): try container.encode(s)
            case .accessList(let list): try container.encode(list)
            case .strings(let list): try container.encode(list)
            case .authorizations(let list): try container.encode(list)
            }
        }
    }

    struct Response: Decodable {
        struct Result: Decodable {
            let raw: String?
            let hash: String?
            let error: String?
        }
        let results: [Result]
    }

    static func hex(_ v: UInt256) -> Field { .text(v.hexString) }
    static func hex(_ v: UInt64) -> Field { .text("0x" + String(v, radix: 16)) }

    /// A random 256-bit value of random size (0, small, 64-bit, or up to 256 bits), so RLP lengths vary.
    static func amount(_ rng: inout SplitMix64) -> UInt256 {
        switch rng.next() % 5 {
        case 0: return .zero
        case 1: return UInt256(rng.next() % 1_000)
        case 2: return UInt256(rng.next())
        case 3: return UInt256(limbs: (rng.next(), rng.next(), rng.next() >> (rng.next() % 64), 0))
        default: return UInt256(limbs: (rng.next(), rng.next(), rng.next(), rng.next() >> (rng.next() % 64)))
        }
    }

    static func accessList(_ rng: inout SplitMix64) -> AccessList {
        (0..<Int(rng.next() % 4)).map { _ in
            AccessListEntry(
                address: Address(bytes: rng.bytes(20))!, storageKeys: (0..<Int(rng.next() % 3)).map { _ in Bytes32(rng.bytes(32))! })
        }
    }

    static func accessListField(_ list: AccessList) -> Field {
        .accessList(list.map { ["address": .text($0.address.checksummed), "storageKeys": .strings($0.storageKeys.map(\.hexString))] })
    }

    /// `count` random transactions of types 0/1/2 (plus `extra` of types 3 and 4), with their keys and the
    /// eth-account dictionaries describing them.
    static func randomCases(seed: UInt64, count: Int, extra: Int) -> [(key: PrivateKey, tx: Transaction, dict: [String: Field])] {
        var rng = SplitMix64(seed: seed)
        var out: [(PrivateKey, Transaction, [String: Field])] = []
        let chainIDs: [UInt64] = [4, 1, 1337, 4, 11_155_111, 0xffff_ffff]
        for i in 0..<(count + 2 * extra) {
            var key: PrivateKey?
            while key == nil { key = try? PrivateKey(bytes: rng.bytes(32)) }
            let chainId = chainIDs[Int(rng.next() % UInt64(chainIDs.count))]
            let nonce = rng.next() % 3 == 0 ? rng.next() >> 1 : rng.next() % 1_000
            let gasLimit = 21_000 + rng.next() % 10_000_000
            let creation = rng.next() % 6 == 0
            let to = creation ? nil : Address(bytes: rng.bytes(20))
            let value = amount(&rng)
            let dataLength = [0, 1, 4, 68, 300][Int(rng.next() % 5)]
            let data = rng.bytes(dataLength).map { rng.next() % 3 == 0 ? 0 : $0 }
            var dict: [String: Field] = [
                "nonce": hex(nonce), "gas": hex(gasLimit), "value": hex(value), "data": .text(Hex.encode(data)),
            ]
            if let to { dict["to"] = .text(to.checksummed) }
            let type = i < count ? Int(rng.next() % 3) : (i < count + extra ? 3 : 4)
            let tx: Transaction
            switch type {
            case 0:
                let price = amount(&rng)
                let protected = rng.next() % 5 != 0
                dict["gasPrice"] = hex(price)
                if protected { dict["chainId"] = hex(chainId) }
                tx = .legacy(LegacyTransaction(nonce: nonce, gasPrice: price, gasLimit: gasLimit, to: to, value: value, data: data, chainId: protected ? chainId : nil))
            case 1:
                let price = amount(&rng)
                let list = accessList(&rng)
                dict["type"] = .text("0x1")
                dict["chainId"] = hex(chainId)
                dict["gasPrice"] = hex(price)
                dict["accessList"] = accessListField(list)
                tx = .accessList(AccessListTransaction(chainId: chainId, nonce: nonce, gasPrice: price, gasLimit: gasLimit, to: to, value: value, data: data, accessList: list))
            case 2:
                let maxFee = amount(&rng), tip = amount(&rng)
                let list = accessList(&rng)
                dict["type"] = .text("0x2")
                dict["chainId"] = hex(chainId)
                dict["maxFeePerGas"] = hex(maxFee)
                dict["maxPriorityFeePerGas"] = hex(tip)
                dict["accessList"] = accessListField(list)
                tx = .dynamicFee(DynamicFeeTransaction(chainId: chainId, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee, gasLimit: gasLimit, to: to, value: value, data: data, accessList: list))
            default:
                let maxFee = amount(&rng), tip = amount(&rng)
                let list = accessList(&rng)
                let recipient = to ?? Address(bytes: rng.bytes(20))!
                dict["to"] = .text(recipient.checksummed)
                dict["chainId"] = hex(chainId)
                dict["maxFeePerGas"] = hex(maxFee)
                dict["maxPriorityFeePerGas"] = hex(tip)
                dict["accessList"] = accessListField(list)
                if type == 3 {
                    let blobFee = amount(&rng)
                    let hashes = (0..<(1 + Int(rng.next() % 3))).map { _ in Bytes32([0x01] + rng.bytes(31))! }
                    dict["type"] = .text("0x3")
                    dict["maxFeePerBlobGas"] = hex(blobFee)
                    dict["blobVersionedHashes"] = .strings(hashes.map(\.hexString))
                    tx = .blob(BlobTransaction(chainId: chainId, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee, gasLimit: gasLimit, to: recipient, value: value, data: data, accessList: list, maxFeePerBlobGas: blobFee, blobVersionedHashes: hashes))
                } else {
                    var auths: [SignedAuthorization] = []
                    var authDicts: [[String: String]] = []
                    for _ in 0..<(1 + Int(rng.next() % 2)) {
                        var authKey: PrivateKey?
                        while authKey == nil { authKey = try? PrivateKey(bytes: rng.bytes(32)) }
                        let auth = Authorization(chainId: rng.next() % 2 == 0 ? 0 : UInt256(chainId), address: Address(bytes: rng.bytes(20))!, nonce: rng.next() % 100)
                        auths.append(auth.sign(with: authKey!))
                        authDicts.append([
                            "chainId": auth.chainId.hexString, "address": auth.address.checksummed,
                            "nonce": "0x" + String(auth.nonce, radix: 16), "key": Hex.encode(authKey!.rawBytes),
                        ])
                    }
                    dict["type"] = .text("0x4")
                    dict["authorizationList"] = .authorizations(authDicts)
                    tx = .setCode(SetCodeTransaction(chainId: chainId, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee, gasLimit: gasLimit, to: recipient, value: value, data: data, accessList: list, authorizationList: auths))
                }
            }
            out.append((key!, tx, dict))
        }
        return out
    }

    @Test func randomTransactionsMatchEthAccount() async throws {
        guard let python = PythonVenv.python(for: "eth-account transaction cross-check") else { return }
        let cases = Self.randomCases(seed: 0x5EED_7A11, count: 200, extra: 20)
        let request = Request(cases: cases.map { Request.Case(key: Hex.encode($0.key.rawBytes), tx: $0.dict) })
        let response = try await PythonVenv.runJSON(python, script: "eth_account_tx.py", request: request, as: Response.self)
        try #require(response.results.count == cases.count)
        var tally = ConformanceTally(suite: "eth-account transactions")
        var byType: [TransactionType: Int] = [:]
        for (i, (c, theirs)) in zip(cases, response.results).enumerated() {
            let name = "#\(i) \(c.tx.type)"
            guard let raw = theirs.raw, let hash = theirs.hash else {
                tally.record(.fail("eth-account error: \(theirs.error ?? "no result")"), case: name)
                continue
            }
            let ours = c.tx.sign(with: c.key)
            let theirRaw = try Hex.decode(raw)
            var problems: [String] = []
            if ours.encoded != theirRaw { problems.append("raw: " + firstDifference(ours.encoded, theirRaw)) }
            if ours.hash.hexString != hash { problems.append("hash \(ours.hash) != \(hash)") }
            // Their bytes decode to the same transaction, and recover the same sender.
            if let decoded = try? SignedTransaction.decode(theirRaw) {
                if decoded.transaction != c.tx { problems.append("their raw decodes to other fields") }
                if (try? decoded.sender()) != c.key.address { problems.append("their raw recovers another sender") }
            } else {
                problems.append("their raw does not decode")
            }
            if problems.isEmpty { byType[c.tx.type, default: 0] += 1 }
            tally.record(problems.isEmpty ? .pass : .fail(problems.joined(separator: "; ")), case: name)
        }
        tally.report()
        print("eth-account transactions by type: " + TransactionType.allCases.map { "\($0.rawValue): \(byType[$0] ?? 0)" }.joined(separator: ", "))
        #expect(tally.failed == 0)
    }
}
