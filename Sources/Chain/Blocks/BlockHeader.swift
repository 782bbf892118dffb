import EthereumPrimitives
import EthereumTrie

/// A block header with the fields of its fork: London adds the base fee (EIP-1559), Shanghai the
/// withdrawals root (EIP-4895), Cancun the blob gas fields and the parent beacon block root
/// (EIP-4844, EIP-4788), Prague the requests hash (EIP-7685). Optional fields are nil before their
/// fork; the RLP encoding stops at the last present field.
public struct BlockHeader: Sendable, Hashable {
    /// The parent block's hash.
    public var parentHash: Bytes32
    /// keccak256(RLP([])): there are no ommers.
    public var ommersHash: Bytes32
    /// The fee recipient.
    public var coinbase: Address
    /// The state root after the block.
    public var stateRoot: Bytes32
    /// The root of the list trie of the transactions.
    public var transactionsRoot: Bytes32
    /// The root of the list trie of the receipts (EIP-2718 encodings).
    public var receiptsRoot: Bytes32
    /// The union of the receipts' blooms.
    public var logsBloom: Bloom
    /// The difficulty (0 from Paris).
    public var difficulty: UInt256
    /// The block number.
    public var number: UInt64
    /// The gas limit.
    public var gasLimit: UInt64
    /// The gas used by the transactions.
    public var gasUsed: UInt64
    /// Seconds since the Unix epoch.
    public var timestamp: UInt64
    /// Free-form bytes (at most 32).
    public var extraData: [UInt8]
    /// The mix hash; PREVRANDAO from Paris (EIP-4399).
    public var mixHash: Bytes32
    /// The proof-of-work nonce (0 from Paris), encoded as 8 bytes.
    public var nonce: UInt64
    /// The base fee per gas (EIP-1559, London).
    public var baseFeePerGas: UInt256?
    /// The withdrawals root (EIP-4895, Shanghai); the empty trie's root here.
    public var withdrawalsRoot: Bytes32?
    /// Blob gas used by the block's transactions (EIP-4844, Cancun).
    public var blobGasUsed: UInt64?
    /// The excess blob gas (EIP-4844, Cancun).
    public var excessBlobGas: UInt64?
    /// The parent beacon block root (EIP-4788, Cancun); zero on this chain.
    public var parentBeaconBlockRoot: Bytes32?
    /// The hash of the execution-layer requests (EIP-7685, Prague).
    public var requestsHash: Bytes32?

    /// keccak256(RLP([])).
    public static let emptyOmmersHash = Keccak256.hash([0xc0] as [UInt8])
    /// sha256 of no requests (EIP-7685's hash of an empty request list).
    public static let emptyRequestsHash = Bytes32(
        [0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
         0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55] as [UInt8]) ?? .zero

    /// Creates a header.
    public init(
        parentHash: Bytes32, ommersHash: Bytes32 = BlockHeader.emptyOmmersHash, coinbase: Address,
        stateRoot: Bytes32, transactionsRoot: Bytes32 = MerklePatriciaTrie.emptyRoot,
        receiptsRoot: Bytes32 = MerklePatriciaTrie.emptyRoot, logsBloom: Bloom = .empty, difficulty: UInt256 = .zero,
        number: UInt64, gasLimit: UInt64, gasUsed: UInt64 = 0, timestamp: UInt64, extraData: [UInt8] = [],
        mixHash: Bytes32 = .zero, nonce: UInt64 = 0, baseFeePerGas: UInt256? = nil, withdrawalsRoot: Bytes32? = nil,
        blobGasUsed: UInt64? = nil, excessBlobGas: UInt64? = nil, parentBeaconBlockRoot: Bytes32? = nil,
        requestsHash: Bytes32? = nil
    ) {
        self.parentHash = parentHash
        self.ommersHash = ommersHash
        self.coinbase = coinbase
        self.stateRoot = stateRoot
        self.transactionsRoot = transactionsRoot
        self.receiptsRoot = receiptsRoot
        self.logsBloom = logsBloom
        self.difficulty = difficulty
        self.number = number
        self.gasLimit = gasLimit
        self.gasUsed = gasUsed
        self.timestamp = timestamp
        self.extraData = extraData
        self.mixHash = mixHash
        self.nonce = nonce
        self.baseFeePerGas = baseFeePerGas
        self.withdrawalsRoot = withdrawalsRoot
        self.blobGasUsed = blobGasUsed
        self.excessBlobGas = excessBlobGas
        self.parentBeaconBlockRoot = parentBeaconBlockRoot
        self.requestsHash = requestsHash
    }

    /// The header as an RLP list, in consensus order.
    public var rlp: RLPItem {
        var fields: [RLPItem] = []
        fields.reserveCapacity(21)
        forEachField { fields.append(.bytes(Array($0))) }
        return .list(fields)
    }

    /// The RLP encoding, written in one allocation (no ``rlp`` item tree first: a block's hash is taken from it).
    public var encoded: [UInt8] { RLP.encodeList(forEachField) }

    /// Passes each field's bytes to `add`, in consensus order: the one place that order is written.
    private func forEachField(_ add: (UnsafeRawBufferPointer) -> Void) {
        parentHash.withUnsafeBytes(add)
        ommersHash.withUnsafeBytes(add)
        coinbase.withUnsafeBytes(add)
        stateRoot.withUnsafeBytes(add)
        transactionsRoot.withUnsafeBytes(add)
        receiptsRoot.withUnsafeBytes(add)
        logsBloom.bytes.withUnsafeBytes(add)
        difficulty.withMinimalBigEndianBytes(add)
        number.withMinimalBigEndianBytes(add)
        gasLimit.withMinimalBigEndianBytes(add)
        gasUsed.withMinimalBigEndianBytes(add)
        timestamp.withMinimalBigEndianBytes(add)
        extraData.withUnsafeBytes(add)
        mixHash.withUnsafeBytes(add)
        withUnsafeBytes(of: nonce.bigEndian, add)  // always 8 bytes
        // Later fields only follow earlier ones (a header never skips a fork's field).
        guard let baseFeePerGas else { return }
        baseFeePerGas.withMinimalBigEndianBytes(add)
        guard let withdrawalsRoot else { return }
        withdrawalsRoot.withUnsafeBytes(add)
        guard let blobGasUsed, let excessBlobGas, let parentBeaconBlockRoot else { return }
        blobGasUsed.withMinimalBigEndianBytes(add)
        excessBlobGas.withMinimalBigEndianBytes(add)
        parentBeaconBlockRoot.withUnsafeBytes(add)
        if let requestsHash { requestsHash.withUnsafeBytes(add) }
    }

    /// The block hash: keccak256 of the RLP encoding.
    public var hash: Bytes32 { Keccak256.hash(encoded) }

    /// Decodes a header from its RLP encoding (15 to 21 fields).
    public init(encoded: [UInt8]) throws(RLPError) {
        guard case .list(let f) = try RLP.decode(encoded) else { throw RLPError(.expectedList) }
        guard f.count >= 15, f.count <= 21, f.count != 18, f.count != 19 else {
            throw RLPError(.wrongFieldCount(expected: 15, actual: f.count))
        }
        func b32(_ i: Int) throws(RLPError) -> Bytes32 { try Bytes32(rlp: f[i]) }
        func u256(_ i: Int) throws(RLPError) -> UInt256 {
            UInt256(truncatingBigEndian: try f[i].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
        }
        let bloomBytes = try f[6].byteString()
        guard let bloom = Bloom(bytes: bloomBytes) else {
            throw RLPError(.wrongByteCount(expected: 256, actual: bloomBytes.count))
        }
        let nonceBytes = try f[14].byteString()
        guard nonceBytes.count == 8 else { throw RLPError(.wrongByteCount(expected: 8, actual: nonceBytes.count)) }
        var nonce: UInt64 = 0
        for byte in nonceBytes { nonce = nonce << 8 | UInt64(byte) }
        self.init(
            parentHash: try b32(0), ommersHash: try b32(1), coinbase: try Address(rlp: f[2]), stateRoot: try b32(3),
            transactionsRoot: try b32(4), receiptsRoot: try b32(5), logsBloom: bloom, difficulty: try u256(7),
            number: try UInt64(rlp: f[8]), gasLimit: try UInt64(rlp: f[9]), gasUsed: try UInt64(rlp: f[10]),
            timestamp: try UInt64(rlp: f[11]), extraData: try f[12].byteString(), mixHash: try b32(13), nonce: nonce)
        if f.count > 15 { baseFeePerGas = try u256(15) }
        if f.count > 16 { withdrawalsRoot = try b32(16) }
        if f.count > 17 {
            blobGasUsed = try UInt64(rlp: f[17])
            excessBlobGas = try UInt64(rlp: f[18])
            parentBeaconBlockRoot = try b32(19)
        }
        if f.count > 20 { requestsHash = try b32(20) }
    }
}
