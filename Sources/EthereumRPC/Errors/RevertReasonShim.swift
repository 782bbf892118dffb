import EthereumPrimitives

// Interim: replaced by EthereumABI's RevertReason when that module lands on main.
/// Why a call reverted, decoded from its revert data.
public enum RevertReason: Hashable, Sendable, CustomStringConvertible {
    case empty
    case error(String)
    case panic(UInt256)
    case unrecognized([UInt8])

    public init(data: some Collection<UInt8>) {
        let bytes = Array(data)
        if bytes.isEmpty { self = .empty; return }
        if bytes.count >= 68, bytes[0..<4] == [0x08, 0xc3, 0x79, 0xa0] {
            let length = UInt256(bigEndianBytes: bytes[36..<68]) ?? .zero
            if length <= UInt256(bytes.count - 68), let n = Int(exactly: length.limbs.0), length.limbs.1 == 0, length.limbs.2 == 0, length.limbs.3 == 0 {
                self = .error(String(decoding: bytes[68..<(68 + n)], as: UTF8.self))
                return
            }
        }
        if bytes.count == 36, bytes[0..<4] == [0x4e, 0x48, 0x7b, 0x71], let code = UInt256(bigEndianBytes: bytes[4...]) {
            self = .panic(code)
            return
        }
        self = .unrecognized(bytes)
    }

    public var description: String {
        switch self {
        case .empty: return "reverted without data"
        case .error(let message): return "reverted: \(message)"
        case .panic(let code): return "panic \(code.hexString)"
        case .unrecognized(let bytes): return "reverted with unrecognized data \(Hex.encode(bytes))"
        }
    }
}
