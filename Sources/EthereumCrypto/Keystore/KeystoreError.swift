import EthereumPrimitives

/// Errors from keystore files. Messages name fields and paths, never passwords, keys or ciphertext.
public enum KeystoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The document is not a keystore: what is missing or malformed.
    case invalidJSON(String)
    /// Only version 3 is supported.
    case unsupportedVersion(String)
    /// Only aes-128-ctr is supported.
    case unsupportedCipher(String)
    /// Only scrypt and pbkdf2 are supported.
    case unsupportedKDF(String)
    /// pbkdf2 supports hmac-sha256 only.
    case unsupportedPRF(String)
    /// A KDF or cipher parameter out of range.
    case invalidParameter(String)
    /// The MAC does not match: the password is wrong (or the file is corrupted).
    case wrongPassword
    /// The file's `address` field does not match the decrypted key.
    case addressMismatch(file: Address, key: Address)
    /// The decrypted bytes are not a valid secp256k1 key.
    case invalidKey
    /// A failure inside the crypto library.
    case cryptoFailure(String)
    /// A file-system operation failed.
    case io(String)
    /// A keystore for this address already exists in the directory.
    case alreadyExists(Address)
    /// No keystore for this address in the directory.
    case notFound(String)

    public var description: String {
        switch self {
        case .invalidJSON(let why): return "not a keystore v3 file: \(why)"
        case .unsupportedVersion(let v): return "unsupported keystore version \(v) (only 3 is supported)"
        case .unsupportedCipher(let c): return "unsupported keystore cipher \(String(reflecting: c)) (only aes-128-ctr)"
        case .unsupportedKDF(let k): return "unsupported keystore KDF \(String(reflecting: k)) (scrypt or pbkdf2)"
        case .unsupportedPRF(let p): return "unsupported pbkdf2 PRF \(String(reflecting: p)) (only hmac-sha256)"
        case .invalidParameter(let why): return "invalid keystore parameter: \(why)"
        case .wrongPassword: return "could not decrypt key: wrong password (MAC mismatch)"
        case .addressMismatch(let file, let key):
            return "keystore address \(file) does not match the decrypted key's address \(key)"
        case .invalidKey: return "the decrypted key is not a valid secp256k1 private key"
        case .cryptoFailure(let why): return "crypto failure: \(why)"
        case .io(let why): return why
        case .alreadyExists(let address): return "a keystore for \(address) already exists"
        case .notFound(let what): return "no keystore for \(what)"
        }
    }
}
