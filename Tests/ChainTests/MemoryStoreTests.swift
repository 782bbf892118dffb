import Chain
import EthereumPrimitives
import EthereumTransactions
import Foundation
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

/// A chain that is closed and no longer referenced is freed with its state and history, in memory and on SQLite: a
/// test suite makes a chain per test, thousands in one process, and memory must not grow with them.
@Suite struct ChainLifetimeTests {
    typealias F = ChainFixtures

    @Test(arguments: [false, true]) func aClosedChainIsFreed(onDisk: Bool) async throws {
        let directory = F.temporaryDirectory("lifetime-\(onDisk)")
        defer { try? FileManager.default.removeItem(at: directory) }
        weak var weakChain: DevChain?
        do {
            let chain = try await DevChain(config: .deterministic(), storage: onDisk ? .directory(directory) : .memory)
            weakChain = chain
            for nonce in 0..<5 as Range<UInt64> {
                let raw = F.dynamicFee(F.key0, nonce: nonce, to: F.address1, value: F.oneGwei).encoded
                _ = try await chain.sendRawTransaction(raw)
            }
            #expect(await chain.blockNumber() == 5)
            _ = try await chain.call(CallRequest(to: F.address1))
            await chain.close()
        }
        // Tasks the chain started may still be finishing; give them a moment, then it must be gone.
        for _ in 0..<100 where weakChain != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(weakChain == nil, "the chain (onDisk: \(onDisk)) is still referenced after close")
    }
}
