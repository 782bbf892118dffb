import Chain
import EthereumContractsLocal
import DevNode
import EthereumPrimitives
import EthereumRPC
import Foundation

/// A fork of a live chain in this process, for one CLI command (`carchain rent PLATE --fork-url URL`, `carchain
/// stats --fork-url URL`): a ``DevChain`` in memory continuing the remote at a block, answered through a
/// ``NodeRPCHandler`` (which fetches the remote's state as calls need it) over an in-process transport. Only reads
/// reach the remote; every transaction stays in this process and is gone when it exits.
public struct ForkedChain: Sendable {
    /// The JSON-RPC client to the fork.
    public let client: RPCClient
    /// The chain.
    public let chain: DevChain
    /// Where the fork came from.
    public let origin: ForkOrigin

    /// Connects to the remote as `settings` say and starts the fork (the dev accounts funded, as `carchain node
    /// --fork-url` does).
    public static func open(_ settings: ForkSettings) async throws -> ForkedChain {
        let cache: ForkCache
        do { cache = try await settings.open() } catch { throw AppError.failed(error.description) }
        let chain: DevChain
        do {
            var config = ChainConfig()
            config.keepsStoredHardfork = true  // the fork's rules follow the fork block's header
            chain = try await DevChain(config: config, fork: cache)
        } catch {
            throw AppError.failed("cannot start the fork: \(error)")
        }
        let origin = ForkOrigin(remote: cache.remote.endpoint, block: cache.point.number, hash: cache.point.hash, chainID: cache.point.chainId)
        let transport = InProcessTransport(
            handler: NodeRPCHandler(chain: chain), endpoint: "fork of \(origin.remote) at block \(origin.block)")
        return ForkedChain(client: RPCClient(transport: transport), chain: chain, origin: origin)
    }
}

/// The remote block a fork continues, for messages and reports.
public struct ForkOrigin: Sendable, Equatable {
    /// The remote's scheme, host and port (never a key the URL holds).
    public var remote: String
    /// The fork block.
    public var block: UInt64
    public var hash: Bytes32
    /// The remote's chain id.
    public var chainID: UInt64

    /// "a fork of https://node.example at block 123".
    public var description: String { "a fork of \(remote) at block \(block)" }
}
