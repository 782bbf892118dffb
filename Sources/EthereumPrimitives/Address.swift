/// A 20-byte Ethereum account address.
///
/// Stored inline as big-endian words (no heap allocation). `description` is the EIP-55 mixed-case
/// checksummed form; ``init(_:)`` parses hex and verifies an EIP-55 checksum when one is present.
public struct Address: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Bytes 0–7 and 8–15, big-endian.
    @usableFromInline
    var high: (UInt64, UInt64)
    /// Bytes 16–19, big-endian.
    @usableFromInline
    var low: UInt32

    /// The number of bytes in an address.
    public static var byteCount: Int { 20 }

    /// The zero address, `0x0000000000000000000000000000000000000000`.
    public static let zero = Address(high: (0, 0), low: 0)

    @inlinable
    init(high: (UInt64, UInt64), low: UInt32) {
        self.high = high
        self.low = low
    }

    /// Creates an address from exactly 20 bytes; returns nil for any other count.
    @inlinable
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 20 else { return nil }
        var h0: UInt64 = 0
        var h1: UInt64 = 0
        var l: UInt32 = 0
        var i = 0
        for b in bytes {
            if i < 8 {
                h0 = h0 << 8 | UInt64(b)
            } else if i < 16 {
                h1 = h1 << 8 | UInt64(b)
            } else {
                l = l << 8 | UInt32(b)
            }
            i += 1
        }
        self.init(high: (h0, h1), low: l)
    }

    /// The address whose big-endian value is `value` (`Address(uint32: 1)` is the ecrecover precompile).
    @inlinable
    public init(uint32 value: UInt32) {
        self.init(high: (0, 0), low: value)
    }

    /// The address's value when it is below 2³² (the precompiles' range), else nil.
    @inlinable
    public var uint32Value: UInt32? {
        high == (0, 0) ? low : nil
    }

    /// The address whose bytes are the low (last) 20 bytes of `bytes32`, as an ABI word or a storage
    /// value holds an address; the upper 12 bytes are ignored.
    public init(bytes32: Bytes32) {
        let w = bytes32.words
        self.init(high: (w.1 << 32 | w.2 >> 32, w.2 << 32 | w.3 >> 32), low: UInt32(truncatingIfNeeded: w.3))
    }

    /// The address of an secp256k1 public key: the last 20 bytes of the Keccak-256 hash of the 64-byte
    /// uncompressed key `x ‖ y`. A 65-byte key with the SEC1 `0x04` prefix is accepted too; any
    /// other length or prefix returns nil.
    public init?(publicKey: some Collection<UInt8>) {
        var key = publicKey[...]
        if key.count == 65, key.first == 0x04 { key = key.dropFirst() }
        guard key.count == 64 else { return nil }
        self.init(bytes32: Keccak256.hash(key))
    }

    /// Parses a 40-digit hex address, with or without `0x`.
    ///
    /// All-lowercase and all-uppercase digits are accepted as they are; mixed case must be the exact
    /// EIP-55 checksum, and a wrong one is rejected with the correct spelling in the error.
    public init(_ string: String) throws(AddressError) {
        let digits = Hex.stripPrefix(string)
        let prefixLength = string.utf8.count - digits.utf8.count
        var high: (UInt64, UInt64) = (0, 0)
        var low: UInt32 = 0
        var hasLower = false
        var hasUpper = false
        var count = 0
        for c in digits.utf8 {
            guard let v = Hex.nibble(c) else {
                let offset = prefixLength + count
                throw .invalidCharacter(Self.character(in: string, atUTF8Offset: offset), offset: offset)
            }
            if c >= UInt8(ascii: "a") { hasLower = true } else if c >= UInt8(ascii: "A") { hasUpper = true }
            switch count {
            case 0..<16: high.0 = high.0 << 4 | UInt64(v)
            case 16..<32: high.1 = high.1 << 4 | UInt64(v)
            case 32..<40: low = low << 4 | UInt32(v)
            default: break  // too long; keep counting for the error message
            }
            count += 1
        }
        guard count == 40 else { throw .wrongLength(digits: count) }
        let address = Address(high: high, low: low)
        if hasLower && hasUpper {
            // EIP-55: mixed case carries a checksum, which must match exactly.
            let expected = address.checksummed
            guard expected.utf8.dropFirst(2).elementsEqual(digits.utf8) else {
                throw .checksumMismatch(expected: expected)
            }
        }
        self = address
    }

    private static func character(in string: String, atUTF8Offset offset: Int) -> Character {
        let u = string.utf8.index(string.utf8.startIndex, offsetBy: offset)
        guard let i = String.Index(u, within: string.unicodeScalars) else { return "\u{FFFD}" }
        return Character(string.unicodeScalars[i])
    }

    /// The 20 bytes in order.
    public var bytes: [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// The address left-padded with 12 zero bytes, as it appears in an ABI word or a log topic.
    public var bytes32: Bytes32 {
        Bytes32(words: (0, high.0 >> 32, high.0 << 32 | high.1 >> 32, high.1 << 32 | UInt64(low)))
    }

    /// Calls `body` with the 20 bytes in order, without allocating.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var be = (high.0.bigEndian, high.1.bigEndian, low.bigEndian)
        return try Swift.withUnsafeBytes(of: &be) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<20])) }
    }

    /// Lowercase hex with `0x`.
    public var lowercasedHex: String {
        withUnsafeBytes { Hex.encode($0) }
    }

    /// The EIP-55 mixed-case checksummed form with `0x`: a letter digit is uppercase when the
    /// corresponding nibble of keccak256(lowercase hex without `0x`) is 8 or more.
    public var checksummed: String {
        let lower = Array(lowercasedHex.utf8.dropFirst(2))
        let hash = Keccak256.hash(lower)
        return hash.withUnsafeBytes { h in
            String(unsafeUninitializedCapacity: 42) { out in
                out[0] = UInt8(ascii: "0")
                out[1] = UInt8(ascii: "x")
                for i in 0..<40 {
                    let nibble = i & 1 == 0 ? h[i >> 1] >> 4 : h[i >> 1] & 0x0f
                    let c = lower[i]
                    out[i + 2] = c >= UInt8(ascii: "a") && nibble >= 8 ? c - 0x20 : c
                }
                return 42
            }
        }
    }

    /// The EIP-55 checksummed form.
    public var description: String { checksummed }

    public static func == (a: Address, b: Address) -> Bool {
        a.high.0 == b.high.0 && a.high.1 == b.high.1 && a.low == b.low
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(high.0)
        hasher.combine(high.1)
        hasher.combine(low)
    }

    /// Lexicographic byte order (the same as numeric order of the 160-bit value).
    public static func < (a: Address, b: Address) -> Bool {
        if a.high.0 != b.high.0 { return a.high.0 < b.high.0 }
        if a.high.1 != b.high.1 { return a.high.1 < b.high.1 }
        return a.low < b.low
    }
}

/// Why a string is not an ``Address``.
public enum AddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not 40 hex digits (the count after any `0x`).
    case wrongLength(digits: Int)
    /// A character that is not a hex digit, at this UTF-8 offset in the input (counting any `0x`).
    case invalidCharacter(Character, offset: Int)
    /// Mixed-case digits that are not the EIP-55 checksum; `expected` is the correct spelling.
    case checksumMismatch(expected: String)

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .wrongLength(let n):
            return "an address has 40 hex digits, got \(n)"
        case .invalidCharacter(let c, let offset):
            return "invalid hex digit \(String(reflecting: String(c))) at offset \(offset) in address"
        case .checksumMismatch(let expected):
            return "address has an invalid EIP-55 checksum; the correct checksummed form is \(expected)"
        }
    }
}
