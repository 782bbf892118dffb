import EthereumPrimitives
import EthereumTransactions

/// A block of the chain: its header and hash, its transactions with their senders, its ommers (imported
/// proof-of-work blocks only), its withdrawals (from Shanghai; empty in mined blocks) and its size.
public struct Block: Sendable, Hashable {
    /// The header.
    public var header: BlockHeader
    /// keccak256 of the RLP-encoded header.
    public var hash: Bytes32
    /// The transactions, in block order.
    public var transactions: [SignedTransaction]
    /// The sender of each transaction (same order).
    public var senders: [Address]
    /// The ommer (uncle) headers.
    public var ommers: [BlockHeader]
    /// The withdrawals (nil before Shanghai).
    public var withdrawals: [Withdrawal]?
    /// The size in bytes of the RLP-encoded block (header, transactions, ommers, withdrawals), computed when asked
    /// (a mined block is not encoded whole otherwise).
    public var size: Int {
        RLP.encodedSize(Self.rlp(header: header, transactions: transactions, ommers: ommers, withdrawals: withdrawals))
    }

    /// Creates a block; the hash and size are computed. From Shanghai (a header with a withdrawals root) the
    /// withdrawals default to an empty list.
    public init(
        header: BlockHeader, transactions: [SignedTransaction], senders: [Address], ommers: [BlockHeader] = [],
        withdrawals: [Withdrawal]? = nil
    ) {
        self.header = header
        self.hash = header.hash
        self.transactions = transactions
        self.senders = senders
        self.ommers = ommers
        self.withdrawals = header.withdrawalsRoot != nil ? (withdrawals ?? []) : nil
    }

    /// The block as RLP: `[header, transactions, ommers]`, plus `withdrawals` from Shanghai.
    static func rlp(header: BlockHeader, transactions: [SignedTransaction], ommers: [BlockHeader], withdrawals: [Withdrawal]?) -> RLPItem {
        var items: [RLPItem] = [header.rlp, .list(transactions.map(\.blockBodyItem)), .list(ommers.map(\.rlp))]
        if let withdrawals { items.append(.list(withdrawals.map(\.rlp))) }
        return .list(items)
    }

    /// The block's consensus encoding (what `debug_getRawBlock` returns and `carchain chain export` writes).
    public var encoded: [UInt8] {
        RLP.encode(Self.rlp(header: header, transactions: transactions, ommers: ommers, withdrawals: withdrawals))
    }

    /// The block number.
    public var number: UInt64 { header.number }

    /// The transaction hashes, in block order.
    public var transactionHashes: [Bytes32] { transactions.map(\.hash) }
}

/// Names a block the way JSON-RPC block parameters do.
public enum BlockID: Sendable, Hashable {
    /// The head.
    case latest
    /// Block 0.
    case earliest
    /// The block being assembled; for state reads, the head state plus the pool's nonces.
    case pending
    /// On this chain, the head (there is no separate consensus layer).
    case safe
    /// On this chain, the head.
    case finalized
    /// A block by number.
    case number(UInt64)
    /// A block by hash.
    case hash(Bytes32)
}

/// A transaction the pool accepted, with its recovered sender.
public struct PendingTransaction: Sendable, Hashable {
    /// The transaction.
    public var transaction: SignedTransaction
    /// Its sender.
    public var sender: Address

    /// Creates one.
    public init(transaction: SignedTransaction, sender: Address) {
        self.transaction = transaction
        self.sender = sender
    }
}

/// Where a transaction is: its sender and, once mined, its block and index.
public struct TransactionLocation: Sendable, Hashable {
    /// The recovered sender.
    public var sender: Address
    /// The block's hash; nil while the transaction waits in the pool.
    public var blockHash: Bytes32?
    /// The block's number; nil while pending.
    public var blockNumber: UInt64?
    /// The index in the block; nil while pending.
    public var index: Int?
    /// The block's timestamp; nil while pending.
    public var blockTimestamp: UInt64?

    /// Creates a location.
    public init(
        sender: Address, blockHash: Bytes32? = nil, blockNumber: UInt64? = nil, index: Int? = nil, blockTimestamp: UInt64? = nil
    ) {
        self.blockTimestamp = blockTimestamp
        self.sender = sender
        self.blockHash = blockHash
        self.blockNumber = blockNumber
        self.index = index
    }

    /// True while the transaction is in the pool.
    public var isPending: Bool { blockHash == nil }
}
