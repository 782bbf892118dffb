import EthereumPrimitives

/// How a parent refers to a child node (Yellow Paper, appendix D): a node whose RLP encoding is
/// shorter than 32 bytes is embedded as that encoding; a larger one by the Keccak-256 of it.
enum NodeReference: Sendable {
    /// The child's RLP encoding (under 32 bytes), embedded raw in the parent.
    case inline([UInt8])
    /// The Keccak-256 of the child's RLP encoding.
    case hash(Bytes32)

    /// The reference for a node whose RLP encoding is `encoding`.
    init(encoding: [UInt8]) {
        self = encoding.count < 32 ? .inline(encoding) : .hash(Keccak256.hash(encoding))
    }

    /// The number of bytes this reference takes inside the parent's RLP payload.
    var encodedSize: Int {
        switch self {
        case .inline(let bytes): return bytes.count
        case .hash: return 33
        }
    }

    /// Appends the reference as it appears in the parent: the raw embedded encoding, or the hash as a
    /// 32-byte RLP string.
    func append(to out: inout [UInt8]) {
        switch self {
        case .inline(let bytes): out.append(contentsOf: bytes)
        case .hash(let hash):
            out.append(0xA0)
            hash.withUnsafeBytes { out.append(contentsOf: $0) }
        }
    }
}

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
