import Chain
import EVM
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// A chain from geth's genesis format and blocks from another client: execution-apis' rpc-compat test chain
/// (54 blocks, Homestead through the Merge to BPO2, with ommers, every transaction type and withdrawals), whose
/// block hashes and state roots geth computed. Every block is executed and its header commitments checked.
@Suite struct ChainImportTests {
    static func files() -> (genesis: [UInt8], chain: [UInt8])? {
        guard let genesis = TestPaths.shared("rpc-compat/genesis.json", what: "the rpc-compat genesis"),
            let chain = TestPaths.shared("rpc-compat/chain.rlp", what: "the rpc-compat chain")
        else { return nil }
        guard let g = try? Data(contentsOf: genesis), let c = try? Data(contentsOf: chain) else { return nil }
        return ([UInt8](g), [UInt8](c))
    }

    static func chain(_ genesisBytes: [UInt8]) async throws -> DevChain {
        var config = ChainConfig()
        config.use(try Genesis(json: genesisBytes))
        return try await DevChain(config: config)
    }

    @Test func theGenesisFileGivesGethsGenesisHash() async throws {
        guard let (genesisBytes, chainBytes) = Self.files() else { return }
        let genesis = try Genesis(json: genesisBytes)
        #expect(genesis.chainId == 3_503_995_874_084_926)
        #expect(genesis.schedule.fork(number: 0, timestamp: 0) == .homestead)
        #expect(genesis.schedule.fork(number: 9, timestamp: 90) == .byzantium)
        #expect(genesis.schedule.fork(number: 15, timestamp: 150) == .petersburg)
        #expect(genesis.schedule.fork(number: 36, timestamp: 360) == .paris)
        #expect(genesis.schedule.fork(number: 45, timestamp: 450) == .prague)
        #expect(genesis.schedule.fork(number: 54, timestamp: 540) == .bpo2)
        #expect(genesis.alloc.stateRoot.hexString == "0xdc43f460541a253c0f64b6943ef83fa3bd601699a255622f088d46f7fde359fc")
        let header = genesis.header(stateRoot: genesis.alloc.stateRoot, initialBaseFee: .one)
        let chain = try await Self.chain(genesisBytes)
        // Block 1's parent hash is geth's genesis hash.
        let first = try DecodedBlock(encoded: Array(try BlockFile.split(chainBytes)[0]))
        #expect(try await chain.block(.number(0))?.hash == first.header.parentHash)
    }

    @Test func importsEveryBlockOfTheRPCCompatChain() async throws {
        guard let (genesisBytes, chainBytes) = Self.files() else { return }
        let chain = try await Self.chain(genesisBytes)
        let summary = try await chain.importBlocks(rlp: chainBytes)
        print("rpc-compat chain import: \(summary.imported) blocks, \(summary.transactions) transactions, head \(summary.headNumber)")
        #expect(summary.imported == 54)
        #expect(summary.headNumber == 54)
        #expect(summary.headHash.hexString == "0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7")
        // Importing the same file again changes nothing.
        let again = try await chain.importBlocks(rlp: chainBytes)
        #expect(again.imported == 0 && again.known == 54)
    }
}
