import EthereumPrimitives
import EthereumTransactions

/// The JSON form of ``CallRequest``, both ways: the client writes it as the first parameter of `eth_call`,
/// `eth_estimateGas`, `eth_createAccessList` and `eth_sendTransaction`; the dev node reads it back.
extension CallRequest {
    /// The JSON object sent on the wire. Unset fields are left out, so the node applies its defaults. The
    /// calldata goes in `input` (the name the spec uses) and, for nodes that only know the older name, in
    /// `data` too (empty when unset).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let from { members.append(("from", .string(from.lowercasedHex))) }
        if let to { members.append(("to", .string(to.lowercasedHex))) }
        if let gas { members.append(("gas", .string(Quantity.encode(gas)))) }
        if let gasPrice { members.append(("gasPrice", .string(Quantity.encode(gasPrice)))) }
        if let maxFeePerGas { members.append(("maxFeePerGas", .string(Quantity.encode(maxFeePerGas)))) }
        if let maxPriorityFeePerGas { members.append(("maxPriorityFeePerGas", .string(Quantity.encode(maxPriorityFeePerGas)))) }
        if let value { members.append(("value", .string(Quantity.encode(value)))) }
        let input = JSONValue.string(Hex.encode(data ?? []))
        members.append(("input", input))
        members.append(("data", input))
        if let nonce { members.append(("nonce", .string(Quantity.encode(nonce)))) }
        if let accessList { members.append(("accessList", Self.json(accessList))) }
        if let type { members.append(("type", .string(Quantity.encode(UInt64(type))))) }
        if let blobVersionedHashes { members.append(("blobVersionedHashes", .array(blobVersionedHashes.map { .string($0.hexString) }))) }
        if let maxFeePerBlobGas { members.append(("maxFeePerBlobGas", .string(Quantity.encode(maxFeePerBlobGas)))) }
        if let authorizationList { members.append(("authorizationList", SignedAuthorization.json(authorizationList))) }
        return .object(members)
    }

    /// Reads a transaction or call object as nodes accept it: quantities as hex (gas, nonce and type also as
    /// JSON numbers, as anvil and Hardhat allow), the calldata in `input` or `data` (both only when equal).
    public init(json: JSONValue) throws(WireError) {
        let o = try json.wireObject("transaction")
        self.init()
        from = try o.optionalAddress("from")
        to = try o.optionalAddress("to")
        gas = try o.optional("gas").map { v throws(WireError) in try v.wireUInt64OrNumber("transaction.gas") }
        gasPrice = try o.optionalUInt256("gasPrice")
        maxFeePerGas = try o.optionalUInt256("maxFeePerGas")
        maxPriorityFeePerGas = try o.optionalUInt256("maxPriorityFeePerGas")
        value = try o.optionalUInt256("value")
        let input = try o.optionalBytes("input")
        let data = try o.optionalBytes("data")
        if let input, let data, input != data { throw WireError("transaction: both input and data given, and they differ") }
        self.data = input ?? data
        nonce = try o.optional("nonce").map { v throws(WireError) in try v.wireUInt64OrNumber("transaction.nonce") }
        if let list = o.optional("accessList") { accessList = try Self.accessList(list) }
        if let type = o.optional("type") {
            let t = try type.wireUInt64OrNumber("transaction.type")
            guard t <= 4 else { throw WireError("transaction.type: \(t) is not a transaction type") }
            self.type = UInt8(t)
        }
        if let hashes = o.optional("blobVersionedHashes") {
            blobVersionedHashes = try hashes.wireArray("transaction.blobVersionedHashes").map { h throws(WireError) in
                try h.wireBytes32("transaction.blobVersionedHashes[]")
            }
        }
        maxFeePerBlobGas = try o.optionalUInt256("maxFeePerBlobGas")
        if let list = o.optional("authorizationList") {
            authorizationList = try SignedAuthorization.list(json: list, path: "transaction.authorizationList")
        }
    }

    /// An EIP-2930 access list's JSON: `[{"address": …, "storageKeys": [...]}, …]`.
    public static func json(_ list: AccessList) -> JSONValue {
        .array(list.map { .object([("address", .string($0.address.lowercasedHex)), ("storageKeys", .array($0.storageKeys.map { .string($0.hexString) }))]) })
    }

    /// Reads an EIP-2930 access list.
    public static func accessList(_ value: JSONValue) throws(WireError) -> AccessList {
        try value.wireArray("accessList").map { entry throws(WireError) in
            let e = try entry.wireObject("accessList[]")
            let keys = try e.optional("storageKeys")?.wireArray("accessList[].storageKeys") ?? []
            return AccessListEntry(
                address: try e.address("address"),
                storageKeys: try keys.map { k throws(WireError) in try k.wireBytes32("accessList[].storageKeys[]") })
        }
    }
}
