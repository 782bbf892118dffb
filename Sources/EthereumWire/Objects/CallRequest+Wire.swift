import EthereumPrimitives

/// The transaction-like object of `eth_call` and `eth_estimateGas`. Unset fields are left out, so the node
/// applies its defaults (e.g. the block gas limit for `gas`).
public struct CallRequest: Sendable, Hashable {
    /// The sender (`msg.sender` of the call).
    public var from: Address?
    /// The callee; nil for a contract creation.
    public var to: Address?
    /// Gas limit.
    public var gas: UInt64?
    /// Legacy gas price.
    public var gasPrice: UInt256?
    /// EIP-1559 fee cap.
    public var maxFeePerGas: UInt256?
    /// EIP-1559 tip cap.
    public var maxPriorityFeePerGas: UInt256?
    /// Wei sent with the call.
    public var value: UInt256?
    /// Calldata (or init code for a creation).
    public var data: [UInt8]

    /// Creates a call object; only `to` and `data` are needed for a plain view call.
    public init(
        from: Address? = nil, to: Address?, data: [UInt8] = [], value: UInt256? = nil, gas: UInt64? = nil,
        gasPrice: UInt256? = nil, maxFeePerGas: UInt256? = nil, maxPriorityFeePerGas: UInt256? = nil
    ) {
        self.from = from
        self.to = to
        self.data = data
        self.value = value
        self.gas = gas
        self.gasPrice = gasPrice
        self.maxFeePerGas = maxFeePerGas
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
    }

    /// The JSON object sent on the wire. The calldata goes in `input` (the name the spec uses) and, for
    /// nodes that only know the older name, in `data` too.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let from { members.append(("from", .string(from.lowercasedHex))) }
        if let to { members.append(("to", .string(to.lowercasedHex))) }
        if let gas { members.append(("gas", .string(Quantity.encode(gas)))) }
        if let gasPrice { members.append(("gasPrice", .string(Quantity.encode(gasPrice)))) }
        if let maxFeePerGas { members.append(("maxFeePerGas", .string(Quantity.encode(maxFeePerGas)))) }
        if let maxPriorityFeePerGas { members.append(("maxPriorityFeePerGas", .string(Quantity.encode(maxPriorityFeePerGas)))) }
        if let value { members.append(("value", .string(Quantity.encode(value)))) }
        let input = JSONValue.string(Hex.encode(data))
        members.append(("input", input))
        members.append(("data", input))
        return .object(members)
    }
}
