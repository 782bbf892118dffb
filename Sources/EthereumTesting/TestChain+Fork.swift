import Chain
import EthereumContractsLocal
import EthereumPrimitives
import Foundation

/// Forking a live chain (Foundry's `vm.createSelectFork(url, block)`): the bench continues a remote chain at a block.
///
/// The remote's state at the fork block is read lazily over JSON-RPC (EthereumContractsLocal's ``RemoteForkSource``,
/// the same code as `carchain node --fork-url`) and cached; everything the bench does — transactions, pranks, deals,
/// warps, snapshots and reverts — stays in this process, and the remote is only ever read. With a cache directory,
/// what was read is kept in `fork-<chain id>-<block>.sqlite` there, and a later fork of the same block reads it from
/// the file instead of the remote (docs/TESTING.md, "Forking").
extension TestChain {
    /// A bench forked from the node at `url` at block `blockNumber` (nil: the remote's latest block, pinned when the
    /// fork is made, as `vm.createFork(url)`). `cacheDirectory` keeps what is read across runs (nil: memory only);
    /// `hardfork` caps the rules the fork runs (the fork block's header implies them, as on `carchain node --fork-url`).
    ///
    /// The bench keeps the remote's chain id; the dev accounts are funded with 10,000 ether each (their nonces and code
    /// stay the remote's), and gas is free from the first local block on. Throws ``ForkError`` when the remote cannot be
    /// reached, has no such block or answers something unreadable; its description names the remote by scheme, host
    /// and port only (a provider's key in the URL's path or query, and any user or password, are never shown).
    public convenience init(
        forkURL url: String, blockNumber: UInt64? = nil, cacheDirectory: URL? = nil, hardfork: Hardfork? = nil
    ) async throws {
        try await self.init(fork: ForkSettings(url: url, blockNumber: blockNumber, cacheDirectory: cacheDirectory), hardfork: hardfork)
    }

    /// A bench forked as `settings` say (the chain id the remote must have, the time limit per request, a transport of
    /// one's own for the remote — an in-process node, a counting transport), as ``init(forkURL:blockNumber:cacheDirectory:hardfork:)``.
    public convenience init(fork settings: ForkSettings, hardfork: Hardfork? = nil) async throws {
        let cache = try await settings.open()
        try await self.init(hardfork: hardfork, fork: cache)
    }

    /// The remote block the bench continues (nil for a bench of its own).
    public var forkPoint: ForkPoint? { chain.forkPoint }

    /// The remote's address as messages show it (scheme, host and port), nil for a bench of its own.
    public var forkRemote: String? { chain.forkCache?.remote.endpoint }

    /// How many fetches (each one JSON-RPC batch) went to the remote since the fork was made: 0 when everything read
    /// came from the cache file.
    public var forkFetches: UInt64 { chain.forkCache?.remoteFetches ?? 0 }

    /// Forks the remote again at block `blockNumber` (nil: its latest now), as forge's `vm.rollFork`: the bench
    /// continues that block as if it had been made there — local blocks, state, snapshots and time are gone; labels,
    /// recorded transactions and the prank stay. The cache directory and the transport are the first fork's. Throws
    /// ``TestFailure`` on a bench that is no fork, ``ForkError`` as ``init(forkURL:blockNumber:cacheDirectory:hardfork:)``.
    public func rollFork(to blockNumber: UInt64?) async throws {
        guard let cache = chain.forkCache else { throw TestFailure("rollFork(to:): this bench is not a fork (make it with TestChain(forkURL:))") }
        let next = try await cache.remote.reopen(url: nil, blockNumber: blockNumber)
        do throws(ChainError) { try await chain.refork(next) } catch { throw DevChainBackendError.chain(error) }
        try await Self.setUp(chain)
    }
}
