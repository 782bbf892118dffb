import EVM
import EthereumPrimitives
import EthereumTransactions

/// A log as JSON-RPC returns it: the EVM log with its position in the chain.
public struct LogEntry: Sendable, Hashable {
    /// The emitting contract.
    public var address: Address
    /// Zero to four topics.
    public var topics: [Bytes32]
    /// The data.
    public var data: [UInt8]
    /// The block number.
    public var blockNumber: UInt64
    /// The block hash.
    public var blockHash: Bytes32
    /// The transaction's hash.
    public var transactionHash: Bytes32
    /// The transaction's index in the block.
    public var transactionIndex: Int
    /// The log's index in the block.
    public var logIndex: Int
    /// Always false on this chain (no reorganisations); kept for the JSON shape.
    public var removed: Bool = false
    /// The block's timestamp (geth's `blockTimestamp`).
    public var blockTimestamp: UInt64

    /// Creates a log entry.
    public init(
        address: Address, topics: [Bytes32], data: [UInt8], blockNumber: UInt64, blockHash: Bytes32,
        transactionHash: Bytes32, transactionIndex: Int, logIndex: Int, blockTimestamp: UInt64 = 0
    ) {
        self.blockTimestamp = blockTimestamp
        self.address = address
        self.topics = topics
        self.data = data
        self.blockNumber = blockNumber
        self.blockHash = blockHash
        self.transactionHash = transactionHash
        self.transactionIndex = transactionIndex
        self.logIndex = logIndex
    }

    /// The EVM log (address, topics, data).
    public var log: Log { Log(address: address, topics: topics, data: data) }
}

/// A transaction receipt with everything `eth_getTransactionReceipt` reports.
public struct Receipt: Sendable, Hashable {
    /// The transaction type.
    public var type: TransactionType
    /// True when the transaction succeeded (status 1). Before Byzantium see ``root``.
    public var status: Bool
    /// Pre-Byzantium receipts carry the intermediate state root instead of a status.
    public var root: Bytes32?
    /// Gas used by this and the earlier transactions of the block.
    public var cumulativeGasUsed: UInt64
    /// Gas used by this transaction.
    public var gasUsed: UInt64
    /// The price per gas paid.
    public var effectiveGasPrice: UInt256
    /// The logs.
    public var logs: [LogEntry]
    /// The bloom of the logs.
    public var logsBloom: Bloom
    /// The created contract, for a creation (also when it failed, as geth reports it).
    public var contractAddress: Address?
    /// The sender.
    public var from: Address
    /// The recipient (nil for a creation).
    public var to: Address?
    /// The transaction's hash.
    public var transactionHash: Bytes32
    /// The transaction's index in the block.
    public var transactionIndex: Int
    /// The block's hash.
    public var blockHash: Bytes32
    /// The block's number.
    public var blockNumber: UInt64
    /// Blob gas used (type 3 only).
    public var blobGasUsed: UInt64?
    /// The blob base fee paid (type 3 only).
    public var blobGasPrice: UInt256?

    /// Creates a receipt.
    public init(
        type: TransactionType, status: Bool, root: Bytes32? = nil, cumulativeGasUsed: UInt64, gasUsed: UInt64,
        effectiveGasPrice: UInt256, logs: [LogEntry], logsBloom: Bloom, contractAddress: Address?, from: Address,
        to: Address?, transactionHash: Bytes32, transactionIndex: Int, blockHash: Bytes32, blockNumber: UInt64,
        blobGasUsed: UInt64? = nil, blobGasPrice: UInt256? = nil
    ) {
        self.type = type
        self.status = status
        self.root = root
        self.cumulativeGasUsed = cumulativeGasUsed
        self.gasUsed = gasUsed
        self.effectiveGasPrice = effectiveGasPrice
        self.logs = logs
        self.logsBloom = logsBloom
        self.contractAddress = contractAddress
        self.from = from
        self.to = to
        self.transactionHash = transactionHash
        self.transactionIndex = transactionIndex
        self.blockHash = blockHash
        self.blockNumber = blockNumber
        self.blobGasUsed = blobGasUsed
        self.blobGasPrice = blobGasPrice
    }

    /// The consensus encoding (EIP-2718): `RLP([status or root, cumulativeGasUsed, bloom, logs])`,
    /// prefixed with the type byte for typed transactions. The receipts root is built from these.
    public var consensusEncoding: [UInt8] {
        Self.consensusEncoding(
            type: type, status: status, root: root, cumulativeGasUsed: cumulativeGasUsed, bloom: logsBloom,
            logs: logs.map(\.log))
    }

    /// The consensus encoding of a receipt from its parts.
    public static func consensusEncoding(
        type: TransactionType, status: Bool, root: Bytes32?, cumulativeGasUsed: UInt64, bloom: Bloom, logs: [Log]
    ) -> [UInt8] {
        // Written straight into one buffer of the final size (every block's receipts root encodes each receipt):
        // sizes first, then the headers and strings, with no item tree. A log is [address, [topics], data].
        func logPayload(_ log: Log) -> (log: Int, topics: Int) {
            let topics = 33 * log.topics.count
            return (21 + RLP.headerSize(payload: topics) + topics + RLP.stringSize(log.data), topics)
        }
        var logsPayload = 0
        for log in logs {
            let payload = logPayload(log).log
            logsPayload += RLP.headerSize(payload: payload) + payload
        }
        let first = root == nil ? 1 : 33  // status 0x01 or 0x80; a root is 32 bytes
        let gas = cumulativeGasUsed.withMinimalBigEndianBytes(RLP.stringSize)
        let payload = first + gas + 3 + 256 + RLP.headerSize(payload: logsPayload) + logsPayload
        var out: [UInt8] = []
        out.reserveCapacity((type == .legacy ? 0 : 1) + RLP.headerSize(payload: payload) + payload)
        if type != .legacy { out.append(type.rawValue) }
        RLP.appendHeader(payload: payload, list: true, to: &out)
        if let root { root.withUnsafeBytes { RLP.appendString($0, to: &out) } } else { out.append(status ? 0x01 : 0x80) }
        cumulativeGasUsed.withMinimalBigEndianBytes { RLP.appendString($0, to: &out) }
        RLP.appendString(bloom.bytes, to: &out)
        RLP.appendHeader(payload: logsPayload, list: true, to: &out)
        for log in logs {
            let (payload, topics) = logPayload(log)
            RLP.appendHeader(payload: payload, list: true, to: &out)
            log.address.withUnsafeBytes { RLP.appendString($0, to: &out) }
            RLP.appendHeader(payload: topics, list: true, to: &out)
            for topic in log.topics { topic.withUnsafeBytes { RLP.appendString($0, to: &out) } }
            RLP.appendString(log.data, to: &out)
        }
        return out
    }
}
