import EthereumPrimitives

/// A 4-byte function or error selector: the first four bytes of the Keccak-256 hash of the canonical
/// signature, e.g. `rentCar(string,string)` → `0xec73afef`.
public struct ABISelector: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The four bytes as a big-endian number.
    public let rawValue: UInt32

    /// A selector from its big-endian value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The selector of a canonical signature (`name(type1,type2)`, no spaces or names). To hash a
    /// human-readable signature, parse it first with ``ABIFunction/init(signature:)``.
    public init(signature: String) {
        let hash = Keccak256.hash(signature)
        rawValue = UInt32(truncatingIfNeeded: hash.words.0 >> 32)
    }

    /// The first four bytes of `data` (e.g. calldata or revert data), or nil when there are fewer.
    public init?(prefixOf data: some Collection<UInt8>) {
        guard data.count >= 4 else { return nil }
        var v: UInt32 = 0
        for b in data.prefix(4) { v = v << 8 | UInt32(b) }
        rawValue = v
    }

    /// Parses 8 hex digits, with or without `0x`.
    public init(hex: String) throws(ABIError) {
        guard let bytes = try? Hex.decode(hex), bytes.count == 4, let s = ABISelector(prefixOf: bytes) else {
            throw .invalidSignature(hex, reason: "a selector is 4 bytes (8 hex digits)")
        }
        self = s
    }

    /// The four bytes in order.
    public var bytes: [UInt8] {
        [UInt8(rawValue >> 24), UInt8(truncatingIfNeeded: rawValue >> 16), UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]
    }

    /// `0x` and 8 lowercase hex digits.
    public var description: String { Hex.encode(bytes) }

    public static func < (a: ABISelector, b: ABISelector) -> Bool { a.rawValue < b.rawValue }
}
