/// Hexadecimal encoding and strict decoding of byte strings.
///
/// Decoding accepts an optional `0x`/`0X` prefix and digits in either case; it rejects odd lengths and
/// anything that is not a hex digit, naming the offending position.
public enum Hex {
    /// Errors from ``Hex/decode(_:)``.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The digit count (after any `0x`) is odd.
        case oddLength(Int)
        /// A character that is not a hex digit, at this UTF-8 offset in the input (counting any prefix).
        case invalidCharacter(Character, offset: Int)

        public var description: String {
            switch self {
            case .oddLength(let n): return "hex string has an odd number of digits (\(n))"
            case .invalidCharacter(let c, let offset):
                return "invalid hex digit \(String(reflecting: String(c))) at offset \(offset)"
            }
        }
    }

    private static let lowerDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lowercase hex, with a `0x` prefix unless `prefix` is false.
    public static func encode<C: Collection>(_ bytes: C, prefix: Bool = true) -> String where C.Element == UInt8 {
        bytes.withContiguousStorageIfAvailable { encode(buffer: $0, prefix: prefix) } ?? encode(Array(bytes), prefix: prefix)
    }

    /// Encodes a byte array as lowercase hex, with a `0x` prefix unless `prefix` is false. The generic encoder runs
    /// unspecialised when called from another module (a generic iterator call per byte); every hash and data field
    /// of a JSON-RPC answer comes here.
    public static func encode(_ bytes: [UInt8], prefix: Bool = true) -> String {
        bytes.withUnsafeBufferPointer { encode(buffer: $0, prefix: prefix) }
    }

    private static func encode(buffer bytes: UnsafeBufferPointer<UInt8>, prefix: Bool) -> String {
        let count = bytes.count * 2 + (prefix ? 2 : 0)
        return String(unsafeUninitializedCapacity: count) { out in
            var i = 0
            if prefix {
                out[0] = UInt8(ascii: "0")
                out[1] = UInt8(ascii: "x")
                i = 2
            }
            lowerDigits.withUnsafeBufferPointer { digits in
                for b in bytes {
                    out[i] = digits[Int(b >> 4)]
                    out[i + 1] = digits[Int(b & 0x0f)]
                    i += 2
                }
            }
            return count
        }
    }

    /// Decodes a hex string (optional `0x` prefix) into bytes.
    public static func decode(_ string: String) throws(Hex.Error) -> [UInt8] {
        var s = string
        let result = s.withUTF8 { utf8 in Result { () throws(Hex.Error) in try decode(utf8: utf8, original: string) } }
        return try result.get()
    }

    /// True when `string` has a `0x` or `0X` prefix.
    public static func hasPrefix(_ string: String) -> Bool {
        let u = string.utf8
        guard u.count >= 2 else { return false }
        let i = u.startIndex
        return u[i] == UInt8(ascii: "0") && (u[u.index(after: i)] | 0x20) == UInt8(ascii: "x")
    }

    /// Removes a leading `0x`/`0X`, if any.
    public static func stripPrefix(_ string: String) -> Substring {
        hasPrefix(string) ? string.dropFirst(2) : Substring(string)
    }

    @inline(__always)
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }

    private static func decode(utf8: UnsafeBufferPointer<UInt8>, original: String) throws(Hex.Error) -> [UInt8] {
        var start = 0
        if utf8.count >= 2, utf8[0] == UInt8(ascii: "0"), utf8[1] | 0x20 == UInt8(ascii: "x") { start = 2 }
        let digits = utf8.count - start
        func badCharacter(at offset: Int) -> Hex.Error {
            // Report the Unicode scalar starting at the byte (not the raw byte), so "0xé" reads sensibly.
            let u = original.utf8.index(original.utf8.startIndex, offsetBy: offset)
            let scalar = String.Index(u, within: original.unicodeScalars).map { original.unicodeScalars[$0] }
            return .invalidCharacter(Character(scalar ?? "\u{FFFD}"), offset: offset)
        }
        // Check characters before the length so "0xzz1" reports the bad digit, the more useful error.
        var result = [UInt8](repeating: 0, count: digits / 2)
        var i = start
        var o = 0
        while i + 1 < utf8.count {
            guard let hi = nibble(utf8[i]) else { throw badCharacter(at: i) }
            guard let lo = nibble(utf8[i + 1]) else { throw badCharacter(at: i + 1) }
            result[o] = hi << 4 | lo
            o += 1
            i += 2
        }
        if digits % 2 != 0 {
            if nibble(utf8[utf8.count - 1]) == nil { throw badCharacter(at: utf8.count - 1) }
            throw .oddLength(digits)
        }
        return result
    }
}

extension Array where Element == UInt8 {
    /// Decodes a hex string (optional `0x` prefix); throws ``Hex/Error`` on malformed input.
    public init(hex: String) throws(Hex.Error) {
        self = try Hex.decode(hex)
    }

    /// Lowercase hex with a `0x` prefix.
    public var hexString: String { Hex.encode(self) }
}
