import Chain
import EthereumPrimitives
import Testing

/// Chains in memory each keep their own history (`MemoryChainHistory`, one per chain): one chain's blocks, logs and
/// genesis are never another's.
@Suite struct MemoryStoreTests {
    @Test func chainsInMemoryShareNothing() async throws {
        let first = try await DevChain(config: .deterministic())
        let blocks = try await first.mine(blocks: 3)
        let second = try await DevChain(config: .deterministic())
        #expect(blocks.count == 3)
        #expect(await first.blockNumber() == 3)
        #expect(await second.blockNumber() == 0)
        // The same configuration makes the same genesis, in either copy.
        let genesis = try #require(try await first.block(.number(0)))
        #expect(try await second.block(.number(0))?.hash == genesis.hash)
        #expect(try await second.block(.number(1)) == nil)
        // Both histories answer queries on their own blocks.
        #expect(try await first.logs(LogFilter(fromBlock: .earliest)).isEmpty)
        #expect(try await second.logs(LogFilter(fromBlock: .earliest)).isEmpty)
        // Mining on the second leaves the first's blocks as they were.
        let other = try await second.mine(blocks: 1, timestamp: genesis.header.timestamp + 100)
        #expect(other.first?.hash != blocks.first?.hash)
        #expect(try await first.block(.number(1))?.hash == blocks.first?.hash)
        await first.close()
        await second.close()
    }
}
