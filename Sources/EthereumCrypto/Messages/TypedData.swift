import EthereumPrimitives

/// EIP-712 typed structured data: struct type definitions, a domain and a message, hashed as
/// keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(message)) and signed with that digest.
///
/// Values come as `JSONValue`: integers as JSON numbers (read exactly at any size; other tools' parsers may
/// round those above 2^53, so strings are safer for documents shared with them) or decimal/`0x` strings,
/// addresses and bytes as `0x` hex, booleans, strings, nested objects for structs and arrays for `T[]`/`T[n]`.
public struct TypedData: Sendable, Equatable {
    /// One member of a struct type.
    public struct Field: Sendable, Hashable {
        /// The member name.
        public var name: String
        /// The member type: a struct name, an atomic type (`uint256`, `address`, `bytes32`, …), `string`,
        /// `bytes`, or an array of any of these (`T[]`, `T[n]`).
        public var type: String
        /// Creates a field.
        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    /// Struct types by name (including `EIP712Domain` when given).
    public var types: [String: [Field]]
    /// The type of ``message``.
    public var primaryType: String
    /// The domain values (an object).
    public var domain: JSONValue
    /// The message values (an object).
    public var message: JSONValue

    /// Creates typed data from its parts.
    public init(types: [String: [Field]], primaryType: String, domain: JSONValue, message: JSONValue) {
        self.types = types
        self.primaryType = primaryType
        self.domain = domain
        self.message = message
    }

    /// Parses the `eth_signTypedData_v4` JSON document `{types, primaryType, domain, message}`.
    public init(json root: JSONValue) throws(TypedDataError) {
        guard let typesObject = root["types"]?.objectValue else { throw .invalidDocument("missing \"types\" object") }
        var types: [String: [Field]] = [:]
        for (name, fieldsValue) in typesObject {
            guard let fields = fieldsValue.arrayValue else { throw .invalidType("\(name) is not an array of fields") }
            types[name] = try fields.enumerated().map { (i, field) throws(TypedDataError) in
                guard let fieldName = field["name"]?.stringValue, let fieldType = field["type"]?.stringValue else {
                    throw .invalidType("\(name) field \(i) needs \"name\" and \"type\" strings")
                }
                return Field(name: fieldName, type: fieldType)
            }
        }
        guard let primaryType = root["primaryType"]?.stringValue else { throw .invalidDocument("missing \"primaryType\"") }
        self.init(types: types, primaryType: primaryType, domain: root["domain"] ?? .object([]), message: root["message"] ?? .object([]))
    }

    /// Parses JSON text; see ``init(json:)-(JSONValue)``.
    public init(jsonText: String) throws(TypedDataError) {
        let root: JSONValue
        do { root = try JSONValue(parsing: jsonText) } catch {
            throw .invalidDocument("not JSON")
        }
        try self.init(json: root)
    }

    /// The `EIP712Domain` fields: as declared in ``types``, or else inferred from the domain's members in the
    /// EIP's order (name, version, chainId, verifyingContract, salt).
    public var domainFields: [Field] {
        if let declared = types["EIP712Domain"] { return declared }
        let known: [(String, String)] = [
            ("name", "string"), ("version", "string"), ("chainId", "uint256"), ("verifyingContract", "address"), ("salt", "bytes32"),
        ]
        return known.compactMap { domain[$0.0] == nil ? nil : Field(name: $0.0, type: $0.1) }
    }

    /// hashStruct(EIP712Domain, domain).
    public func domainSeparator() throws(TypedDataError) -> Bytes32 {
        var encoder = TypedDataEncoder(types: types.merging(["EIP712Domain": domainFields]) { $1 })
        return try encoder.hashStruct("EIP712Domain", domain, path: "domain")
    }

    /// hashStruct(primaryType, message).
    public func messageHash() throws(TypedDataError) -> Bytes32 {
        var encoder = TypedDataEncoder(types: types.merging(["EIP712Domain": domainFields]) { $1 })
        return try encoder.hashStruct(primaryType, message, path: "message")
    }

    /// keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(message)); when the primary type is `EIP712Domain`
    /// itself, the message hash is left out (as eth-account and MetaMask do).
    public func signingHash() throws(TypedDataError) -> Bytes32 {
        var bytes: [UInt8] = [0x19, 0x01] + (try domainSeparator()).bytes
        if primaryType != "EIP712Domain" { bytes += (try messageHash()).bytes }
        return Keccak256.hash(bytes)
    }

    /// `encodeType` of a struct type: `Name(type name,…)` followed by the referenced struct types sorted by name.
    public func encodeType(_ name: String) throws(TypedDataError) -> String {
        var encoder = TypedDataEncoder(types: types.merging(["EIP712Domain": domainFields]) { $1 })
        return try encoder.encodeType(name)
    }

    /// Signs the signing hash.
    public func sign(with key: PrivateKey) throws(TypedDataError) -> Signature { key.sign(hash: try signingHash()) }

    /// The address whose key produced `signature` over this data.
    public func recoverSigner(_ signature: Signature) throws(TypedDataError) -> Address {
        let hash = try signingHash()
        do { return try Secp256k1.recover(hash: hash, signature: signature).address } catch {
            throw .signature(error.description)
        }
    }
}
