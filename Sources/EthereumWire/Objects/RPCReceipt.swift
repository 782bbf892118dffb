import EthereumPrimitives

/// A transaction receipt (`eth_getTransactionReceipt`).
public struct RPCReceipt: Sendable, Hashable {
    /// The transaction's hash.
    public var transactionHash: Bytes32
    /// Its position in the block (nil while pending).
    public var transactionIndex: UInt64
    /// The block holding it (nil while pending).
    public var blockHash: Bytes32
    /// The number of the block holding it (nil while pending).
    public var blockNumber: UInt64
    /// The sender.
    public var from: Address
    /// Nil for a contract creation.
    public var to: Address?
    /// The created contract, for a creation.
    public var contractAddress: Address?
    /// Gas used in the block up to and including this transaction.
    public var cumulativeGasUsed: UInt64
    /// Gas used.
    public var gasUsed: UInt64
    /// The price per gas actually paid (base fee + tip for EIP-1559). Nodes before London may omit it.
    public var effectiveGasPrice: UInt256?
    /// EIP-658 status: true on success, false when the execution reverted or failed. Nil for pre-Byzantium
    /// receipts, which carry a state root instead.
    public var status: Bool?
    /// EIP-2718 transaction type.
    public var type: UInt64
    public var logs: [RPCLog]
    /// The 256-byte bloom filter of the logs.
    public var logsBloom: [UInt8]

    /// True when the transaction succeeded (status 1).
    public var succeeded: Bool { status ?? true }

    /// The fee paid: gas used × effective gas price (nil when the node did not report the price). Reading the
    /// receipt refuses a price whose fee would not fit in 256 bits, so this cannot wrap.
    public var feePaid: UInt256? {
        effectiveGasPrice.map { $0 &* UInt256(gasUsed) }
    }

    /// Reads a receipt object.
    public init(json: JSONValue, path: String = "receipt") throws(WireError) {
        let o = try json.wireObject(path)
        transactionHash = try o.bytes32("transactionHash")
        transactionIndex = try o.uint64("transactionIndex")
        blockHash = try o.bytes32("blockHash")
        blockNumber = try o.uint64("blockNumber")
        from = try o.address("from")
        to = try o.optionalAddress("to")
        contractAddress = try o.optionalAddress("contractAddress")
        cumulativeGasUsed = try o.uint64("cumulativeGasUsed")
        gasUsed = try o.uint64("gasUsed")
        effectiveGasPrice = try o.optionalUInt256("effectiveGasPrice")
        if let price = effectiveGasPrice, price.multipliedReportingOverflow(by: UInt256(gasUsed)).overflow {
            throw WireError("\(o.name("effectiveGasPrice")): \(price) × gasUsed \(gasUsed) is a fee past 2^256 wei")
        }
        if let status = try o.optionalUInt64("status") {
            guard status <= 1 else { throw WireError("\(o.name("status")): expected 0x0 or 0x1, got \(status)") }
            self.status = status == 1
        } else {
            self.status = nil
        }
        type = try o.optionalUInt64("type") ?? 0
        var logs: [RPCLog] = []
        if let array = o.optional("logs") {
            for (i, entry) in try array.wireArray(o.name("logs")).enumerated() {
                logs.append(try RPCLog(json: entry, path: o.name("logs[\(i)]")))
            }
        }
        self.logs = logs
        logsBloom = try o.optionalBytes("logsBloom") ?? []
    }
}
