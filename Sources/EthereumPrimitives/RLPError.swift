/// Why bytes are not canonical RLP, or why an ``RLPItem`` does not decode as the requested type.
///
/// `offset` is the position in the input of the item at fault (nil for errors found after parsing,
/// such as a wrong type). `fieldPath` lists the list indices leading to the item when a typed
/// decoder knows them (outermost first), so a transaction decoder can say "in field 3".
public struct RLPError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// The item needs `needed` bytes (header and payload) but the input has only `available` left.
        case truncated(needed: Int, available: Int)
        /// An item inside a list needs `needed` bytes but only `available` remain in that list's payload.
        case exceedsList(needed: Int, available: Int)
        /// A length of `length` (< 56) written in the long form; the short form is the canonical one.
        case longFormForShortLength(Int)
        /// A long-form length whose first byte is zero.
        case leadingZeroInLength
        /// A single byte below 0x80 wrapped as `0x81 byte`; such a byte is its own encoding.
        case nonCanonicalSingleByte(UInt8)
        /// A length that does not fit in `Int`.
        case lengthOverflow
        /// `count` bytes follow the complete top-level item.
        case trailingBytes(count: Int)
        /// Lists nest deeper than `limit` levels.
        case nestingTooDeep(limit: Int)
        /// A byte string was required, a list found.
        case expectedBytes
        /// A list was required, a byte string found.
        case expectedList
        /// A list with `actual` items where `expected` were required.
        case wrongFieldCount(expected: Int, actual: Int)
        /// An integer with a leading zero byte (zero itself is the empty string).
        case leadingZeroInInteger
        /// An integer of `byteCount` bytes, too large for `type`.
        case integerOverflow(byteCount: Int, type: String)
        /// A fixed-size byte string (hash, address) of the wrong size.
        case wrongByteCount(expected: Int, actual: Int)
        /// A boolean that is neither empty (false) nor `0x01` (true).
        case invalidBool
        /// A string whose bytes are not valid UTF-8.
        case invalidUTF8
        /// A type-specific rule of a decoder layered on RLP, described in words.
        case invalidValue(String)
    }

    /// What went wrong.
    public var kind: Kind
    /// Byte offset in the input of the item at fault, when known.
    public var offset: Int?
    /// List indices from the outermost list down to the item at fault, when a typed decoder knows them.
    public var fieldPath: [Int]

    /// Creates an error.
    public init(_ kind: Kind, offset: Int? = nil, fieldPath: [Int] = []) {
        self.kind = kind
        self.offset = offset
        self.fieldPath = fieldPath
    }

    /// The same error, located inside field `index` of an enclosing list.
    public func inField(_ index: Int) -> RLPError {
        RLPError(kind, offset: offset, fieldPath: [index] + fieldPath)
    }

    /// A short name for the kind of problem, e.g. "non-canonical length".
    public var summary: String {
        switch kind {
        case .truncated: return "truncated input"
        case .exceedsList: return "item exceeds its list"
        case .longFormForShortLength, .leadingZeroInLength: return "non-canonical length"
        case .nonCanonicalSingleByte: return "non-canonical single byte"
        case .lengthOverflow: return "length overflow"
        case .trailingBytes: return "trailing bytes"
        case .nestingTooDeep: return "nesting too deep"
        case .expectedBytes, .expectedList: return "wrong item type"
        case .wrongFieldCount: return "wrong field count"
        case .leadingZeroInInteger: return "non-canonical integer"
        case .integerOverflow: return "integer overflow"
        case .wrongByteCount: return "wrong byte count"
        case .invalidBool: return "invalid boolean"
        case .invalidUTF8: return "invalid UTF-8"
        case .invalidValue: return "invalid value"
        }
    }

    /// The explanation after the summary.
    public var detail: String {
        switch kind {
        case .truncated(let needed, let available):
            return "the item needs \(byteCount(needed)) but the input has only \(available) left"
        case .exceedsList(let needed, let available):
            return "the item needs \(byteCount(needed)) but its list has only \(available) left"
        case .longFormForShortLength(let length):
            return "length \(length) is written in the long form; lengths below 56 must use the short form"
        case .leadingZeroInLength:
            return "the long-form length starts with a zero byte"
        case .nonCanonicalSingleByte(let b):
            return "byte \(hex(b)) must be encoded as itself, not as 0x81 \(hex(b))"
        case .lengthOverflow:
            return "the declared length (with its header) does not fit in Int"
        case .trailingBytes(let count):
            return "\(byteCount(count)) after the end of the top-level item"
        case .nestingTooDeep(let limit):
            return "lists nest more than \(limit) levels deep"
        case .expectedBytes:
            return "expected a byte string, got a list"
        case .expectedList:
            return "expected a list, got a byte string"
        case .wrongFieldCount(let expected, let actual):
            return "expected \(expected) field\(expected == 1 ? "" : "s"), got \(actual)"
        case .leadingZeroInInteger:
            return "integers must not have leading zero bytes (zero is the empty string)"
        case .integerOverflow(let count, let type):
            return "a \(count)-byte integer does not fit in \(type)"
        case .wrongByteCount(let expected, let actual):
            return "expected \(byteCount(expected)), got \(actual)"
        case .invalidBool:
            return "a boolean is the empty string (false) or 0x01 (true)"
        case .invalidUTF8:
            return "the bytes are not valid UTF-8"
        case .invalidValue(let message):
            return message
        }
    }

    /// For example "non-canonical length at offset 3: length 5 is written in the long form; …".
    public var description: String {
        var location = ""
        if !fieldPath.isEmpty { location += " in field " + fieldPath.map(String.init).joined(separator: ".") }
        if let offset { location += " at offset \(offset)" }
        return "\(summary)\(location): \(detail)"
    }
}

private func byteCount(_ n: Int) -> String {
    n == 1 ? "1 byte" : "\(n) bytes"
}

private func hex(_ b: UInt8) -> String {
    "0x" + (b < 0x10 ? "0" : "") + String(b, radix: 16)
}
