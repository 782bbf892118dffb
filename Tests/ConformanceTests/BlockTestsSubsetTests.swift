import Chain
import Conformance
import EVM
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// A fast in-process subset of the EEST blockchain tests (`BlockchainTests-Prague/`), so `swift test` alone
/// exercises the block processor: requests (EIP-7685, EIP-7002, EIP-7251, EIP-6110) and the EIP-2935 history
/// contract. The whole directory runs through `make blocktests` (`carchain evm blocktest`).
@Suite struct BlockTestsSubsetTests {
    static let root = "BlockchainTests-Prague/blockchain_tests/prague"
    static let directories = [
        "eip7685_general_purpose_el_requests",
        "eip2935_historical_block_hashes_from_state",
    ]

    @Test(arguments: directories)
    func blockTests(directory: String) throws {
        let suite = "BlockchainTests \(directory)"
        var tally = ConformanceTally(suite: suite)
        guard let dir = ConformanceVectors.directory("\(Self.root)/\(directory)", suite: suite) else {
            tally.record(.skip("vectors not found"), case: directory)
            tally.report()
            return
        }
        let runner = BlockTestRunner()
        for file in ConformanceVectors.jsonFiles(under: dir) {
            for result in runner.run(file: file) {
                let outcome: CaseOutcome =
                    result.skipped ? .skip(result.error ?? "skipped") : result.pass ? .pass : .fail(result.error ?? "failed")
                tally.record(outcome, case: "\(file.lastPathComponent):\(result.label)")
            }
        }
        tally.report()
        #expect(tally.passed > 0)
    }

    /// The system contracts a Prague dev genesis deploys have the code the fixtures' pre-states hold (as
    /// their EIPs deploy it on mainnet).
    @Test func systemContractCodeMatchesTheFixtures() throws {
        guard let dir = ConformanceVectors.directory("\(Self.root)/eip7685_general_purpose_el_requests", suite: "system contracts"),
            let file = ConformanceVectors.jsonFiles(under: dir).first
        else { return }
        let tests = try BlockTest.parseFile([UInt8](Data(contentsOf: file)))
        let pre = try #require(tests.first?.pre)
        let ours = SystemContracts.genesisAccounts(fork: .prague)
        #expect(ours.count == 4)
        for (address, account) in ours {
            let theirs = try #require(pre[address], "no \(address.lowercasedHex) in the fixture's pre-state")
            #expect(theirs.codeHash == account.codeHash, "code of \(address.lowercasedHex)")
        }
    }
}
