/// Exactly 32 bytes: hashes, storage keys and values, event topics.
///
/// Stored inline (no heap allocation) as four big-endian 64-bit words; `words.0` holds bytes 0–7.
public struct Bytes32: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The bytes as four big-endian words, most significant (byte 0) first.
    public var words: (UInt64, UInt64, UInt64, UInt64)

    /// All zero bytes.
    public static let zero = Bytes32(words: (0, 0, 0, 0))

    @inlinable
    public init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

    /// Creates a value from exactly 32 bytes; returns nil for any other count.
    @inlinable
    public init?<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        guard bytes.count == 32 else { return nil }
        if let value = bytes.withContiguousStorageIfAvailable({ Bytes32(unsafeBytes: UnsafeRawBufferPointer($0)) }) {
            self = value
            return
        }
        var w: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var i = 0
        for b in bytes {
            let v = UInt64(b) << (56 - 8 * UInt64(i & 7))
            switch i >> 3 {
            case 0: w.0 |= v
            case 1: w.1 |= v
            case 2: w.2 |= v
            default: w.3 |= v
            }
            i += 1
        }
        words = w
    }

    /// Reads 32 bytes from `raw` (which must hold at least 32), without allocating.
    @inlinable
    public init(unsafeBytes raw: UnsafeRawBufferPointer) {
        precondition(raw.count >= 32, "Bytes32 needs 32 bytes")
        words = (
            UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
            UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
            UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        )
    }

    /// Parses 64 hex digits (optional `0x`).
    public init(hex: String) throws(Bytes32.Error) {
        let bytes: [UInt8]
        do { bytes = try Hex.decode(hex) } catch { throw .hex(error) }
        guard let v = Bytes32(bytes) else { throw .wrongLength(bytes.count) }
        self = v
    }

    /// Errors from parsing a ``Bytes32``.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        case hex(Hex.Error)
        case wrongLength(Int)
        public var description: String {
            switch self {
            case .hex(let e): return e.description
            case .wrongLength(let n): return "expected 32 bytes, got \(n)"
            }
        }
    }

    /// The 32 bytes in order.
    public var bytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        withUnsafeBytes { raw in
            for i in 0..<32 { out[i] = raw[i] }
        }
        return out
    }

    /// Calls `body` with the 32 bytes in order, without allocating.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var be = (words.0.bigEndian, words.1.bigEndian, words.2.bigEndian, words.3.bigEndian)
        return try Swift.withUnsafeBytes(of: &be, body)
    }

    /// Lowercase hex with `0x`.
    public var hexString: String { withUnsafeBytes { Hex.encode($0) } }

    public var description: String { hexString }

    public static func == (a: Bytes32, b: Bytes32) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    /// Lexicographic byte order.
    public static func < (a: Bytes32, b: Bytes32) -> Bool {
        if a.words.0 != b.words.0 { return a.words.0 < b.words.0 }
        if a.words.1 != b.words.1 { return a.words.1 < b.words.1 }
        if a.words.2 != b.words.2 { return a.words.2 < b.words.2 }
        return a.words.3 < b.words.3
    }
}
