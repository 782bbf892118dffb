import CarChain
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC

extension NodeSession {
    /// The same connection, sending with `key` (a logged-in user's unlocked keystore, or the dev funder).
    func signing(with key: PrivateKey, transactions: TransactionOptions) async throws -> NodeSession {
        let sender = try await TransactionSender.connect(
            client: client, signer: PrivateKeySigner(key: key), options: try transactions.sendOptions(chainID: chainID))
        return NodeSession(
            client: client, chainID: chainID, dataDirectory: dataDirectory, sender: sender, backend: RPCContractBackend(client: client, sender: sender),
            home: home, node: node)
    }

    /// Whether dev accounts may fund on this chain (see ``NodeSignerOptions``).
    func isDevelopmentChain() async -> Bool {
        if NodeSignerOptions.devChainIDs.contains(chainID) { return true }
        return NodeSignerOptions.isDevelopmentNode(chainID: chainID, clientVersion: try? await client.clientVersion())
    }

    /// The CarChain contract, or nil when none is known for this chain (instead of an error).
    func contractIfDeployed() async throws -> CarChainContract? {
        do {
            return try await contract()
        } catch let error as CLIError where error.description.hasPrefix("no contract for chain") {
            return nil
        }
    }
}
