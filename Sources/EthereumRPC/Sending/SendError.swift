import EthereumPrimitives
import EthereumWire

/// Why sending a transaction failed, or its receipt did not come.
public enum SendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The node's chain id is not the configured one; nothing was signed.
    case chainIDMismatch(expected: UInt64, node: UInt64, endpoint: String)
    /// A JSON-RPC call failed (including a revert found by the gas estimate, before anything was sent).
    case rpc(RPCError)
    /// The transaction could not be signed.
    case signing(String)
    /// The receipt did not appear within the time limit (the transaction may still be mined later).
    case receiptTimeout(hash: Bytes32, seconds: Double)
    /// The options cannot produce a transaction (e.g. EIP-1559 fees on a node whose blocks have no base fee).
    case invalidOptions(String)

    public var description: String {
        switch self {
        case .chainIDMismatch(let expected, let node, let endpoint):
            return "the node at \(endpoint) is on chain id \(node), not the expected \(expected); refusing to sign "
                + "(use --chain-id \(node) if that chain is intended)"
        case .rpc(let error):
            return error.description
        case .signing(let why):
            return "cannot sign the transaction: \(why)"
        case .receiptTimeout(let hash, let seconds):
            return "no receipt for transaction \(hash) within \(TransportError.format(seconds)) s; it may still be mined "
                + "(check it later by its hash)"
        case .invalidOptions(let why):
            return why
        }
    }

    /// The revert, when the failure is one.
    public var revert: RevertError? {
        if case .rpc(.reverted(let revert)) = self { return revert }
        return nil
    }
}
