import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing
import TestSupport

/// The vectors the page's own Keccak-256, secp256k1 and transaction signing (`Web/js/crypto/`) are checked against in
/// Chromium (tools/app_tests/test_browser_crypto.py): computed here by the Swift implementation (libsecp256k1 with its
/// RFC 6979 nonces, the project's Keccak and transaction encoders) and kept in `testdata/app/browser-crypto-vectors.json`.
/// This test recomputes them and fails when the file differs, so the file is always the Swift side's answer;
/// `CARCHAIN_WRITE_VECTORS=1` rewrites it.
@Suite("browser crypto vectors") struct BrowserCryptoVectorTests {
    static let file = TestPaths.packageRoot.appendingPathComponent("testdata/app/browser-crypto-vectors.json")

    /// Messages of the lengths around Keccak's 136-byte block, and some text.
    static let messages: [[UInt8]] = {
        var out: [[UInt8]] = [[], Array("abc".utf8), Array("CarChain: link the account".utf8)]
        for length in [1, 55, 56, 135, 136, 137, 271, 272, 273, 1000] {
            out.append((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) })
        }
        return out
    }()

    /// Keys at the edges of the range (1, n − 1), a dev account's, and some in between.
    static let keys = [
        "0x0000000000000000000000000000000000000000000000000000000000000001",
        "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140",
        "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
        "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
        "0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f",
    ]

    static func vectors() throws -> JSONValue {
        var keccak: [JSONValue] = []
        for message in messages {
            keccak.append(.object([("input", .string(Hex.encode(message))), ("hash", .string(Keccak256.hash(message).hexString))]))
        }
        var signatures: [JSONValue] = []
        var personal: [JSONValue] = []
        var transactions: [JSONValue] = []
        let to = try Address("0x5FbDB2315678afecb367f032d93F642f64180aa3")
        for (index, hex) in keys.enumerated() {
            let key = try PrivateKey(hex: hex)
            for message in messages.prefix(4) {
                let hash = Keccak256.hash(message + [UInt8(index)])
                let signature = key.sign(hash: hash)
                signatures.append(.object([
                    ("key", .string(hex)), ("address", .string(key.address.checksummed)),
                    ("publicKey", .string(Hex.encode(key.publicKey.rawBytes))), ("hash", .string(hash.hexString)),
                    ("r", .string(signature.r.hexString)), ("s", .string(signature.s.hexString)),
                    ("recovery", .number(String(signature.recoveryID))),
                ]))
            }
            let text = "CarChain: link the account \(key.address.lowercasedHex) to the user ana@example.com (uid u\(index)) on chain 11155111."
            personal.append(.object([
                ("key", .string(hex)), ("message", .string(text)),
                ("signature", .string(Hex.encode(PersonalMessage.sign(Array(text.utf8), with: key).rsv))),
            ]))
            let data = Array(messages[index + 3].prefix(100))
            let legacy = Transaction.legacy(LegacyTransaction(
                nonce: UInt64(index * 7), gasPrice: UInt256(1_000_000_000 + UInt64(index)), gasLimit: 120_000 + UInt64(index), to: to,
                value: .zero, data: data, chainId: index % 2 == 0 ? 4 : 11_155_111))
            let dynamic = Transaction.dynamicFee(DynamicFeeTransaction(
                chainId: index % 2 == 0 ? 11_155_111 : 31337, nonce: UInt64(index) << 20, maxPriorityFeePerGas: UInt256(1_000_000_000),
                maxFeePerGas: UInt256(30_000_000_000 as UInt64) + UInt256(UInt64(index)), gasLimit: 65_000, to: to, value: .zero, data: data))
            for transaction in [legacy, dynamic] {
                let signed = transaction.sign(with: key)
                var fields: [(String, JSONValue)] = [
                    ("type", .string("0x" + String(transaction.type.rawValue, radix: 16))),
                    ("chainId", .string("0x" + String(transaction.chainId ?? 0, radix: 16))),
                    ("nonce", .string("0x" + String(transaction.nonce, radix: 16))),
                    ("gas", .string("0x" + String(transaction.gasLimit, radix: 16))),
                    ("to", .string(to.checksummed)), ("value", .string("0x0")), ("data", .string(Hex.encode(data))),
                ]
                if let gasPrice = transaction.gasPrice {
                    fields.append(("gasPrice", .string(gasPrice.hexString)))
                } else {
                    fields.append(("maxFeePerGas", .string(transaction.maxFeePerGas.hexString)))
                    fields.append(("maxPriorityFeePerGas", .string(transaction.maxPriorityFeePerGas.hexString)))
                }
                transactions.append(.object([
                    ("key", .string(hex)), ("transaction", .object(fields)), ("raw", .string(signed.rawHex)), ("hash", .string(signed.hash.hexString)),
                ]))
            }
        }
        return .object([
            ("comment", .string("Computed by the Swift implementation (BrowserCryptoVectorTests); the page's JavaScript must give the same.")),
            ("keccak256", .array(keccak)), ("signatures", .array(signatures)), ("personal", .array(personal)),
            ("transactions", .array(transactions)),
        ])
    }

    @Test("the vectors file is the Swift implementation's answer")
    func vectorsMatch() throws {
        let computed = try Self.vectors()
        if ProcessInfo.processInfo.environment["CARCHAIN_WRITE_VECTORS"] == "1" {
            try FileManager.default.createDirectory(at: Self.file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((computed.description + "\n").utf8).write(to: Self.file)
        }
        let stored = try JSONValue(parsing: Array(try Data(contentsOf: Self.file)))
        #expect(stored == computed, "testdata/app/browser-crypto-vectors.json differs from the Swift implementation (CARCHAIN_WRITE_VECTORS=1 rewrites it)")
    }
}
