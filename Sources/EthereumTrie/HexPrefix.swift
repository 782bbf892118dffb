import EthereumPrimitives

/// Hex-prefix ("compact") encoding of a nibble path (Ethereum Yellow Paper, appendix C): the first
/// nibble carries two flags — bit 1 set for a leaf (terminated path), bit 0 set for an odd number of
/// nibbles — and an even path gets a zero padding nibble after the flag nibble.
public enum HexPrefix {
    /// Encodes `nibbles` (each 0–15) with the leaf flag `isLeaf`.
    public static func encode(nibbles: some Collection<UInt8>, isLeaf: Bool) -> [UInt8] {
        let odd = nibbles.count % 2 == 1
        var out = [UInt8]()
        out.reserveCapacity(nibbles.count / 2 + 1)
        let flag: UInt8 = (isLeaf ? 2 : 0) | (odd ? 1 : 0)
        var iterator = nibbles.makeIterator()
        if odd {
            out.append(flag << 4 | (iterator.next() ?? 0) & 0x0F)
        } else {
            out.append(flag << 4)
        }
        while let high = iterator.next() {
            let low = iterator.next() ?? 0
            out.append((high & 0x0F) << 4 | (low & 0x0F))
        }
        return out
    }

    /// The size of the RLP string holding the hex-prefix encoding of a path of `nibbles` nibbles.
    @inline(__always)
    static func encodedSize(nibbles: Int) -> Int {
        let bytes = nibbles / 2 + 1
        // One byte is its own RLP encoding: the flag nibble (at most 3) keeps it below 0x80.
        return bytes == 1 ? 1 : RLP.headerSize(payload: bytes) + bytes
    }

    /// Appends the RLP string of the hex-prefix encoding of `nibbles` (``encodedSize(nibbles:)`` bytes).
    @inline(__always)
    static func appendEncoded(_ nibbles: [UInt8], isLeaf: Bool, to out: inout [UInt8]) {
        let count = nibbles.count
        let bytes = count / 2 + 1
        if bytes > 1 { RLP.appendHeader(payload: bytes, list: false, to: &out) }
        let odd = count % 2 == 1
        let flag: UInt8 = (isLeaf ? 2 : 0) | (odd ? 1 : 0)
        var i = 0
        if odd {
            out.append(flag << 4 | nibbles[0] & 0x0F)
            i = 1
        } else {
            out.append(flag << 4)
        }
        while i < count {
            out.append((nibbles[i] & 0x0F) << 4 | (nibbles[i + 1] & 0x0F))
            i += 2
        }
    }

    /// Decodes a hex-prefix encoded path into its nibbles and leaf flag.
    ///
    /// Throws ``TrieError/invalidHexPrefix(_:)`` for empty input, a flag nibble above 3, or a non-zero
    /// padding nibble on an even path.
    public static func decode(_ bytes: some Collection<UInt8>) throws(TrieError) -> (nibbles: [UInt8], isLeaf: Bool) {
        guard let first = bytes.first else { throw .invalidHexPrefix("empty path") }
        let flag = first >> 4
        guard flag <= 3 else { throw .invalidHexPrefix("flag nibble \(flag) is above 3") }
        let odd = flag & 1 == 1
        if !odd && first & 0x0F != 0 {
            throw .invalidHexPrefix("even path with non-zero padding nibble \(first & 0x0F)")
        }
        var nibbles = [UInt8]()
        nibbles.reserveCapacity(bytes.count * 2)
        if odd { nibbles.append(first & 0x0F) }
        for byte in bytes.dropFirst() {
            nibbles.append(byte >> 4)
            nibbles.append(byte & 0x0F)
        }
        return (nibbles, flag & 2 == 2)
    }
}

/// Splitting byte keys into the nibble paths the trie walks, and back.
enum Nibbles {
    /// The nibbles of `bytes`, high nibble first.
    static func from(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(byte >> 4)
            out.append(byte & 0x0F)
        }
        return out
    }

    /// Packs an even number of nibbles into bytes (a trailing odd nibble is dropped; full keys are
    /// always whole bytes).
    static func toBytes(_ nibbles: some Collection<UInt8>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(nibbles.count / 2)
        var iterator = nibbles.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            out.append(high << 4 | low)
        }
        return out
    }

    /// The length of the common prefix of `a` and `b`.
    @inline(__always)
    static func commonPrefixLength(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        var i = 0
        let n = min(a.count, b.count)
        var ia = a.startIndex, ib = b.startIndex
        while i < n && a[ia] == b[ib] {
            i += 1
            ia += 1
            ib += 1
        }
        return i
    }
}
