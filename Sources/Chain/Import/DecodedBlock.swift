import EthereumPrimitives
import EthereumTransactions
import EthereumTrie

/// A block as it arrives from elsewhere (an RLP file, a test fixture, a peer): the header and the body
/// (transactions, ommers, and from Shanghai the withdrawals), not yet executed. ``BlockProcessor``
/// validates and applies it.
public struct DecodedBlock: Sendable {
    /// The header.
    public var header: BlockHeader
    /// The transactions, in block order (senders not yet recovered).
    public var transactions: [SignedTransaction]
    /// The ommer (uncle) headers; empty after the Merge.
    public var ommers: [BlockHeader]
    /// The withdrawals; nil when the body has no withdrawals list (before Shanghai).
    public var withdrawals: [Withdrawal]?
    /// The size of the block's RLP encoding in bytes (EIP-7934 bounds it from Osaka).
    public var encodedSize: Int
    /// keccak256 of the header's encoding.
    public var hash: Bytes32
    /// The block's stateless work done ahead of time (``withDigest(allowHighS:)``), or nil.
    public private(set) var digest: BlockDigest?

    /// Creates a block from its parts; the size is that of their encoding.
    public init(header: BlockHeader, transactions: [SignedTransaction], ommers: [BlockHeader] = [], withdrawals: [Withdrawal]?) {
        self.header = header
        self.transactions = transactions
        self.ommers = ommers
        self.withdrawals = withdrawals
        var items: [RLPItem] = [header.rlp, .list(transactions.map(\.blockBodyItem)), .list(ommers.map(\.rlp))]
        if let withdrawals { items.append(.list(withdrawals.map(\.rlp))) }
        encodedSize = RLP.encodedSize(.list(items))
        hash = header.hash
    }

    /// Decodes `RLP([header, transactions, ommers])` or `RLP([header, transactions, ommers, withdrawals])`.
    /// A malformed encoding, or a transaction that does not decode, is ``BlockValidationError/malformedBlock(_:)``.
    public init(encoded bytes: [UInt8]) throws(BlockValidationError) {
        let top: RLPItem
        do { top = try RLP.decode(bytes) } catch { throw .malformedBlock("block RLP: \(error)") }
        guard case .list(let parts) = top, parts.count == 3 || parts.count == 4 else {
            throw .malformedBlock("a block is a list of 3 or 4 items (header, transactions, ommers, withdrawals)")
        }
        let header: BlockHeader
        do { header = try BlockHeader(encoded: RLP.encode(parts[0])) } catch { throw .malformedBlock("header: \(error)") }
        guard case .list(let txItems) = parts[1] else { throw .malformedBlock("the transactions are not a list") }
        var transactions: [SignedTransaction] = []
        transactions.reserveCapacity(txItems.count)
        for (index, item) in txItems.enumerated() {
            do { transactions.append(try SignedTransaction.decode(blockBodyItem: item)) } catch {
                throw .invalidTransaction(index: index, error)
            }
        }
        guard case .list(let ommerItems) = parts[2] else { throw .malformedBlock("the ommers are not a list") }
        var ommers: [BlockHeader] = []
        for item in ommerItems {
            do { ommers.append(try BlockHeader(encoded: RLP.encode(item))) } catch { throw .malformedBlock("ommer header: \(error)") }
        }
        var withdrawals: [Withdrawal]?
        if parts.count == 4 {
            guard case .list(let items) = parts[3] else { throw .malformedBlock("the withdrawals are not a list") }
            var list: [Withdrawal] = []
            for item in items {
                do { list.append(try Withdrawal(rlp: item)) } catch { throw .malformedBlock("withdrawal: \(error)") }
            }
            withdrawals = list
        }
        self.header = header
        self.transactions = transactions
        self.ommers = ommers
        self.withdrawals = withdrawals
        encodedSize = bytes.count
        hash = header.hash
    }

    /// The root of the transactions' list trie.
    public var transactionsRoot: Bytes32 {
        digest?.transactionsRoot ?? MerklePatriciaTrie.root(ofList: transactions.map(\.encoded))
    }

    /// The root of the withdrawals' list trie (nil without a withdrawals list).
    public var withdrawalsRoot: Bytes32? {
        if let digest { return digest.withdrawalsRoot }
        return withdrawals.map { list in MerklePatriciaTrie.root(ofList: list.map { RLP.encode($0.rlp) }) }
    }

    /// keccak256 of the RLP list of the ommer headers.
    public var ommersHash: Bytes32 { digest?.ommersHash ?? Keccak256.hash(RLP.encode(.list(ommers.map(\.rlp)))) }

    /// The block with its ``BlockDigest`` computed: what can be done before its parent is executed. `allowHighS` is
    /// the fork's signature rule (true before Homestead, EIP-2).
    public func withDigest(allowHighS: Bool) -> DecodedBlock {
        var copy = self
        copy.digest = BlockDigest(
            transactionsRoot: transactionsRoot, withdrawalsRoot: withdrawalsRoot, ommersHash: ommersHash,
            senders: transactions.map { signed in Result { () throws(TransactionError) in try signed.sender(allowHighS: allowHighS) } },
            allowHighS: allowHighS)
        return copy
    }

    /// The recovered sender of transaction `index` (or why it has none), when the digest holds it for `allowHighS`.
    func recoveredSender(_ index: Int, allowHighS: Bool) -> Result<Address, TransactionError>? {
        guard let digest, digest.allowHighS == allowHighS, index < digest.senders.count else { return nil }
        return digest.senders[index]
    }
}

/// The part of a block's checks that needs neither its parent nor any state: the secp256k1 recovery of every sender
/// (most of it), the transactions and withdrawals roots and the ommers hash. An import computes it for the blocks
/// ahead on another core while the current block executes (``DevChain/importBlocks(rlp:progress:)``); the results
/// are the same the block processor would compute, so a bad signature or root is reported exactly as without it.
public struct BlockDigest: Sendable {
    var transactionsRoot: Bytes32
    var withdrawalsRoot: Bytes32?
    var ommersHash: Bytes32
    var senders: [Result<Address, TransactionError>]
    var allowHighS: Bool
}
