import TestSupport
import Testing
import EthereumPrimitives

/// Keccak-256 over real Ethereum data: every transaction vector in ethereum/tests TransactionTests that
/// records a transaction hash must hash to it from its `txbytes` (sizes range up to ~49 KB, so these are
/// multi-block known answers with Keccak's own padding).
@Suite struct KeccakConformanceTests {
    @Test func transactionHashes() {
        let suite = "Keccak256/TransactionTests"
        let tally = ConformanceVectors.run(suite: suite, directory: "TransactionTests") { _, _, value in
            guard let txHex = value["txbytes"]?.stringValue else { return .notApplicable }
            let hashes = Set((value["result"]?.objectValue ?? []).compactMap { $0.value["hash"]?.stringValue })
            guard !hashes.isEmpty else { return .notApplicable }  // an invalid transaction: no hash
            guard hashes.count == 1, let expectedHex = hashes.first else {
                return .fail("forks disagree on the hash: \(hashes)")
            }
            do {
                let got = Keccak256.hash(try [UInt8](hex: txHex))
                let expected = try Bytes32(hex: expectedHex)
                return got == expected ? .pass : .fail("got \(got), expected \(expected)")
            } catch {
                return .fail("bad hex in vector: \(error)")
            }
        }
        tally.report()
    }
}
