import EthereumPrimitives
import EthereumTransactions

/// The JSON form of an EIP-7702 signed authorization, geth's field names both ways:
/// `{"chainId", "address", "nonce", "yParity", "r", "s"}`, quantities as minimal hex. It is what a node writes in a
/// type-4 transaction's `authorizationList` and what `eth_call` / `eth_estimateGas` read in a call object.
extension SignedAuthorization {
    /// The JSON object.
    public var json: JSONValue {
        .object([
            ("chainId", .string(Quantity.encode(chainId))), ("address", .string(address.lowercasedHex)),
            ("nonce", .string(Quantity.encode(nonce))), ("yParity", .string(Quantity.encode(UInt64(yParity)))),
            ("r", .string(Quantity.encode(r))), ("s", .string(Quantity.encode(s))),
        ])
    }

    /// Reads one authorization; every field is required, the nonce must fit 64 bits and the y parity 8 bits (the
    /// bounds of the RLP form, so whatever is read here can be signed into a transaction).
    public init(json: JSONValue, path: String = "authorization") throws(WireError) {
        let o = try json.wireObject(path)
        let nonce = try o.required("nonce").wireUInt64OrNumber(o.name("nonce"))
        let parity = try o.required("yParity").wireUInt64OrNumber(o.name("yParity"))
        guard parity <= UInt64(UInt8.max) else { throw WireError("\(o.name("yParity")): \(parity) is above 255") }
        self.init(
            authorization: Authorization(chainId: try o.uint256("chainId"), address: try o.address("address"), nonce: nonce),
            yParity: UInt8(parity), r: try o.uint256("r"), s: try o.uint256("s"))
    }

    /// A JSON array of authorizations.
    public static func json(_ list: [SignedAuthorization]) -> JSONValue { .array(list.map(\.json)) }

    /// Reads a JSON array of authorizations (`authorizationList`).
    public static func list(json: JSONValue, path: String = "authorizationList") throws(WireError) -> [SignedAuthorization] {
        var out: [SignedAuthorization] = []
        for (i, item) in try json.wireArray(path).enumerated() {
            out.append(try SignedAuthorization(json: item, path: "\(path)[\(i)]"))
        }
        return out
    }
}
