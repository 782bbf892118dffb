import Chain
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing
import TestSupport

/// Network-form blob transactions (EIP-4844's wrapper, EIP-7594's cell-proof wrapper from Osaka), as
/// `eth_sendRawTransaction` receives them: the execution-apis rpc-compat suite's blob transaction, whose hash
/// geth reported, and mutations of it.
@Suite struct BlobSidecarTests {
    static func raw() throws -> [UInt8]? {
        guard let url = TestPaths.shared("rpc-compat/eth_sendRawTransaction/send-blob-tx.io", what: "the rpc-compat blob transaction")
        else { return nil }
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(">>") }) else { return nil }
        let request = try JSONParser.parse(String(line.dropFirst(3)))
        guard let hex = request["params"]?.arrayValue?.first?.stringValue else { return nil }
        return try Hex.decode(hex)
    }

    @Test func theNetworkFormDecodesToThePayloadAndItsHash() throws {
        guard let raw = try Self.raw() else { return }
        let (signed, sidecar) = try SignedTransaction.decodeNetworkForm(raw)
        #expect(signed.hash.hexString == "0x05d85f6a761cac82cfdf06dd168952838ac452b10641aabccdfdad46e03d2f0b")
        let sidecarValue = try #require(sidecar)
        #expect(sidecarValue.version == 1)
        #expect(sidecarValue.blobs.count == 1 && sidecarValue.proofs.count == 128)
        // The canonical decoder still refuses the wrapper (blocks never hold it).
        #expect(throws: TransactionError.sidecarNotSupported) { try SignedTransaction.decode(raw) }
    }

    @Test func aCommitmentThatDoesNotHashToTheVersionedHashIsRefused() async throws {
        guard let raw = try Self.raw() else { return }
        // Flip one byte of the commitment: find it right after the blob (131,072 bytes) in the encoding.
        let (_, sidecar) = try SignedTransaction.decodeNetworkForm(raw)
        let commitment = try #require(sidecar?.commitments.first)
        var mutated = raw
        let start = try #require(Self.find(commitment, in: raw))
        mutated[start + 10] ^= 0xff
        var config = ChainConfig.deterministic()
        config.chainId = 3_503_995_874_084_926
        let chain = try await DevChain(config: config)
        await #expect(throws: ChainError.self) { try await chain.sendRawTransaction(mutated) }
        do { _ = try await chain.sendRawTransaction(mutated) } catch {
            #expect(error.description.contains("does not hash to the versioned hash"))
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }
}
