/// Writes an RLP encoding front to back into one byte buffer, lists included, without building an ``RLPItem`` tree
/// first: for encoders of nested structures that run on every block (a journal record, a reverse state diff), where a
/// tree costs an array per string and per list.
///
/// A list's header is written when the list closes: one byte is kept for it, and a payload of 56 bytes or more moves
/// right by the length's bytes (at most 8). The bytes equal ``RLP/encode(_:)-(RLPItem)`` of the same item.
///
/// ```swift
/// var writer = RLPWriter()
/// writer.list { w in
///     w.append(address)            // 20 bytes
///     w.append(integer: nonce)      // minimal big-endian, zero is the empty string
///     w.list { w in for slot in slots { w.append(integer: slot) } }
/// }
/// let bytes = writer.bytes
/// ```
public struct RLPWriter: Sendable {
    /// The encoding written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    public init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends the byte string `string` as one item.
    public mutating func append(_ string: UnsafeRawBufferPointer) {
        RLP.appendString(string, to: &bytes)
    }

    /// Appends the byte string `string` as one item.
    public mutating func append(_ string: [UInt8]) {
        RLP.appendString(string, to: &bytes)
    }

    /// Appends the 20 bytes of `address` as one item.
    public mutating func append(_ address: Address) {
        address.withUnsafeBytes { RLP.appendString($0, to: &bytes) }
    }

    /// Appends the 32 bytes of `value` as one item.
    public mutating func append(_ value: Bytes32) {
        value.withUnsafeBytes { RLP.appendString($0, to: &bytes) }
    }

    /// Appends a flag as `Bool`'s ``RLPEncodable`` encoding does: the byte 0x01 when set, the empty string otherwise.
    public mutating func append(_ flag: Bool) {
        bytes.append(flag ? 0x01 : 0x80)
    }

    /// Appends an unsigned integer as its minimal big-endian bytes (zero is the empty string).
    public mutating func append(integer: UInt64) {
        integer.withMinimalBigEndianBytes { RLP.appendString($0, to: &bytes) }
    }

    /// Appends an unsigned integer as its minimal big-endian bytes (zero is the empty string).
    public mutating func append(integer: UInt256) {
        integer.withMinimalBigEndianBytes { RLP.appendString($0, to: &bytes) }
    }

    /// Appends `encoding`, which must already be one whole RLP item (a header encoded elsewhere, say), as it is.
    public mutating func append(encoded encoding: [UInt8]) {
        bytes.append(contentsOf: encoding)
    }

    /// Appends a list whose items `body` writes.
    public mutating func list(_ body: (inout RLPWriter) throws -> Void) rethrows {
        let start = bytes.count
        bytes.append(0xC0)
        try body(&self)
        let payload = bytes.count - start - 1
        if payload < 56 {
            bytes[start] = 0xC0 + UInt8(payload)
            return
        }
        let lengthBytes = RLP.byteCount(UInt64(payload))
        bytes.insert(contentsOf: repeatElement(0, count: lengthBytes), at: start + 1)
        bytes[start] = 0xF7 + UInt8(lengthBytes)
        for i in 0..<lengthBytes {
            bytes[start + 1 + i] = UInt8(truncatingIfNeeded: payload >> (8 * (lengthBytes - 1 - i)))
        }
    }
}
