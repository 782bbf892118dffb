/// A type with an RLP representation.
public protocol RLPEncodable {
    /// The value as an RLP item.
    func encodeRLP() -> RLPItem

    /// How an array of this type is represented: a list of the elements by default. `UInt8`
    /// overrides it so that `[UInt8]` is a byte string, as Ethereum uses it.
    static func encodeRLPArray(_ elements: [Self]) -> RLPItem
}

/// A type that can be read back from its RLP representation.
public protocol RLPDecodable {
    /// Decodes the value from an item, rejecting non-canonical forms (for example integers with
    /// leading zero bytes).
    init(rlp: RLPItem) throws(RLPError)

    /// Decodes an array of this type (the counterpart of ``RLPEncodable/encodeRLPArray(_:)``): a
    /// list by default, a byte string for `UInt8`.
    static func decodeRLPArray(_ item: RLPItem) throws(RLPError) -> [Self]
}

/// A type that is both ``RLPEncodable`` and ``RLPDecodable``.
public typealias RLPCodable = RLPEncodable & RLPDecodable

extension RLPEncodable {
    public static func encodeRLPArray(_ elements: [Self]) -> RLPItem {
        .list(elements.map { $0.encodeRLP() })
    }
}

extension RLPDecodable {
    public static func decodeRLPArray(_ item: RLPItem) throws(RLPError) -> [Self] {
        guard case .list(let items) = item else { throw RLPError(.expectedList) }
        var result: [Self] = []
        result.reserveCapacity(items.count)
        for (i, element) in items.enumerated() {
            do { result.append(try Self(rlp: element)) } catch { throw error.inField(i) }
        }
        return result
    }
}

extension RLPItem: RLPEncodable, RLPDecodable {
    /// The item itself.
    public func encodeRLP() -> RLPItem { self }

    /// The item itself.
    public init(rlp: RLPItem) throws(RLPError) { self = rlp }
}

// MARK: - Arrays

extension Array: RLPEncodable where Element: RLPEncodable {
    /// A list of the elements, except that `[UInt8]` is a byte string.
    public func encodeRLP() -> RLPItem { Element.encodeRLPArray(self) }
}

extension Array: RLPDecodable where Element: RLPDecodable {
    /// Decodes a list of elements, or a byte string for `[UInt8]`.
    public init(rlp: RLPItem) throws(RLPError) { self = try Element.decodeRLPArray(rlp) }
}

// MARK: - Unsigned integers

/// Integers are byte strings: big-endian with no leading zero bytes, zero being the empty string.
extension RLPItem {
    /// The canonical encoding of an unsigned integer.
    public init(unsignedInteger value: UInt64) {
        let count = RLP.byteCount(value)
        var bytes = [UInt8](repeating: 0, count: count)
        var v = value
        var i = count
        while i > 0 {
            i -= 1
            bytes[i] = UInt8(truncatingIfNeeded: v)
            v >>= 8
        }
        self = .bytes(bytes)
    }

    /// The big-endian bytes of a canonical unsigned integer of at most `maxBytes` bytes (empty for
    /// zero), for decoders of integer types wider than 64 bits; `typeName` appears in errors.
    ///
    /// Throws for a list, a leading zero byte, or more than `maxBytes` bytes.
    public func unsignedIntegerBytes(maxBytes: Int, typeName: String) throws(RLPError) -> [UInt8] {
        guard case .bytes(let bytes) = self else { throw RLPError(.expectedBytes) }
        return try RLP.checkUnsignedInteger(bytes, maxBytes: maxBytes, typeName: typeName)
    }

    /// Reads a canonical unsigned integer of at most `maxBytes` (≤ 8) bytes; `typeName` is for errors.
    public func unsignedInteger(maxBytes: Int, typeName: String) throws(RLPError) -> UInt64 {
        var v: UInt64 = 0
        for b in try unsignedIntegerBytes(maxBytes: min(maxBytes, 8), typeName: typeName) { v = v << 8 | UInt64(b) }
        return v
    }
}

extension RLP {
    /// RLP's rule for an unsigned integer's bytes, for decoders that read a string without an item tree: big-endian,
    /// no leading zero byte (zero is the empty string), at most `maxBytes` bytes; `typeName` appears in errors.
    /// Returns `bytes`, so a decoder can read them on.
    @inlinable @discardableResult
    public static func checkUnsignedInteger<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, maxBytes: Int, typeName: String
    ) throws(RLPError) -> Bytes {
        if bytes.first == 0 { throw RLPError(.leadingZeroInInteger) }
        guard bytes.count <= maxBytes else { throw RLPError(.integerOverflow(byteCount: bytes.count, type: typeName)) }
        return bytes
    }
}

extension UInt64: RLPEncodable, RLPDecodable {
    public func encodeRLP() -> RLPItem { RLPItem(unsignedInteger: self) }
    public init(rlp: RLPItem) throws(RLPError) {
        self = try rlp.unsignedInteger(maxBytes: 8, typeName: "UInt64")
    }
}

extension UInt32: RLPEncodable, RLPDecodable {
    public func encodeRLP() -> RLPItem { RLPItem(unsignedInteger: UInt64(self)) }
    public init(rlp: RLPItem) throws(RLPError) {
        self = UInt32(truncatingIfNeeded: try rlp.unsignedInteger(maxBytes: 4, typeName: "UInt32"))
    }
}

extension UInt16: RLPEncodable, RLPDecodable {
    public func encodeRLP() -> RLPItem { RLPItem(unsignedInteger: UInt64(self)) }
    public init(rlp: RLPItem) throws(RLPError) {
        self = UInt16(truncatingIfNeeded: try rlp.unsignedInteger(maxBytes: 2, typeName: "UInt16"))
    }
}

extension UInt8: RLPEncodable, RLPDecodable {
    /// A single `UInt8` is an integer (`0` is the empty string); see `encodeRLPArray` for `[UInt8]`.
    public func encodeRLP() -> RLPItem { RLPItem(unsignedInteger: UInt64(self)) }
    public init(rlp: RLPItem) throws(RLPError) {
        self = UInt8(truncatingIfNeeded: try rlp.unsignedInteger(maxBytes: 1, typeName: "UInt8"))
    }

    /// `[UInt8]` is a byte string, not a list of integers.
    public static func encodeRLPArray(_ elements: [UInt8]) -> RLPItem { .bytes(elements) }

    /// `[UInt8]` is read from a byte string.
    public static func decodeRLPArray(_ item: RLPItem) throws(RLPError) -> [UInt8] { try item.byteString() }
}

extension Int: RLPEncodable, RLPDecodable {
    /// RLP has no negative integers: encoding a negative `Int` is a programming error and traps.
    public func encodeRLP() -> RLPItem {
        precondition(self >= 0, "RLP cannot encode the negative integer \(self)")
        return RLPItem(unsignedInteger: UInt64(self))
    }

    /// Decodes a canonical integer no larger than `Int.max`.
    public init(rlp: RLPItem) throws(RLPError) {
        let v = try rlp.unsignedInteger(maxBytes: 8, typeName: "Int")
        guard v <= UInt64(Int.max) else { throw RLPError(.integerOverflow(byteCount: 8, type: "Int")) }
        self = Int(v)
    }
}

// MARK: - Other scalars

extension Bool: RLPEncodable, RLPDecodable {
    /// `false` is the empty string and `true` is `0x01`, as the integers 0 and 1.
    public func encodeRLP() -> RLPItem { .bytes(self ? [1] : []) }
    public init(rlp: RLPItem) throws(RLPError) {
        switch try rlp.byteString() {
        case []: self = false
        case [1]: self = true
        default: throw RLPError(.invalidBool)
        }
    }
}

extension String: RLPEncodable, RLPDecodable {
    /// The UTF-8 bytes as a byte string.
    public func encodeRLP() -> RLPItem { .bytes(Array(utf8)) }
    /// Decodes a byte string that must be valid UTF-8.
    public init(rlp: RLPItem) throws(RLPError) {
        guard let s = String(validating: try rlp.byteString(), as: UTF8.self) else { throw RLPError(.invalidUTF8) }
        self = s
    }
}

extension Bytes32: RLPEncodable, RLPDecodable {
    /// The 32 bytes as a byte string (leading zeros kept: it is a fixed-size string, not an integer).
    public func encodeRLP() -> RLPItem { .bytes(bytes) }
    /// Decodes a byte string of exactly 32 bytes.
    public init(rlp: RLPItem) throws(RLPError) {
        let b = try rlp.byteString()
        guard let v = Bytes32(b) else { throw RLPError(.wrongByteCount(expected: 32, actual: b.count)) }
        self = v
    }
}

extension Address: RLPEncodable, RLPDecodable {
    /// The 20 bytes as a byte string.
    public func encodeRLP() -> RLPItem { .bytes(bytes) }
    /// Decodes a byte string of exactly 20 bytes.
    public init(rlp: RLPItem) throws(RLPError) {
        let b = try rlp.byteString()
        guard let v = Address(bytes: b) else { throw RLPError(.wrongByteCount(expected: 20, actual: b.count)) }
        self = v
    }
}
