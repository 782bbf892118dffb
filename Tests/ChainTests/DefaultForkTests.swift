import Chain
import EthereumPrimitives
import Foundation
import Testing

/// The default fork (Osaka) and data directories made under another one: refused when a fork is asked for,
/// kept when the caller did not ask (the embedded CLI chain, `carchain node` without `--hardfork`).
@Suite struct DefaultForkTests {
    typealias F = ChainFixtures

    @Test func theDefaultIsOsakaAndEveryNamedForkFromByzantiumIsSupported() {
        #expect(ChainConfig().hardfork == .osaka)
        #expect(ChainConfig.defaultHardfork == .osaka)
        #expect(ChainConfig.supportedHardforks.first == .byzantium && ChainConfig.supportedHardforks.last == .bpo2)
        #expect(ChainConfig.supportedHardforks.count == 16)
    }

    @Test func aCancunDirectoryKeepsItsForkUnlessAnotherIsAskedFor() async throws {
        let directory = F.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var cancun = ChainConfig.deterministic()
        cancun.hardfork = .cancun
        let chain = try await DevChain(config: cancun, storage: .directory(directory))
        _ = try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: F.address1).encoded)
        await chain.close()

        // Asked for the default (Osaka): refused, nothing changed.
        await #expect(throws: ChainError.configMismatch("hardfork Cancun on disk, Osaka requested")) {
            try await DevChain(config: .deterministic(), storage: .directory(directory))
        }
        // Not asked: the stored fork runs, and the configuration says so.
        var keeping = ChainConfig.deterministic()
        keeping.keepsStoredHardfork = true
        let reopened = try await DevChain(config: keeping, storage: .directory(directory))
        #expect(reopened.hardfork == .cancun && reopened.config.hardfork == .cancun)
        #expect(await reopened.blockNumber() == 1)
        await reopened.close()
    }
}
