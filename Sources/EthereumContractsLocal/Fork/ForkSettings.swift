import Chain
import EthereumPrimitives
import EthereumWire
import Foundation

/// How to fork a remote chain: the node's URL, the block, the chain id it must have, where the fork cache lives and
/// how long a request may take. `carchain node --fork-url …`, the CLI's `--fork-url` rehearsals and EthereumTesting's
/// forked `TestChain` describe their options with it, and ``open()`` is the one way they connect (Chain/Fork holds the
/// chain side; docs/NODE.md, "Fork mode"; docs/TESTING.md, "Forking").
public struct ForkSettings: Sendable {
    /// The remote's JSON-RPC URL (may hold a provider's key: it is never printed, see ``RemoteForkSource/displayed(_:)``).
    public var url: String
    /// The fork block; nil: the remote's latest when connecting.
    public var blockNumber: UInt64?
    /// The chain id the remote must report; nil accepts any (the fork then has the remote's).
    public var chainID: UInt64?
    /// Where `fork-<chain id>-<block>.sqlite` lives; nil keeps nothing on disk (`--no-fork-cache`).
    public var cacheDirectory: URL?
    /// Seconds each request to the remote may take.
    public var timeout: Double
    /// Where warnings go (a discarded cache file), one line each.
    public var warn: @Sendable (String) -> Void
    /// How requests reach the remote; nil: HTTP to ``url`` (the only way the CLI connects). Tests and benchmarks put
    /// an in-process node here, or a transport that counts round trips.
    public var transport: (any RPCTransport)?
    /// A fork block whose header cannot be verified (its fields do not hash to the hash the remote reported) stops
    /// the fork instead of a warning (`--fork-verify-headers`).
    public var verifyHeaders = false

    public init(
        url: String, blockNumber: UInt64? = nil, chainID: UInt64? = nil, cacheDirectory: URL? = nil, timeout: Double = 30,
        warn: @escaping @Sendable (String) -> Void = { _ in }, transport: (any RPCTransport)? = nil
    ) {
        self.url = url
        self.blockNumber = blockNumber
        self.chainID = chainID
        self.cacheDirectory = cacheDirectory
        self.timeout = timeout
        self.warn = warn
        self.transport = transport
    }

    /// The longest time limit accepted for one request to the remote, in seconds.
    public static let timeoutRange: ClosedRange<Double> = 0.1...600

    /// The fork's cache over the remote, connected and checked. With the chain id and block given, a cache file that
    /// holds the fork block starts the fork without asking the remote anything (it may be down: what was cached is
    /// still served). Otherwise the remote is asked for its chain id and the block (one round trip), and a cache file
    /// that recorded another block at that height (the remote reorganised) is emptied first.
    public func open() async throws(ForkError) -> ForkCache {
        if let cacheDirectory, let chainID, let blockNumber {
            let file = try openFile(cacheDirectory, chainID: chainID, block: blockNumber)
            if let point = file.storedPoint {
                try verify(point, unknownFields: [])
                return ForkCache(point: point, remote: try RemoteForkSource.offline(self, point: point), file: file)
            }
        }
        let (remote, point) = try await RemoteForkSource.connect(self)
        var file: ForkCacheFile?
        if let cacheDirectory {
            let opened = try openFile(cacheDirectory, chainID: point.chainId, block: point.number)
            if let stored = opened.storedPoint, stored.hash != point.hash {
                let reason = "the remote's block \(point.number) is now \(point.hash), not the cached \(stored.hash) (a reorg)"
                try opened.reset(because: reason)
                warn("discarded the fork cache \(opened.path): \(reason)")
            }
            try opened.storePoint(point)
            file = opened
        }
        return ForkCache(point: point, remote: remote, file: file)
    }

    /// Checks the fork block's header against the hash the remote reported. Verified when its fields hash to it. When
    /// they do not — a remote whose headers carry fields this node does not know (`unknownFields`: an L2's, a newer
    /// fork's) or hash another way (the py-evm node's eth-tester chain, some L2s) — the block is named once, with
    /// why, through ``warn``, and the reported hash is used (as anvil does); with ``verifyHeaders`` it is an error.
    /// Nothing else of the header is trusted less: the state is read by that hash, and local blocks continue it.
    func verify(_ point: ForkPoint, unknownFields: [String]) throws(ForkError) {
        let computed = point.header.hash
        guard computed != point.hash else { return }
        let why = unknownFields.isEmpty
            ? "its fields hash to \(computed), not the reported \(point.hash) (the remote builds headers another way)"
            : "its header has fields this node does not know (\(unknownFields.prefix(8).joined(separator: ", "))"
                + (unknownFields.count > 8 ? ", …" : "") + "), so its fields hash to \(computed), not the reported \(point.hash)"
        if verifyHeaders { throw .unverifiedHeader(block: point.number, reason: why) }
        warn("fork block \(point.number) (\(point.hash)) could not be verified: \(why); going on with the hash the remote reported (--fork-verify-headers makes this an error)")
    }

    private func openFile(_ directory: URL, chainID: UInt64, block: UInt64) throws(ForkError) -> ForkCacheFile {
        let file = try ForkCacheFile(directory: directory, chainId: chainID, block: block)
        if let discarded = file.discarded { warn("discarded the fork cache \(file.path): \(discarded)") }
        return file
    }
}
