/// Errors from EIP-712 typed data: what is wrong and where (a type name, a field path).
public enum TypedDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The document is not EIP-712 typed data.
    case invalidDocument(String)
    /// A type is referenced but not defined, or its definition is malformed.
    case invalidType(String)
    /// A value does not fit its declared type; `path` is like `message.to.wallets[1]`.
    case invalidValue(path: String, String)
    /// Signing or recovery failed.
    case signature(String)

    public var description: String {
        switch self {
        case .invalidDocument(let why): return "invalid EIP-712 typed data: \(why)"
        case .invalidType(let why): return "invalid EIP-712 type: \(why)"
        case .invalidValue(let path, let why): return "invalid EIP-712 value at \(path): \(why)"
        case .signature(let why): return "EIP-712 signature: \(why)"
        }
    }
}
