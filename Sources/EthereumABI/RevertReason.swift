import EthereumPrimitives

/// Why a call reverted, decoded from its revert data: `Error(string)` (Solidity's `require`/`revert`
/// with a message, Vyper's `assert … , "reason"` and `raw_revert`), `Panic(uint256)` (Solidity's
/// checked arithmetic, `assert`, bounds), a custom error from the contract's ABI, no data at all, or
/// something else.
public enum RevertReason: Hashable, Sendable, CustomStringConvertible {
    /// Empty revert data (`revert()`, a failed `require` without message, or an ABI decoding failure).
    case empty
    /// `Error(string)` with its message.
    case error(String)
    /// `Panic(uint256)` with its code.
    case panic(PanicCode)
    /// A custom error from the ABI and its arguments.
    case custom(ABICustomError, [ABIValue])
    /// Data that matches none of the above (kept whole).
    case unrecognized([UInt8])

    /// The selector of `Error(string)`, `0x08c379a0`.
    public static let errorSelector = ABISelector(rawValue: 0x08c3_79a0)
    /// The selector of `Panic(uint256)`, `0x4e487b71`.
    public static let panicSelector = ABISelector(rawValue: 0x4e48_7b71)

    /// Decodes revert data. `Error(string)` and `Panic(uint256)` are always known; custom errors are
    /// matched by selector against `errors`. Malformed data becomes ``unrecognized(_:)``.
    public init(data: some Collection<UInt8>, errors: [ABICustomError] = []) {
        let bytes = Array(data)
        guard let selector = ABISelector(prefixOf: bytes) else {
            self = bytes.isEmpty ? .empty : .unrecognized(bytes)
            return
        }
        let arguments = bytes.dropFirst(4)
        if selector == RevertReason.errorSelector,
            // The message is shown to people, so invalid UTF-8 is replaced rather than refused.
            let value = try? ABIDecoder.decode(.string, from: arguments, options: RevertReason.messageOptions),
            case .string(let message) = value
        {
            self = .error(message)
        } else if selector == RevertReason.panicSelector,
            let value = try? ABIDecoder.decode(.uint256, from: arguments),
            case .uint(let code) = value
        {
            self = .panic(PanicCode(code))
        } else if let custom = errors.first(where: { $0.selector == selector }),
            let values = try? custom.decode(bytes)
        {
            self = .custom(custom, values)
        } else {
            self = .unrecognized(bytes)
        }
    }

    private static let messageOptions = ABIDecodingOptions(
        requireCanonicalLayout: true, requireZeroPadding: true, rejectInvalidUTF8: false, maxExpansion: 1)

    /// The revert data for `Error(message)`.
    public static func encodeError(_ message: String) -> [UInt8] {
        errorSelector.bytes + ((try? ABIEncoder.encode(.string(message), as: .string)) ?? [])
    }

    /// The revert data for `Panic(code)`.
    public static func encodePanic(_ code: UInt256) -> [UInt8] {
        panicSelector.bytes + ((try? ABIEncoder.encode(.uint(code), as: .uint256)) ?? [])
    }

    /// The revert data this reason decodes from (for ``unrecognized(_:)``, the data itself).
    public var data: [UInt8] {
        switch self {
        case .empty: return []
        case .error(let message): return RevertReason.encodeError(message)
        case .panic(let code): return RevertReason.encodePanic(code.code)
        case .custom(let error, let values): return (try? error.encode(values)) ?? []
        case .unrecognized(let bytes): return bytes
        }
    }

    /// One line for people, e.g. `reverted: car not rented`, `panic 0x11 (arithmetic overflow or underflow)`.
    public var description: String {
        switch self {
        case .empty: return "reverted without data"
        case .error(let message): return "reverted: \(message)"
        case .panic(let code): return "panic \(code)"
        case .custom(let error, let values):
            let args = zip(error.inputs, values).map { p, v in p.name.isEmpty ? v.description : "\(p.name)=\(v)" }
            return "reverted with \(error.name)(" + args.joined(separator: ", ") + ")"
        case .unrecognized(let bytes): return "reverted with unrecognized data \(Hex.encode(bytes))"
        }
    }
}
