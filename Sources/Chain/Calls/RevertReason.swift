import EthereumPrimitives

/// Decodes revert data: `Error(string)` (selector 0x08c379a0) and `Panic(uint256)` (0x4e487b71).
public enum RevertReason {
    /// The reason as text, or nil for empty data or a custom error.
    public static func decode(_ data: [UInt8]) -> String? {
        guard data.count >= 4 else { return nil }
        let selector = Array(data[0..<4])
        let body = Array(data[4...])
        if selector == [0x08, 0xc3, 0x79, 0xa0] {
            guard body.count >= 64,
                let offset = word(body, at: 0), offset <= body.count - 32,
                let length = word(body, at: offset), length <= body.count - offset - 32
            else { return nil }
            let start = offset + 32
            return String(decoding: body[start..<start + length], as: UTF8.self)
        }
        if selector == [0x4e, 0x48, 0x7b, 0x71], body.count >= 32 {
            let code = UInt256(truncatingBigEndian: body[0..<32])
            return "panic: \(panicDescription(code)) (0x\(String(code.low64, radix: 16)))"
        }
        return nil
    }

    /// A 32-byte big-endian word as an Int when it fits.
    private static func word(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, offset + 32 <= bytes.count else { return nil }
        let value = UInt256(truncatingBigEndian: bytes[offset..<offset + 32])
        guard value <= UInt256(UInt64(Int32.max)) else { return nil }
        return Int(value.low64)
    }

    /// Solidity's panic codes.
    private static func panicDescription(_ code: UInt256) -> String {
        switch code.low64 {
        case 0x01: return "assertion failed"
        case 0x11: return "arithmetic underflow or overflow"
        case 0x12: return "division or modulo by zero"
        case 0x21: return "enum overflow"
        case 0x22: return "invalid encoded storage byte array accessed"
        case 0x31: return "out-of-bounds pop"
        case 0x32: return "out-of-bounds access"
        case 0x41: return "out of memory"
        case 0x51: return "uninitialized function"
        default: return "unknown panic code"
        }
    }
}
