import Chain
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing

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
