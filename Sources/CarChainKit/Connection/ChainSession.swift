import CarChain
import Chain
import DevNode
import EthereumPrimitives
import EthereumRPC
import Foundation

/// A connection to the chain for one command, resolved in one place: the backend (a JSON-RPC node from
/// `--rpc` or `$CARCHAIN_RPC`; otherwise the `carchain node` that owns the data directory, found through
/// its lock file; otherwise the embedded chain opened in-process on the data directory), the node's chain
/// id (checked against `--chain-id` before anything else), the signer and sender for transactions, and
/// the CarChain contract.
struct NodeSession {
    let client: RPCClient
    let chainID: UInt64
    /// The data directory when the chain is the embedded one or the node serving it (its CarChain
    /// address is kept there); nil for a node given by URL.
    let dataDirectory: URL?
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
        let client: RPCClient
        var dataDirectory: URL?
        if let url = node.url(environment: environment) {
            client = try RPCClient(url: url, timeout: node.timeout)
        } else {
            let directory = node.dataDirectory(environment: environment)
            dataDirectory = directory
            client = try await embeddedClient(directory, timeout: node.timeout)
        }
        let chainID = try await client.chainID()
        guard chainID == node.chainId else {
            throw SendError.chainIDMismatch(expected: node.chainId, node: chainID, endpoint: client.endpoint)
        }
        var sender: TransactionSender?
        if let signer, let transactions {
            let key = try await signer.loadKey(chainID: chainID) { try? await client.clientVersion() }
            sender = try await TransactionSender.connect(
                client: client, signer: PrivateKeySigner(key: key), options: try transactions.sendOptions(chainID: chainID))
        }
        return NodeSession(
            client: client, chainID: chainID, dataDirectory: dataDirectory, sender: sender, backend: RPCContractBackend(client: client, sender: sender),
            home: CarchainHome.current(environment: environment), node: node)
    }

    /// The CarChain contract: `--contract`, or the one remembered for this chain id. The project's ABI is
    /// used (a superset of the seed's, with the same selectors); ``isProjectContract`` tells the two apart.
    func contract() async throws -> CarChainContract {
        let address: Address
        if let given = try node.contractAddress() {
            address = given
        } else if let dataDirectory, let remembered = EmbeddedChain.rememberedContract(dataDirectory) {
            address = remembered
        } else if dataDirectory == nil, let remembered = try home.contract(chainID: chainID) {
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

    /// Remembers a deployed contract: in the data directory for the embedded chain (or the node serving
    /// it), in `$CARCHAIN_HOME/config.json` per chain id for a node given by URL.
    func remember(contract address: Address) throws(CLIError) {
        if let dataDirectory {
            try EmbeddedChain.remember(contract: address, chainID: chainID, in: dataDirectory)
        } else {
            try home.remember(contract: address, chainID: chainID)
        }
    }

    /// The client for a data directory: over HTTP to the `carchain node` whose lock names a URL, or
    /// in-process to the chain opened here (deploying CarChain on first use).
    private static func embeddedClient(_ directory: URL, timeout: Double) async throws -> RPCClient {
        if let owner = ChainLock.owner(of: directory), let url = owner.url {
            return try RPCClient(url: url, timeout: timeout)
        }
        let chain: DevChain
        do {
            chain = try await EmbeddedChain.open(directory)
        } catch let error as ChainError {
            if case .dataDirectoryLocked(_, _, let url?) = error { return try RPCClient(url: url, timeout: timeout) }
            throw CLIError("embedded chain at \(directory.path): \(error)")
        }
        _ = try await EmbeddedChain.ensureContract(on: chain, dataDirectory: directory)
        let handler = NodeRPCHandler(chain: chain)
        return RPCClient(transport: InProcessTransport(handler: handler, endpoint: "embedded chain at \(directory.path)"))
    }
}
