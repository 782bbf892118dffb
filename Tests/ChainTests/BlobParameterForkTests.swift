import Chain
import EVM
import EthereumPrimitives
import Testing

/// EIP-7892's blob-parameter-only forks BPO1 and BPO2: Osaka's rules with mainnet's larger blob schedules
/// (10 / 15 and 14 / 21 blobs), in the fee market, the fork rules, the names and a dev chain's `eth_config`.
@Suite struct BlobParameterForkTests {
    @Test func namesAndOrder() {
        #expect(Hardfork(name: "BPO1") == .bpo1 && Hardfork(name: "bpo2") == .bpo2)
        #expect(Hardfork.bpo1.name == "BPO1" && Hardfork.bpo2.name == "BPO2")
        #expect(Hardfork.osaka < .bpo1 && Hardfork.bpo1 < .bpo2)
        #expect(ChainConfig.supportedHardforks.suffix(3) == [.osaka, .bpo1, .bpo2])
    }

    @Test func schedulesAndOtherwiseOsakaRules() {
        #expect(ForkRules(.bpo1).blobSchedule == BlobSchedule(target: 10, max: 15, baseFeeUpdateFraction: 8_346_193))
        #expect(ForkRules(.bpo2).blobSchedule == BlobSchedule(target: 14, max: 21, baseFeeUpdateFraction: 11_684_671))
        #expect(ForkRules(.osaka).blobSchedule == .prague)
        let osaka = ForkRules(.osaka)
        for fork in [Hardfork.bpo1, .bpo2] {
            let rules = ForkRules(fork)
            #expect(rules.transactionGasLimitCap == osaka.transactionGasLimitCap)
            #expect(rules.maxBlobsPerTransaction == osaka.maxBlobsPerTransaction)
            #expect(rules.codeDelegation && rules.blobs)
            #expect(Precompiles.addresses(for: fork) == Precompiles.addresses(for: .osaka))
        }
    }

    @Test func excessBlobGasUsesTheForksTarget() {
        // A parent that used 12 blobs with no excess and a zero base fee (so EIP-7918's reserve price is not in play).
        let parent = BlockHeader(
            parentHash: .zero, coinbase: .zero, stateRoot: .zero, number: 1, gasLimit: 30_000_000, timestamp: 1,
            baseFeePerGas: .zero, withdrawalsRoot: .zero, blobGasUsed: 12 * BlobGas.perBlob, excessBlobGas: 0)
        #expect(FeeMarket.nextExcessBlobGas(parent: parent, fork: .osaka) == 6 * BlobGas.perBlob)
        #expect(FeeMarket.nextExcessBlobGas(parent: parent, fork: .bpo1) == 2 * BlobGas.perBlob)
        #expect(FeeMarket.nextExcessBlobGas(parent: parent, fork: .bpo2) == 0)
        #expect(FeeMarket.maxBlobGas(fork: .bpo2) == 21 * BlobGas.perBlob)
    }

    @Test func aDevChainOnBPO2AnnouncesItsSchedule() async throws {
        var config = ChainConfig.deterministic()
        config.hardfork = .bpo2
        let chain = try await DevChain(config: config)
        let current = await chain.forkConfiguration()
        #expect(current.blobSchedule == .bpo2)
        _ = try await chain.mine()
        #expect(await chain.blockNumber() == 1)
    }
}
