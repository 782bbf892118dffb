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

    /// The same vectors hashed side by side (``Keccak256/hashes(of:)``), with every vector body this CPU runs: messages of
    /// very different lengths share the lanes, each taking the next as it finishes.
    @Test func transactionHashesSideBySide() throws {
        var messages: [[UInt8]] = []
        var expected: [Bytes32] = []
        let tally = ConformanceVectors.run(suite: "Keccak256 side by side/TransactionTests", directory: "TransactionTests") { _, _, value in
            guard let txHex = value["txbytes"]?.stringValue,
                let hash = (value["result"]?.objectValue ?? []).compactMap({ $0.value["hash"]?.stringValue }).first
            else { return .notApplicable }
            do {
                messages.append(try [UInt8](hex: txHex))
                expected.append(try Bytes32(hex: hash))
                return .pass
            } catch {
                return .fail("bad hex in vector: \(error)")
            }
        }
        tally.report()
        var buffer: [UInt8] = []
        var ranges: [Range<Int>] = []
        for message in messages {
            ranges.append(buffer.count..<(buffer.count + message.count))
            buffer += message
        }
        for lanes in KeccakTests.bodies {
            let got = KeccakTests.hashes(buffer, ranges, lanes: lanes)
            let wrong = zip(got, expected).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            #expect(wrong.isEmpty, "\(String(describing: lanes)): \(wrong.count) of \(messages.count) wrong, first at \(wrong.first ?? -1)")
        }
        #expect(Keccak256.hashes(of: messages) == expected)
    }
}
