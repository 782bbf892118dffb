import EthereumContractsLocal
import EthereumPrimitives
import Foundation

/// Where the chain is and what it must be, resolved by the caller (the CLI from `--rpc`, `$CARCHAIN_RPC`,
/// `--data-dir`, `--chain-id`, `--timeout`, `--contract` and `--fork-url`): a JSON-RPC node by URL, a fork of one
/// in this process, or else the embedded chain on a data directory (or the `carchain node` that owns it).
public struct ChainConnection: Sendable {
    /// The node's JSON-RPC URL; nil for the embedded chain.
    public var url: String?
    /// The embedded chain's data directory (also where the auth service's users and the fleet map live).
    public var dataDirectory: URL
    /// The chain id the node must report; nothing is signed otherwise.
    public var chainID: UInt64
    /// Seconds each request may take.
    public var timeout: Double
    /// The CarChain contract to use instead of the one remembered for the chain.
    public var contract: Address?
    /// A live chain to fork in this process instead (`--fork-url`): reads come from it at the fork block, and
    /// transactions are rehearsed on the fork, never sent (``ForkRehearsal``). `url` is then nil.
    public var fork: ForkSettings?

    public init(
        url: String?, dataDirectory: URL, chainID: UInt64 = 4, timeout: Double = 30, contract: Address? = nil, fork: ForkSettings? = nil
    ) {
        self.url = url
        self.dataDirectory = dataDirectory
        self.chainID = chainID
        self.timeout = timeout
        self.contract = contract
        self.fork = fork
    }
}
