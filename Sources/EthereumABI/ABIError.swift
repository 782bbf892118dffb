/// Everything that can go wrong parsing ABI types, signatures and JSON ABIs, and encoding or decoding
/// values. Each case says what went wrong and where.
public enum ABIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A type string, or an ``ABIType`` built in code, that is not a valid ABI type.
    case invalidType(String, reason: String)
    /// A function, event or error signature that does not parse.
    case invalidSignature(String, reason: String)
    /// A malformed JSON ABI; `path` locates the entry, e.g. `abi[3].inputs[0].type`.
    case invalidJSON(path: String, reason: String)
    /// A value that does not match its type. `path` names the value, e.g. `argument 2` or
    /// `argument 2[1].0`; the description reads `argument 2 (uint8): 300 does not fit`.
    case invalidValue(path: String, type: ABIType, reason: String)
    /// Data that does not decode as the expected types: the byte `offset` in the data, the `path` of the
    /// value being decoded (e.g. `value 2[3]`), and what is wrong.
    case invalidData(offset: Int, path: String, reason: String)
    /// Nothing in an ABI matches a selector, topic or name.
    case noMatch(String)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .invalidType(let type, let reason):
            return "invalid ABI type \(String(reflecting: type)): \(reason)"
        case .invalidSignature(let signature, let reason):
            return "invalid signature \(String(reflecting: signature)): \(reason)"
        case .invalidJSON(let path, let reason):
            return "invalid JSON ABI at \(path): \(reason)"
        case .invalidValue(let path, let type, let reason):
            return "\(path) (\(type)): \(reason)"
        case .invalidData(let offset, let path, let reason):
            let place = path.isEmpty ? "" : " (\(path))"
            return "ABI data does not decode at byte \(offset)\(place): \(reason)"
        case .noMatch(let what):
            return what
        }
    }
}
