import EthereumPrimitives

/// A minimal RLP writer for trie nodes, which are lists of byte strings and embedded node encodings
/// (already RLP), so they are assembled directly rather than through ``RLPItem``.
enum NodeRLP {
    /// The size of the RLP encoding of byte string `bytes`.
    @inline(__always)
    static func stringSize(_ bytes: [UInt8]) -> Int {
        if bytes.count == 1 && bytes[0] < 0x80 { return 1 }
        return headerSize(bytes.count) + bytes.count
    }

    @inline(__always)
    static func headerSize(_ payload: Int) -> Int {
        payload < 56 ? 1 : 1 + (64 - UInt64(payload).leadingZeroBitCount + 7) / 8
    }

    /// Appends the header of a string (`base` 0x80) or list (`base` 0xC0) whose payload is `payload` bytes.
    @inline(__always)
    static func appendHeader(_ payload: Int, base: UInt8, to out: inout [UInt8]) {
        if payload < 56 {
            out.append(base + UInt8(payload))
        } else {
            let lengthBytes = (64 - UInt64(payload).leadingZeroBitCount + 7) / 8
            out.append(base + 55 + UInt8(lengthBytes))
            for i in stride(from: lengthBytes - 1, through: 0, by: -1) {
                out.append(UInt8(truncatingIfNeeded: payload >> (8 * i)))
            }
        }
    }

    /// Appends the RLP encoding of byte string `bytes`.
    @inline(__always)
    static func appendString(_ bytes: [UInt8], to out: inout [UInt8]) {
        if bytes.count == 1 && bytes[0] < 0x80 {
            out.append(bytes[0])
        } else {
            appendHeader(bytes.count, base: 0x80, to: &out)
            out.append(contentsOf: bytes)
        }
    }
}
