import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// The typed Ethereum JSON-RPC calls: each builds its parameters in wire form and reads its result into a
/// Swift type. ``RPCClient`` has a method per call; these are for batches (`client.batch([...])`).
public enum RPCMethods {
    /// `eth_chainId`: the chain id used for EIP-155 signatures.
    public static func chainID() -> RPCMethodCall<UInt64> {
        read("eth_chainId", []) { json throws(WireError) in try json.wireUInt64("chain id") }
    }

    /// `net_version`: the network id (a decimal string).
    public static func netVersion() -> RPCMethodCall<String> {
        read("net_version", []) { json throws(WireError) in try json.wireString("network id") }
    }

    /// `web3_clientVersion`: the node software's name and version.
    public static func clientVersion() -> RPCMethodCall<String> {
        read("web3_clientVersion", []) { json throws(WireError) in try json.wireString("client version") }
    }

    /// `eth_blockNumber`: the newest block's number.
    public static func blockNumber() -> RPCMethodCall<UInt64> {
        read("eth_blockNumber", []) { json throws(WireError) in try json.wireUInt64("block number") }
    }

    /// `eth_accounts`: the accounts the node manages (dev nodes list their funded accounts).
    public static func accounts() -> RPCMethodCall<[Address]> {
        read("eth_accounts", []) { json throws(WireError) in
            var out: [Address] = []
            for (i, item) in try json.wireArray("accounts").enumerated() { out.append(try item.wireAddress("accounts[\(i)]")) }
            return out
        }
    }

    /// `eth_getBalance`: an account's balance in wei.
    public static func balance(of address: Address, at block: BlockTag = .latest) -> RPCMethodCall<UInt256> {
        read("eth_getBalance", [.string(address.lowercasedHex), block.json]) { json throws(WireError) in try json.wireUInt256("balance") }
    }

    /// `eth_getTransactionCount`: an account's nonce (`.pending` counts transactions the node holds).
    public static func transactionCount(of address: Address, at block: BlockTag = .latest) -> RPCMethodCall<UInt64> {
        read("eth_getTransactionCount", [.string(address.lowercasedHex), block.json]) { json throws(WireError) in
            try json.wireUInt64("transaction count")
        }
    }

    /// `eth_getCode`: an account's code (empty for an ordinary account).
    public static func code(at address: Address, block: BlockTag = .latest) -> RPCMethodCall<[UInt8]> {
        read("eth_getCode", [.string(address.lowercasedHex), block.json]) { json throws(WireError) in try json.wireBytes("code") }
    }

    /// `eth_getStorageAt`: one storage word of a contract.
    public static func storage(at address: Address, slot: UInt256, block: BlockTag = .latest) -> RPCMethodCall<Bytes32> {
        read("eth_getStorageAt", [.string(address.lowercasedHex), .string(Quantity.encode(slot)), block.json]) { json throws(WireError) in
            let bytes = try json.wireBytes("storage word")
            guard bytes.count <= 32, let word = Bytes32([UInt8](repeating: 0, count: 32 - bytes.count) + bytes) else {
                throw WireError("storage word: expected at most 32 bytes, got \(bytes.count)")
            }
            return word
        }
    }

    /// `eth_gasPrice`: the node's suggested legacy gas price.
    public static func gasPrice() -> RPCMethodCall<UInt256> {
        read("eth_gasPrice", []) { json throws(WireError) in try json.wireUInt256("gas price") }
    }

    /// `eth_maxPriorityFeePerGas`: the node's suggested EIP-1559 tip.
    public static func maxPriorityFeePerGas() -> RPCMethodCall<UInt256> {
        read("eth_maxPriorityFeePerGas", []) { json throws(WireError) in try json.wireUInt256("priority fee") }
    }

    /// `eth_feeHistory`: base fees, gas-used ratios and tip percentiles of `blockCount` blocks up to `newest`.
    public static func feeHistory(blockCount: UInt64, newest: BlockTag = .latest, rewardPercentiles: [Double] = []) -> RPCMethodCall<FeeHistory> {
        let percentiles = JSONValue.array(rewardPercentiles.map { .number(String($0)) })
        return read("eth_feeHistory", [.string(Quantity.encode(blockCount)), newest.json, percentiles]) { json throws(WireError) in
            try FeeHistory(json: json)
        }
    }

    /// `eth_estimateGas`: the gas a transaction needs (reverts come back as ``RPCError/reverted(_:)``).
    public static func estimateGas(_ call: CallRequest, at block: BlockTag? = nil) -> RPCMethodCall<UInt64> {
        read("eth_estimateGas", [call.json] + (block.map { [$0.json] } ?? [])) { json throws(WireError) in
            try json.wireUInt64("gas estimate")
        }
    }

    /// `eth_call`: runs a call without a transaction and returns its output.
    public static func call(_ call: CallRequest, at block: BlockTag = .latest) -> RPCMethodCall<[UInt8]> {
        read("eth_call", [call.json, block.json]) { json throws(WireError) in try json.wireBytes("call output") }
    }

    /// `eth_sendRawTransaction`: submits a signed transaction; the result is its hash. Not idempotent for
    /// the retry policy (see ``RPCClient/sendRawTransaction(_:)`` for the one safe re-send).
    public static func sendRawTransaction(_ raw: [UInt8]) -> RPCMethodCall<Bytes32> {
        RPCMethodCall(method: "eth_sendRawTransaction", params: [.string(Hex.encode(raw))], isIdempotent: false) { json throws(WireError) in
            try json.wireBytes32("transaction hash")
        }
    }

    /// `eth_getTransactionByHash`: a transaction, or nil when the node does not know it.
    public static func transaction(_ hash: Bytes32) -> RPCMethodCall<RPCTransaction?> {
        read("eth_getTransactionByHash", [.string(hash.hexString)]) { json throws(WireError) in
            json.isNull ? nil : try RPCTransaction(json: json)
        }
    }

    /// `eth_getTransactionReceipt`: the receipt, or nil while the transaction is not mined.
    public static func receipt(_ hash: Bytes32) -> RPCMethodCall<RPCReceipt?> {
        read("eth_getTransactionReceipt", [.string(hash.hexString)]) { json throws(WireError) in
            json.isNull ? nil : try RPCReceipt(json: json)
        }
    }

    /// `eth_getBlockByNumber`: a block, or nil when there is none at that number.
    public static func block(_ block: BlockTag, fullTransactions: Bool = false) -> RPCMethodCall<RPCBlock?> {
        read("eth_getBlockByNumber", [block.json, .bool(fullTransactions)]) { json throws(WireError) in
            json.isNull ? nil : try RPCBlock(json: json)
        }
    }

    /// `eth_getBlockByHash`: a block, or nil when the node does not know the hash.
    public static func block(hash: Bytes32, fullTransactions: Bool = false) -> RPCMethodCall<RPCBlock?> {
        read("eth_getBlockByHash", [.string(hash.hexString), .bool(fullTransactions)]) { json throws(WireError) in
            json.isNull ? nil : try RPCBlock(json: json)
        }
    }

    /// `eth_getLogs`: the logs matching a filter.
    public static func logs(_ filter: LogFilter) -> RPCMethodCall<[RPCLog]> {
        read("eth_getLogs", [filter.json]) { json throws(WireError) in
            var out: [RPCLog] = []
            for (i, item) in try json.wireArray("logs").enumerated() { out.append(try RPCLog(json: item, path: "logs[\(i)]")) }
            return out
        }
    }

    private static func read<V: Sendable>(
        _ method: String, _ params: [JSONValue], decode: @escaping @Sendable (JSONValue) throws(WireError) -> V
    ) -> RPCMethodCall<V> {
        RPCMethodCall(method: method, params: params, isIdempotent: true, decode: decode)
    }
}
