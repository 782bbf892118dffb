import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation
import TestSupport

/// Helpers shared by the chain tests: dev keys, signed transactions, a minimal ABI encoder for the
/// CarChain calls, the CarChain artifact, and temporary data directories.
enum ChainFixtures {
    static let accounts = DevAccounts.standard
    static var key0: PrivateKey { accounts[0].privateKey! }
    static var key1: PrivateKey { accounts[1].privateKey! }
    static var address0: Address { accounts[0].address }
    static var address1: Address { accounts[1].address }
    static let oneGwei = UInt256(1_000_000_000 as UInt64)
    static let oneEther = UInt256(1_000_000_000_000_000_000 as UInt64)

    /// A signed EIP-1559 transaction.
    static func dynamicFee(
        _ key: PrivateKey, nonce: UInt64, to: Address?, value: UInt256 = .zero, data: [UInt8] = [],
        gas: UInt64 = 21_000, maxFee: UInt256 = UInt256(100_000_000_000 as UInt64), tip: UInt256 = oneGwei,
        chainId: UInt64 = 4
    ) -> SignedTransaction {
        Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainId: chainId, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee, gasLimit: gas, to: to,
                value: value, data: data)
        ).sign(with: key)
    }

    /// A signed legacy EIP-155 transaction.
    static func legacy(
        _ key: PrivateKey, nonce: UInt64, to: Address?, value: UInt256 = .zero, data: [UInt8] = [],
        gas: UInt64 = 21_000, gasPrice: UInt256 = UInt256(10_000_000_000 as UInt64), chainId: UInt64? = 4
    ) -> SignedTransaction {
        Transaction.legacy(
            LegacyTransaction(nonce: nonce, gasPrice: gasPrice, gasLimit: gas, to: to, value: value, data: data, chainId: chainId)
        ).sign(with: key)
    }

    static func address(_ hex: String) -> Address { (try? Address(hex)) ?? .zero }

    // MARK: ABI (only what the CarChain calls need)

    static func selector(_ signature: String) -> [UInt8] { Array(Keccak256.hash(signature).bytes[0..<4]) }

    static func word(_ value: UInt256) -> [UInt8] { value.bigEndianBytes }

    /// ABI-encodes a call whose arguments are strings and uint256s.
    static func encodeCall(_ signature: String, _ arguments: [ABIArgument]) -> [UInt8] {
        var head: [UInt8] = []
        var tail: [UInt8] = []
        let headSize = 32 * arguments.count
        for argument in arguments {
            switch argument {
            case .uint(let v): head += word(v)
            case .string(let s):
                head += word(UInt256(UInt64(headSize + tail.count)))
                let bytes = Array(s.utf8)
                tail += word(UInt256(UInt64(bytes.count)))
                tail += bytes + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
            }
        }
        return selector(signature) + head + tail
    }

    enum ABIArgument { case uint(UInt256), string(String) }

    /// Decodes a single ABI string return value.
    static func decodeString(_ data: [UInt8]) -> String? {
        guard data.count >= 64 else { return nil }
        let length = Int(UInt256(truncatingBigEndian: data[32..<64]).low64)
        guard 64 + length <= data.count else { return nil }
        return String(decoding: data[64..<64 + length], as: UTF8.self)
    }

    // MARK: CarChain artifact

    /// The CarChain creation bytecode from contracts/CarChain.json.
    static func carChainBytecode() throws -> [UInt8] {
        let url = TestPaths.packageRoot.appendingPathComponent("contracts/CarChain.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        guard let hex = json?["bytecode"] as? String else { throw FixtureError("CarChain.json has no bytecode") }
        return try Hex.decode(hex)
    }

    /// Init code of a contract whose runtime logs its calldata with LOG2(topic0 = 0xaa, topic1 =
    /// the first calldata word).
    static let loggerInitCode: [UInt8] =
        [0x60, 0x10, 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3]
        + [0x36, 0x60, 0x00, 0x60, 0x00, 0x37, 0x60, 0x00, 0x35, 0x60, 0xaa, 0x36, 0x60, 0x00, 0xa2, 0x00]

    // MARK: Temporary directories

    static func temporaryDirectory(_ name: String = #function) -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("carchain-chain-tests-\(safe)-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try? FileManager.default.removeItem(at: url)
        return url
    }

    /// Copies a closed chain's SQLite files (not its journal) from one data directory to another, replacing what is
    /// there: a database as it was at some point, to put behind a later journal (what a kill -9 leaves).
    static func copyDatabase(_ from: URL, _ to: URL) throws {
        try FileManager.default.createDirectory(at: to, withIntermediateDirectories: true)
        for file in ["chain.sqlite", "chain.sqlite-wal", "chain.sqlite-shm"] {
            try? FileManager.default.removeItem(at: to.appendingPathComponent(file))
            if FileManager.default.fileExists(atPath: from.appendingPathComponent(file).path) {
                try FileManager.default.copyItem(at: from.appendingPathComponent(file), to: to.appendingPathComponent(file))
            }
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
