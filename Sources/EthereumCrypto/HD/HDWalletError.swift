/// Errors from mnemonics (BIP-39), extended keys (BIP-32) and derivation paths (BIP-44).
///
/// Messages never contain the mnemonic, a seed or a key: at most a word's position.
public enum HDWalletError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A mnemonic must have 12, 15, 18, 21 or 24 words.
    case invalidWordCount(Int)
    /// The word at this position (1-based) is not in the English list.
    case unknownWord(position: Int)
    /// The words are valid but the checksum bits do not match the entropy.
    case invalidChecksum
    /// Entropy must be 16, 20, 24, 28 or 32 bytes.
    case invalidEntropyLength(Int)
    /// A seed must be 16 to 64 bytes (BIP-32).
    case invalidSeedLength(Int)
    /// The derived key is zero or not below the curve order (BIP-32 says: skip to the next index).
    case invalidDerivedKey(index: UInt32)
    /// A hardened child cannot be derived from a public key.
    case hardenedFromPublic(index: UInt32)
    /// Not a derivation path like `m/44'/60'/0'/0/0`.
    case invalidPath(String)
    /// An extended key string that is not valid Base58Check or not a 78-byte BIP-32 key.
    case invalidExtendedKey(String)
    /// A failure inside the hash functions (should not happen).
    case cryptoFailure(String)

    public var description: String {
        switch self {
        case .invalidWordCount(let n): return "a mnemonic has 12, 15, 18, 21 or 24 words, got \(n)"
        case .unknownWord(let position): return "mnemonic word \(position) is not in the BIP-39 English word list"
        case .invalidChecksum: return "mnemonic checksum does not match (a word is wrong or out of order)"
        case .invalidEntropyLength(let n): return "mnemonic entropy must be 16, 20, 24, 28 or 32 bytes, got \(n)"
        case .invalidSeedLength(let n): return "a BIP-32 seed must be 16 to 64 bytes, got \(n)"
        case .invalidDerivedKey(let index): return "child key \(index) is invalid (BIP-32: use the next index)"
        case .hardenedFromPublic(let index):
            return "cannot derive hardened child \(index & 0x7fff_ffff)' from an extended public key"
        case .invalidPath(let why): return "invalid derivation path: \(why)"
        case .invalidExtendedKey(let why): return "invalid extended key: \(why)"
        case .cryptoFailure(let why): return "crypto failure: \(why)"
        }
    }
}
