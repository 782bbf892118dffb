/// Recursive Length Prefix encoding and strict decoding (Ethereum Yellow Paper, appendix B).
///
/// The encoder measures the output first and writes it into one allocation, back to front (each
/// payload is written before the header that states its length). The decoder accepts only the
/// canonical encoding: see ``RLP/decode(_:)``.
public enum RLP {
    /// The deepest list nesting ``decode(_:)`` accepts; deeper input fails with
    /// ``RLPError/Kind/nestingTooDeep(limit:)``. Ethereum structures nest a few levels.
    public static let maxDepth = 1024

    /// The RLP encoding of `item`.
    ///
    /// Recurses once per level of list nesting in `item` (decoded items nest at most
    /// ``maxDepth`` levels).
    public static func encode(_ item: RLPItem) -> [UInt8] {
        let size = encodedSize(item)
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }  // size is at least 1
            var end = size
            write(item, before: &end, base)
            initialized = size
        }
    }

    /// The RLP encoding of a value.
    @inlinable
    public static func encode<T: RLPEncodable>(_ value: T) -> [UInt8] {
        encode(value.encodeRLP())
    }

    /// The number of bytes `encode(item)` produces.
    public static func encodedSize(_ item: RLPItem) -> Int {
        switch item {
        case .bytes(let b):
            if b.count == 1 && b[0] < 0x80 { return 1 }
            return headerSize(payload: b.count) + b.count
        case .list(let items):
            var payload = 0
            for child in items { payload += encodedSize(child) }
            return headerSize(payload: payload) + payload
        }
    }

    /// The size of an item's header (a string's or a list's) for a payload of `payload` bytes.
    @inlinable @inline(__always)
    public static func headerSize(payload: Int) -> Int {
        payload < 56 ? 1 : 1 + byteCount(UInt64(payload))
    }

    /// Bytes needed for `n` in big-endian without leading zeros (0 for zero).
    @inlinable @inline(__always)
    static func byteCount(_ n: UInt64) -> Int {
        (64 - n.leadingZeroBitCount + 7) / 8
    }

    /// Writes the encoding of `item` so that it ends just before `end`, and moves `end` to its start.
    private static func write(_ item: RLPItem, before end: inout Int, _ base: UnsafeMutablePointer<UInt8>) {
        switch item {
        case .bytes(let b):
            if b.count == 1 && b[0] < 0x80 {
                end -= 1
                base[end] = b[0]
                return
            }
            end -= b.count
            b.withUnsafeBufferPointer { src in
                if let s = src.baseAddress { (base + end).update(from: s, count: src.count) }
            }
            writeHeader(payload: b.count, shortBase: 0x80, before: &end, base)
        case .list(let items):
            let payloadEnd = end
            var i = items.endIndex
            while i > items.startIndex {
                i -= 1
                write(items[i], before: &end, base)
            }
            writeHeader(payload: payloadEnd - end, shortBase: 0xc0, before: &end, base)
        }
    }

    /// Writes a string (`shortBase` 0x80) or list (0xc0) header for a payload of `payload` bytes.
    @inline(__always)
    private static func writeHeader(
        payload: Int, shortBase: UInt8, before end: inout Int, _ base: UnsafeMutablePointer<UInt8>
    ) {
        if payload < 56 {
            end -= 1
            base[end] = shortBase + UInt8(payload)
            return
        }
        var n = UInt64(payload)
        var count: UInt8 = 0
        while n > 0 {
            end -= 1
            base[end] = UInt8(truncatingIfNeeded: n)
            n >>= 8
            count += 1
        }
        end -= 1
        base[end] = shortBase + 55 + count  // 0xb7 + length of length, or 0xf7 + …
    }
}

// MARK: - Flat lists without an item tree

extension RLP {
    /// The RLP encoding of a list whose items are all byte strings, in one allocation: for hot encoders of flat
    /// structures (a trie's account leaf) that would otherwise build an ``RLPItem`` tree of arrays first.
    ///
    /// `fields` passes each item's bytes to its argument in order; it is called twice (to measure, then to write)
    /// and must pass the same bytes both times (a second pass that writes more than the first measured stops the
    /// program rather than write past the buffer).
    ///
    /// ```swift
    /// let leaf = RLP.encodeList { add in
    ///     nonce.withMinimalBigEndianBytes(add)
    ///     root.withUnsafeBytes(add)
    /// }
    /// ```
    public static func encodeList(_ fields: ((UnsafeRawBufferPointer) -> Void) -> Void) -> [UInt8] {
        var payload = 0
        fields { bytes in payload += bytes.count == 1 && bytes[0] < 0x80 ? 1 : headerSize(payload: bytes.count) + bytes.count }
        let size = headerSize(payload: payload) + payload
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }  // size is at least 1
            // The header first (back to front from the payload's start), then each field front to back.
            var start = size - payload
            writeHeader(payload: payload, shortBase: 0xc0, before: &start, base)
            var position = size - payload
            fields { bytes in
                if bytes.count == 1 && bytes[0] < 0x80 {
                    precondition(position < size, "RLP.encodeList: the fields changed between the two passes")
                    base[position] = bytes[0]
                    position += 1
                    return
                }
                let start = position + headerSize(payload: bytes.count)
                precondition(start + bytes.count <= size, "RLP.encodeList: the fields changed between the two passes")
                var headerStart = start
                writeHeader(payload: bytes.count, shortBase: 0x80, before: &headerStart, base)
                if let source = bytes.baseAddress { UnsafeMutableRawPointer(base + start).copyMemory(from: source, byteCount: bytes.count) }
                position = start + bytes.count
            }
            precondition(position == size, "RLP.encodeList: the fields changed between the two passes")
            initialized = size
        }
    }
}

extension RLP {
    /// The RLP encoding of the byte string `bytes`, in one allocation (no ``RLPItem`` first).
    public static func encodeString(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        if bytes.count == 1 && bytes[0] < 0x80 { return [bytes[0]] }
        let size = headerSize(payload: bytes.count) + bytes.count
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }  // size is at least 1
            var start = size - bytes.count
            writeHeader(payload: bytes.count, shortBase: 0x80, before: &start, base)
            if let source = bytes.baseAddress {
                UnsafeMutableRawPointer(base + size - bytes.count).copyMemory(from: source, byteCount: bytes.count)
            }
            initialized = size
        }
    }
}

// MARK: - Appending to a buffer

/// For writers that assemble an encoding themselves (a trie node, a receipt): sizes first, then headers and strings
/// appended to one buffer reserved at the final size, with no ``RLPItem`` tree.
extension RLP {
    /// The size of byte string `bytes` encoded as a string item.
    @inlinable @inline(__always)
    public static func stringSize(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.count == 1 && bytes[0] < 0x80 ? 1 : headerSize(payload: bytes.count) + bytes.count
    }

    /// The size of byte string `bytes` encoded as a string item.
    @inlinable @inline(__always)
    public static func stringSize(_ bytes: [UInt8]) -> Int {
        bytes.count == 1 && bytes[0] < 0x80 ? 1 : headerSize(payload: bytes.count) + bytes.count
    }

    /// Appends the header of a list (`list` true) or string whose payload is `payload` bytes.
    @inlinable @inline(__always)
    public static func appendHeader(payload: Int, list: Bool, to out: inout [UInt8]) {
        let base: UInt8 = list ? 0xC0 : 0x80
        if payload < 56 {
            out.append(base + UInt8(payload))
            return
        }
        let lengthBytes = byteCount(UInt64(payload))
        out.append(base + 55 + UInt8(lengthBytes))
        for i in stride(from: lengthBytes - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: payload >> (8 * i)))
        }
    }

    /// Appends byte string `bytes` as a string item.
    @inlinable @inline(__always)
    public static func appendString(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        if bytes.count == 1 && bytes[0] < 0x80 {
            out.append(bytes[0])
        } else {
            appendHeader(payload: bytes.count, list: false, to: &out)
            out.append(contentsOf: bytes)
        }
    }

    /// Appends byte string `bytes` as a string item.
    @inlinable @inline(__always)
    public static func appendString(_ bytes: [UInt8], to out: inout [UInt8]) {
        if bytes.count == 1 && bytes[0] < 0x80 {
            out.append(bytes[0])
        } else {
            appendHeader(payload: bytes.count, list: false, to: &out)
            out.append(contentsOf: bytes)
        }
    }
}
