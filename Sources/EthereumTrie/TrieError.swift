import EthereumPrimitives

/// Errors from decoding trie data: hex-prefix paths and Merkle proofs.
public enum TrieError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A hex-prefix encoded path is malformed (the reason says how).
    case invalidHexPrefix(String)
    /// A proof lacks the node with this hash, needed at nibble depth `depth` of the key's path.
    case missingProofNode(hash: Bytes32, depth: Int)
    /// A proof node at nibble depth `depth` is not a valid trie node (the reason says why).
    case invalidProofNode(depth: Int, reason: String)

    public var description: String {
        switch self {
        case .invalidHexPrefix(let why): return "invalid hex-prefix path: \(why)"
        case .missingProofNode(let hash, let depth):
            return "proof is missing the node \(hash) at nibble depth \(depth)"
        case .invalidProofNode(let depth, let reason):
            return "invalid proof node at nibble depth \(depth): \(reason)"
        }
    }
}
