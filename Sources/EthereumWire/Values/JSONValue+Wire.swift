import EthereumPrimitives

/// Typed readers for JSON-RPC wire values. Each names the field in its error (`what`), so a malformed
/// answer reads as e.g. `"gasUsed: expected a 0x-prefixed hex quantity, got 12"`.
extension JSONValue {
    /// The value as a string, or an error naming `what`.
    public func wireString(_ what: String) throws(WireError) -> String {
        guard case .string(let s) = self else { throw WireError("\(what): expected a string, got \(Self.excerpt(self))") }
        return s
    }

    /// A quantity as `UInt64`.
    public func wireUInt64(_ what: String) throws(WireError) -> UInt64 {
        let text = try wireString(what)
        do { return try Quantity.decodeUInt64(text) } catch { throw WireError("\(what): \(error.what)") }
    }

    /// A quantity, or — as anvil and Hardhat accept in requests — a non-negative JSON integer, as `UInt64`.
    public func wireUInt64OrNumber(_ what: String) throws(WireError) -> UInt64 {
        if case .number(let text) = self {
            guard let n = UInt64(text) else { throw WireError("\(what): \(text) is not a non-negative 64-bit integer") }
            return n
        }
        return try wireUInt64(what)
    }

    /// A quantity as `UInt256`.
    public func wireUInt256(_ what: String) throws(WireError) -> UInt256 {
        let text = try wireString(what)
        do { return try Quantity.decodeUInt256(text) } catch { throw WireError("\(what): \(error.what)") }
    }

    /// Hex data as bytes.
    public func wireBytes(_ what: String) throws(WireError) -> [UInt8] {
        let text = try wireString(what)
        guard Hex.hasPrefix(text) else { throw WireError("\(what): expected 0x-prefixed hex data, got \(Self.excerpt(self))") }
        do { return try Hex.decode(text) } catch { throw WireError("\(what): \(error)") }
    }

    /// A 20-byte address.
    public func wireAddress(_ what: String) throws(WireError) -> Address {
        let text = try wireString(what)
        do { return try Address(text) } catch { throw WireError("\(what): \(error)") }
    }

    /// A 32-byte hash or word.
    public func wireBytes32(_ what: String) throws(WireError) -> Bytes32 {
        let bytes = try wireBytes(what)
        guard let word = Bytes32(bytes) else { throw WireError("\(what): expected 32 bytes, got \(bytes.count)") }
        return word
    }

    /// A JSON array.
    public func wireArray(_ what: String) throws(WireError) -> [JSONValue] {
        guard case .array(let items) = self else { throw WireError("\(what): expected an array, got \(Self.excerpt(self))") }
        return items
    }

    /// A JSON object, for reading its members with ``WireObject``.
    public func wireObject(_ what: String) throws(WireError) -> WireObject {
        guard case .object(let members) = self else { throw WireError("\(what): expected an object, got \(Self.excerpt(self))") }
        return WireObject(members: members, path: what)
    }

    /// The first characters of the value's JSON text, for error messages.
    package static func excerpt(_ value: JSONValue) -> String {
        let text = value.description
        return text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }
}

/// Member access on a JSON object from the wire, with errors that name the member's path.
public struct WireObject: Sendable {
    let members: [(key: String, value: JSONValue)]
    /// The object's path, for error messages (e.g. `"receipt"`).
    public let path: String

    /// The member `key`, which must be present and not null.
    public func required(_ key: String) throws(WireError) -> JSONValue {
        guard let value = optional(key) else { throw WireError("\(path).\(key): missing") }
        return value
    }

    /// The member `key`, or nil when it is absent or null.
    public func optional(_ key: String) -> JSONValue? {
        guard let value = members.first(where: { $0.key == key })?.value, !value.isNull else { return nil }
        return value
    }

    /// The path of the member `key`, for the readers' `what`.
    public func name(_ key: String) -> String { "\(path).\(key)" }

    // Typed members: each reads the member `key` (required, or nil when absent or null for the optional forms).

    /// A required quantity member as `UInt64`.
    public func uint64(_ key: String) throws(WireError) -> UInt64 { try required(key).wireUInt64(name(key)) }
    /// A required quantity member as `UInt256`.
    public func uint256(_ key: String) throws(WireError) -> UInt256 { try required(key).wireUInt256(name(key)) }
    /// A required data member.
    public func bytes(_ key: String) throws(WireError) -> [UInt8] { try required(key).wireBytes(name(key)) }
    /// A required 32-byte member.
    public func bytes32(_ key: String) throws(WireError) -> Bytes32 { try required(key).wireBytes32(name(key)) }
    /// A required address member.
    public func address(_ key: String) throws(WireError) -> Address { try required(key).wireAddress(name(key)) }
    /// A required string member.
    public func string(_ key: String) throws(WireError) -> String { try required(key).wireString(name(key)) }

    /// An optional quantity member as `UInt64`.
    public func optionalUInt64(_ key: String) throws(WireError) -> UInt64? { try optional(key).map { v throws(WireError) in try v.wireUInt64(name(key)) } }
    /// An optional quantity member as `UInt256`.
    public func optionalUInt256(_ key: String) throws(WireError) -> UInt256? { try optional(key).map { v throws(WireError) in try v.wireUInt256(name(key)) } }
    /// An optional 32-byte member.
    public func optionalBytes32(_ key: String) throws(WireError) -> Bytes32? { try optional(key).map { v throws(WireError) in try v.wireBytes32(name(key)) } }
    /// An optional address member.
    public func optionalAddress(_ key: String) throws(WireError) -> Address? { try optional(key).map { v throws(WireError) in try v.wireAddress(name(key)) } }
    /// An optional data member.
    public func optionalBytes(_ key: String) throws(WireError) -> [UInt8]? { try optional(key).map { v throws(WireError) in try v.wireBytes(name(key)) } }
}
