import EthereumPrimitives

/// The block a state query or call runs against (the "default block parameter" of the JSON-RPC spec).
public enum BlockTag: Sendable, Hashable, CustomStringConvertible {
    /// The newest block the node has.
    case latest
    /// The block being built from the node's pending transactions (nonces then count queued sends).
    case pending
    /// The genesis block.
    case earliest
    /// The newest block the consensus layer deems safe from re-orgs.
    case safe
    /// The newest finalized block.
    case finalized
    /// A block by number.
    case number(UInt64)

    /// The parameter's JSON form: the tag's name or a quantity.
    public var json: JSONValue { .string(description) }

    public var description: String {
        switch self {
        case .latest: return "latest"
        case .pending: return "pending"
        case .earliest: return "earliest"
        case .safe: return "safe"
        case .finalized: return "finalized"
        case .number(let n): return Quantity.encode(n)
        }
    }

    /// Parses a tag name or a block number (decimal or `0x` hex), as written on a command line.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "latest": self = .latest
        case "pending": self = .pending
        case "earliest": self = .earliest
        case "safe": self = .safe
        case "finalized": self = .finalized
        default:
            if Hex.hasPrefix(text), let n = try? Quantity.decodeUInt64(text) {
                self = .number(n)
            } else if let n = UInt64(text) {
                self = .number(n)
            } else {
                return nil
            }
        }
    }
}
