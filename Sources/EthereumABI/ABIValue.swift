import EthereumPrimitives

/// A value of an ``ABIType``: typed, never `Any`.
///
/// Signed integers are held as their 256-bit two's complement (`-1` is `UInt256.max`); use
/// ``ABIValue/signed(_:)`` to build one from an `Int`. Two values are equal exactly when they encode to
/// the same bytes under the same type: strings compare by their UTF-8 bytes, not by Unicode canonical
/// equivalence.
public indirect enum ABIValue: Sendable, Hashable, CustomStringConvertible {
    /// A value of a `uint<N>` type.
    case uint(UInt256)
    /// A value of an `int<N>` type, as 256-bit two's complement.
    case int(UInt256)
    /// An `address`.
    case address(Address)
    /// A `bool`.
    case bool(Bool)
    /// A `bytes<N>` value: exactly N bytes.
    case fixedBytes([UInt8])
    /// A `bytes` value.
    case bytes([UInt8])
    /// A `string` value.
    case string(String)
    /// The elements of a `T[k]` or `T[]`.
    case array([ABIValue])
    /// The components of a tuple.
    case tuple([ABIValue])

    /// A signed integer value (for any `int<N>` type it fits).
    public static func signed(_ value: Int) -> ABIValue {
        .int(value < 0 ? UInt256(value.magnitude).negated : UInt256(value.magnitude))
    }

    /// An unsigned integer value.
    public static func unsigned(_ value: UInt64) -> ABIValue { .uint(UInt256(value)) }

    public static func == (a: ABIValue, b: ABIValue) -> Bool {
        switch (a, b) {
        case (.uint(let x), .uint(let y)), (.int(let x), .int(let y)): return x == y
        case (.address(let x), .address(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.fixedBytes(let x), .fixedBytes(let y)), (.bytes(let x), .bytes(let y)): return x == y
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.array(let x), .array(let y)), (.tuple(let x), .tuple(let y)): return x == y
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .uint(let v):
            hasher.combine(0)
            hasher.combine(v)
        case .int(let v):
            hasher.combine(1)
            hasher.combine(v)
        case .address(let a):
            hasher.combine(2)
            hasher.combine(a)
        case .bool(let b):
            hasher.combine(3)
            hasher.combine(b)
        case .fixedBytes(let b):
            hasher.combine(4)
            hasher.combine(b)
        case .bytes(let b):
            hasher.combine(5)
            hasher.combine(b)
        case .string(let s):
            hasher.combine(6)
            hasher.combine(s.utf8.count)
            for byte in s.utf8 { hasher.combine(byte) }
        case .array(let items):
            hasher.combine(7)
            hasher.combine(items)
        case .tuple(let items):
            hasher.combine(8)
            hasher.combine(items)
        }
    }

    /// A compact readable form: numbers in decimal (signed for `int`), addresses checksummed, bytes in hex,
    /// strings quoted, arrays in `[…]` and tuples in `(…)`.
    public var description: String {
        switch self {
        case .uint(let v): return v.description
        case .int(let v): return ABIValue.signedDecimal(v)
        case .address(let a): return a.checksummed
        case .bool(let b): return b ? "true" : "false"
        case .fixedBytes(let b), .bytes(let b): return Hex.encode(b)
        case .string(let s): return JSONValue.quote(s)
        case .array(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .tuple(let items): return "(" + items.map(\.description).joined(separator: ", ") + ")"
        }
    }

    /// The decimal form of a 256-bit two's-complement number, with a minus sign when negative.
    public static func signedDecimal(_ value: UInt256) -> String {
        value.isNegative ? "-" + value.negated.description : value.description
    }

    // MARK: Accessors

    /// The unsigned integer, for `.uint`.
    public var uintValue: UInt256? { if case .uint(let v) = self { return v } else { return nil } }
    /// The two's-complement integer, for `.int`.
    public var intValue: UInt256? { if case .int(let v) = self { return v } else { return nil } }
    /// The address, for `.address`.
    public var addressValue: Address? { if case .address(let v) = self { return v } else { return nil } }
    /// The flag, for `.bool`.
    public var boolValue: Bool? { if case .bool(let v) = self { return v } else { return nil } }
    /// The bytes, for `.bytes` and `.fixedBytes`.
    public var bytesValue: [UInt8]? {
        switch self {
        case .bytes(let b), .fixedBytes(let b): return b
        default: return nil
        }
    }
    /// The text, for `.string`.
    public var stringValue: String? { if case .string(let v) = self { return v } else { return nil } }
    /// The elements, for `.array` and `.tuple`.
    public var elements: [ABIValue]? {
        switch self {
        case .array(let items), .tuple(let items): return items
        default: return nil
        }
    }

    /// The name of the value's kind, for error messages.
    var kindName: String {
        switch self {
        case .uint: return "an unsigned integer"
        case .int: return "a signed integer"
        case .address: return "an address"
        case .bool: return "a bool"
        case .fixedBytes(let b): return "bytes\(b.count) value"
        case .bytes: return "a byte string"
        case .string: return "a string"
        case .array(let items): return "an array of \(items.count)"
        case .tuple(let items): return "a tuple of \(items.count)"
        }
    }
}
