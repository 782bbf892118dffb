import EthereumPrimitives

/// A block header and its transactions (`eth_getBlockByNumber` / `eth_getBlockByHash`).
public struct RPCBlock: Sendable, Hashable {
    /// The block's transactions: hashes only, or full objects when asked for.
    public enum Transactions: Sendable, Hashable {
        case hashes([Bytes32])
        case full([RPCTransaction])

        /// The transaction hashes, in either form.
        public var hashes: [Bytes32] {
            switch self {
            case .hashes(let h): return h
            case .full(let t): return t.map(\.hash)
            }
        }
    }

    /// The block number.
    public var number: UInt64
    /// The transaction's (or block's) hash.
    public var hash: Bytes32
    /// The parent block's hash.
    public var parentHash: Bytes32
    /// Seconds since the Unix epoch.
    public var timestamp: UInt64
    /// The block gas limit.
    public var gasLimit: UInt64
    /// Gas used.
    public var gasUsed: UInt64
    /// EIP-1559 base fee; nil before London (and on chains without it).
    public var baseFeePerGas: UInt256?
    /// The fee recipient (coinbase).
    public var miner: Address
    /// The state trie root after the block.
    public var stateRoot: Bytes32
    /// The transactions trie root.
    public var transactionsRoot: Bytes32
    /// The receipts trie root.
    public var receiptsRoot: Bytes32
    /// The 256-byte bloom filter of the logs.
    public var logsBloom: [UInt8]
    /// The header's extra data.
    public var extraData: [UInt8]
    public var transactions: Transactions

    /// Reads a block object.
    public init(json: JSONValue, path: String = "block") throws(WireError) {
        let o = try json.wireObject(path)
        number = try o.uint64("number")
        hash = try o.bytes32("hash")
        parentHash = try o.bytes32("parentHash")
        timestamp = try o.uint64("timestamp")
        gasLimit = try o.uint64("gasLimit")
        gasUsed = try o.uint64("gasUsed")
        baseFeePerGas = try o.optionalUInt256("baseFeePerGas")
        miner = try o.optionalAddress("miner") ?? .zero
        stateRoot = try o.bytes32("stateRoot")
        transactionsRoot = try o.bytes32("transactionsRoot")
        receiptsRoot = try o.bytes32("receiptsRoot")
        logsBloom = try o.optionalBytes("logsBloom") ?? []
        extraData = try o.optionalBytes("extraData") ?? []
        let items = try o.optional("transactions")?.wireArray(o.name("transactions")) ?? []
        if items.allSatisfy({ $0.stringValue != nil }) {
            var hashes: [Bytes32] = []
            for (i, item) in items.enumerated() { hashes.append(try item.wireBytes32(o.name("transactions[\(i)]"))) }
            transactions = .hashes(hashes)
        } else {
            var full: [RPCTransaction] = []
            for (i, item) in items.enumerated() { full.append(try RPCTransaction(json: item, path: o.name("transactions[\(i)]"))) }
            transactions = .full(full)
        }
    }
}
