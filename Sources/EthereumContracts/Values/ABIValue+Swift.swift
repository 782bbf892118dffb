import EthereumABI
import EthereumPrimitives

// Conversions between ABI values and the Swift types bindings use. Generated code calls these with the ABI type
// it knows statically; the ABI decoder has already checked widths, so a failure here means data of another type.
//
// The mapping (docs/CONTRACTS.md): uint8/16/32/64 → UInt8/16/32/64, other uintN ≤ 64 → the next wider one,
// wider → UInt256; intN likewise with Int8…Int64 and Int256; address → Address; bool → Bool; string → String;
// bytes → [UInt8]; bytes32 → Bytes32; other bytesN and function → [UInt8] (length checked); T[k] and T[] →
// [T]; tuples → generated structs.

extension ABIValue {
    private func mismatch(_ expected: String, _ path: String) -> ContractError {
        .unexpectedData(what: path, reason: "expected \(expected), got \(self)")
    }

    /// An unsigned integer as `T`.
    public func decodeUnsigned<T: FixedWidthInteger & UnsignedInteger>(_: T.Type = T.self, path: String = "value") throws(ContractError) -> T {
        guard case .uint(let v) = self else { throw mismatch("an unsigned integer", path) }
        guard let value = T(exactly: v) else { throw mismatch("a \(T.bitWidth)-bit unsigned integer", path) }
        return value
    }

    /// A `uint<N>` of any width.
    public func decodeUInt256(path: String = "value") throws(ContractError) -> UInt256 {
        guard case .uint(let v) = self else { throw mismatch("an unsigned integer", path) }
        return v
    }

    /// A signed integer as `T`.
    public func decodeSigned<T: FixedWidthInteger & SignedInteger>(_: T.Type = T.self, path: String = "value") throws(ContractError) -> T {
        guard case .int(let v) = self else { throw mismatch("a signed integer", path) }
        guard let int = Int256(bitPattern: v).intValue, let value = T(exactly: int) else {
            throw mismatch("a \(T.bitWidth)-bit signed integer", path)
        }
        return value
    }

    /// An `int<N>` of any width.
    public func decodeInt256(path: String = "value") throws(ContractError) -> Int256 {
        guard case .int(let v) = self else { throw mismatch("a signed integer", path) }
        return Int256(bitPattern: v)
    }

    /// An `address`.
    public func decodeAddress(path: String = "value") throws(ContractError) -> Address {
        guard case .address(let a) = self else { throw mismatch("an address", path) }
        return a
    }

    /// A `bool`.
    public func decodeBool(path: String = "value") throws(ContractError) -> Bool {
        guard case .bool(let b) = self else { throw mismatch("a bool", path) }
        return b
    }

    /// A `string`.
    public func decodeString(path: String = "value") throws(ContractError) -> String {
        guard case .string(let s) = self else { throw mismatch("a string", path) }
        return s
    }

    /// A `bytes` value.
    public func decodeBytes(path: String = "value") throws(ContractError) -> [UInt8] {
        guard case .bytes(let b) = self else { throw mismatch("a byte string", path) }
        return b
    }

    /// A `bytes<count>` (or `function`, 24 bytes) value.
    public func decodeFixedBytes(count: Int, path: String = "value") throws(ContractError) -> [UInt8] {
        guard case .fixedBytes(let b) = self, b.count == count else { throw mismatch("\(count) bytes", path) }
        return b
    }

    /// A `bytes32`.
    public func decodeBytes32(path: String = "value") throws(ContractError) -> Bytes32 {
        guard case .fixedBytes(let b) = self, b.count == 32, let word = Bytes32(b) else { throw mismatch("32 bytes", path) }
        return word
    }

    /// The elements of an array (exactly `count` of them for a fixed-size one), each converted by `element`.
    public func decodeArray<T>(
        count: Int? = nil, path: String = "value", _ element: (ABIValue, String) throws(ContractError) -> T
    ) throws(ContractError) -> [T] {
        guard case .array(let items) = self else { throw mismatch("an array", path) }
        if let count, items.count != count { throw mismatch("an array of \(count)", path) }
        var out: [T] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { out.append(try element(item, "\(path)[\(i)]")) }
        return out
    }

    /// The components of a tuple of `count`.
    public func decodeTuple(count: Int, path: String = "value") throws(ContractError) -> [ABIValue] {
        guard case .tuple(let items) = self, items.count == count else { throw mismatch("a tuple of \(count)", path) }
        return items
    }

    /// The value of an `int<N>` from a Swift integer.
    public static func signed<T: BinaryInteger>(_ value: T) -> ABIValue {
        let magnitude = UInt256(value.magnitude)
        return .int(value < 0 ? magnitude.negated : magnitude)
    }

    /// The value of an `int<N>` from an `Int256`.
    public static func signed(_ value: Int256) -> ABIValue { .int(value.bitPattern) }

    /// The value of a `uint<N>` from a Swift integer.
    public static func unsigned<T: BinaryInteger>(_ value: T) -> ABIValue { .uint(UInt256(value)) }

    /// The value of a `bytes32`.
    public static func word(_ value: Bytes32) -> ABIValue { .fixedBytes(value.bytes) }
}

/// A Swift struct generated for an ABI tuple: it converts to and from the tuple's `ABIValue`.
public protocol ABITuple: Sendable, Hashable {
    /// The tuple's components, as types.
    static var abiType: ABIType { get }
    /// The struct from a decoded tuple.
    init(abiValue: ABIValue, path: String) throws(ContractError)
    /// The tuple to encode.
    var abiValue: ABIValue { get }
}

extension ABILogValue {
    /// The value of a parameter the log holds (from its data, or an indexed elementary one from its topic).
    public func decodeValue(path: String) throws(ContractError) -> ABIValue {
        guard case .value(let v) = self else { throw .unexpectedData(what: path, reason: "expected a value, got a hash") }
        return v
    }

    /// The hash an indexed `string`, `bytes`, array or tuple leaves in its topic.
    public func decodeHash(path: String) throws(ContractError) -> Bytes32 {
        guard case .hashed(let h) = self else { throw .unexpectedData(what: path, reason: "expected a topic hash, got \(self)") }
        return h
    }
}

extension ContractABI {
    /// The ABI a generated binding embeds. The generator wrote (and parsed) this JSON, so it always parses; a
    /// failure means the generated file was edited by hand.
    public static func generated(_ json: String) -> ContractABI {
        do { return try ContractABI(json: json) } catch {
            preconditionFailure("a generated binding embeds an ABI that does not parse (was the file edited?): \(error)")
        }
    }
}

extension Array where Element == UInt8 {
    /// Bytecode a generated binding embeds as hex (see ``EthereumABI/ContractABI/generated(_:)``).
    public static func generatedBytecode(_ hex: String) -> [UInt8] {
        do { return try Hex.decode(hex) } catch {
            preconditionFailure("a generated binding embeds bytecode that is not hex (was the file edited?): \(error)")
        }
    }
}
