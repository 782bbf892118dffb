import CarChain
import Chain
import DevNode
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import Foundation

/// A connection to the chain for one operation, resolved in one place: the backend (a JSON-RPC node by URL; a
/// fork of one in this process, `--fork-url`; otherwise the `carchain node` that owns the data directory, found
/// through its lock file; otherwise the embedded chain opened in-process on the data directory), the node's chain
/// id (checked before anything else), the signer and sender for transactions, and the CarChain contract.
public struct ChainSession: Sendable {
    /// The JSON-RPC client (HTTP, or in-process to the embedded chain).
    public let client: RPCClient
    /// The chain id the node reported (and the connection asked for).
    public let chainID: UInt64
    /// The data directory when the chain is the embedded one or the node serving it (its CarChain address is
    /// kept there); nil for a node given by URL.
    public let dataDirectory: URL?
    /// Nil for read-only sessions.
    public let sender: TransactionSender?
    /// The binding's backend over this connection.
    public let backend: RPCContractBackend
    /// `$CARCHAIN_HOME`, where contracts deployed on nodes given by URL are remembered.
    public let home: CarchainHome
    /// What the session was opened with.
    public let connection: ChainConnection
    /// The remote block the session's chain forks (`--fork-url`); nil on any other chain.
    public let fork: ForkOrigin?

    /// Connects for reads only (no signer).
    public static func reading(_ connection: ChainConnection) async throws -> ChainSession {
        try await connect(connection, signer: nil, settings: nil)
    }

    /// Connects for reads only through `client` (e.g. a WebSocket connection the caller opened to
    /// `connection.url`); the contract is then looked up as for any node given by URL.
    public static func reading(_ connection: ChainConnection, over client: RPCClient) async throws -> ChainSession {
        try await connect(connection, signer: nil, settings: nil, client: client)
    }

    /// Connects for sending, signed by `signer`, with `settings`.
    public static func sending(_ connection: ChainConnection, signer: SignerSource, settings: SendSettings) async throws -> ChainSession {
        try await connect(connection, signer: signer, settings: settings)
    }

    private static func connect(
        _ connection: ChainConnection, signer: SignerSource?, settings: SendSettings?, client given: RPCClient? = nil
    ) async throws -> ChainSession {
        let client: RPCClient
        var dataDirectory: URL?
        var fork: ForkOrigin?
        if let given {
            client = given
            if connection.url == nil { dataDirectory = connection.dataDirectory }
        } else if let settings = connection.fork {
            guard signer == nil else {
                throw AppError.failed("nothing is signed on a fork (--fork-url): a transaction there is rehearsed, not sent")
            }
            let forked = try await ForkedChain.open(settings)
            client = forked.client
            fork = forked.origin
        } else if let url = connection.url {
            client = try RPCClient(url: url, timeout: connection.timeout)
        } else {
            dataDirectory = connection.dataDirectory
            client = try await embeddedClient(connection.dataDirectory, timeout: connection.timeout)
        }
        let chainID = try await client.chainID()
        guard chainID == connection.chainID else {
            throw SendError.chainIDMismatch(expected: connection.chainID, node: chainID, endpoint: client.endpoint)
        }
        var sender: TransactionSender?
        if let signer, let settings {
            let key = try await signer.key(chainID: chainID) { try? await client.clientVersion() }
            sender = try await TransactionSender.connect(
                client: client, signer: PrivateKeySigner(key: key), options: settings.sendOptions(chainID: chainID))
        }
        return ChainSession(
            client: client, chainID: chainID, dataDirectory: dataDirectory, sender: sender,
            backend: RPCContractBackend(client: client, sender: sender), home: CarchainHome.current(), connection: connection,
            fork: fork)
    }

    /// The same connection, sending with `key` (a logged-in user's unlocked keystore, or the dev funder).
    public func signing(with key: PrivateKey, settings: SendSettings) async throws -> ChainSession {
        let sender = try await TransactionSender.connect(
            client: client, signer: PrivateKeySigner(key: key), options: settings.sendOptions(chainID: chainID))
        return ChainSession(
            client: client, chainID: chainID, dataDirectory: dataDirectory, sender: sender,
            backend: RPCContractBackend(client: client, sender: sender), home: home, connection: connection, fork: fork)
    }

    /// Whether dev accounts may fund and sign on this chain (see ``SignerSource``).
    public func isDevelopmentChain() async -> Bool {
        if SignerSource.developmentChainIDs.contains(chainID) { return true }
        return SignerSource.isDevelopmentNode(chainID: chainID, clientVersion: try? await client.clientVersion())
    }

    /// The CarChain contract: the connection's, or the one remembered for this chain id. The project's ABI is
    /// used (a superset of the seed's, with the same selectors).
    public func contract() async throws -> CarChainContract {
        try await contractAndCode().contract
    }

    /// ``contract()`` with the runtime code read at its address (never empty), for a caller that checks what the
    /// code is. Throws ``AppError/noCode(address:chainID:)`` when the address holds none.
    public func contractAndCode() async throws -> (contract: CarChainContract, code: [UInt8]) {
        let address: Address
        if let given = connection.contract {
            address = given
        } else if let dataDirectory, let remembered = EmbeddedChain.rememberedContract(dataDirectory) {
            address = remembered
        } else if dataDirectory == nil, let remembered = try home.contract(chainID: chainID) {
            address = remembered
        } else if let fork {
            throw AppError.failed(
                "no CarChain contract known for chain \(chainID) (\(fork.remote)): give --contract ADDRESS (the live deployment's)")
        } else {
            throw AppError.noContract(chainID: chainID)
        }
        let code = try await client.code(at: address)
        guard !code.isEmpty else { throw AppError.noCode(address: address, chainID: chainID) }
        return (CarChainContract(address: address, backend: backend, artifact: .project), code)
    }

    /// The CarChain contract, or nil when none is known for this chain (instead of an error).
    public func contractIfDeployed() async throws -> CarChainContract? {
        do {
            return try await contract()
        } catch AppError.noContract {
            return nil
        }
    }

    /// Remembers a deployed contract: in the data directory for the embedded chain (or the node serving it),
    /// in `$CARCHAIN_HOME/config.json` per chain id for a node given by URL.
    public func remember(contract address: Address) throws {
        if let dataDirectory {
            try EmbeddedChain.remember(contract: address, chainID: chainID, in: dataDirectory)
        } else {
            try home.remember(contract: address, chainID: chainID)
        }
    }

    /// The client for a data directory: over HTTP to the `carchain node` whose lock names a URL, or in-process
    /// to the chain opened here (deploying CarChain on first use: ``EmbeddedChain/startupContract(on:dataDirectory:)``,
    /// which never refuses a chain; a command that needs the contract says so when there is none).
    private static func embeddedClient(_ directory: URL, timeout: Double) async throws -> RPCClient {
        if let owner = ChainLock.owner(of: directory), let url = owner.url {
            return try RPCClient(url: url, timeout: timeout)
        }
        let chain: DevChain
        do {
            chain = try await EmbeddedChain.open(directory)
        } catch let error as ChainError {
            if case .dataDirectoryLocked(_, _, let url?) = error { return try RPCClient(url: url, timeout: timeout) }
            throw AppError.failed("embedded chain at \(directory.path): \(error)")
        }
        _ = await EmbeddedChain.startupContract(on: chain, dataDirectory: directory)
        let handler = NodeRPCHandler(chain: chain)
        return RPCClient(transport: InProcessTransport(handler: handler, endpoint: "embedded chain at \(directory.path)"))
    }
}
