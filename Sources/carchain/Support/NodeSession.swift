import CarChain
import EthereumPrimitives
import EthereumRPC
import Foundation

/// A connection to the chain for one command, resolved in one place: the backend (for now a JSON-RPC node
/// from `--rpc` or `$CARCHAIN_RPC`; the embedded chain will become the default here when `--rpc` is absent),
/// the node's chain id (checked against `--chain-id` before anything else), the signer and sender for
/// transactions, and the CarChain contract.
struct NodeSession {
    let client: RPCClient
    let chainID: UInt64
    /// Nil for read-only commands.
    let sender: TransactionSender?
    let backend: RPCContractBackend
    let home: CarchainHome
    let node: NodeOptions

    /// Connects for reads only (no signer).
    static func reading(_ node: NodeOptions) async throws -> NodeSession {
        try await connect(node, signer: nil, transactions: nil)
    }

    /// Connects for sending with the given signer and transaction options.
    static func sending(_ node: NodeOptions, signer: NodeSignerOptions, transactions: TransactionOptions) async throws -> NodeSession {
        try await connect(node, signer: signer, transactions: transactions)
    }

    private static func connect(_ node: NodeOptions, signer: NodeSignerOptions?, transactions: TransactionOptions?) async throws -> NodeSession {
        let environment = ProcessInfo.processInfo.environment
        guard let url = node.url(environment: environment) else {
            throw CLIError("no node: give --rpc URL or set CARCHAIN_RPC")
        }
        let client = try RPCClient(url: url, timeout: node.timeout)
        let chainID = try await client.chainID()
        guard chainID == node.chainId else {
            throw SendError.chainIDMismatch(expected: node.chainId, node: chainID, endpoint: url)
        }
        var sender: TransactionSender?
        if let signer, let transactions {
            let key = try await signer.loadKey(chainID: chainID) { try? await client.clientVersion() }
            sender = try await TransactionSender.connect(
                client: client, signer: PrivateKeySigner(key: key), options: try transactions.sendOptions(chainID: chainID))
        }
        return NodeSession(
            client: client, chainID: chainID, sender: sender, backend: RPCContractBackend(client: client, sender: sender),
            home: CarchainHome.current(environment: environment), node: node)
    }

    /// The CarChain contract: `--contract`, or the one remembered for this chain id. The project's ABI is
    /// used (a superset of the seed's, with the same selectors); ``isProjectContract`` tells the two apart.
    func contract() async throws -> CarChainContract {
        let address: Address
        if let given = try node.contractAddress() {
            address = given
        } else if let remembered = try home.contract(chainID: chainID) {
            address = remembered
        } else {
            throw CLIError("no contract for chain \(chainID): run `carchain deploy` or give --contract ADDRESS")
        }
        let code = try await client.code(at: address)
        guard !code.isEmpty else {
            throw CLIError("no contract at \(address) on chain \(chainID) (nothing deployed there on this node)")
        }
        return CarChainContract(address: address, backend: backend, artifact: .project)
    }
}
