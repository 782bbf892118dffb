import EthereumPrimitives

/// A log record as `eth_getLogs` and receipts return it.
public struct RPCLog: Sendable, Hashable {
    /// The contract that emitted it.
    public var address: Address
    /// Up to four indexed topics; the first is the event's signature hash unless the event is anonymous.
    public var topics: [Bytes32]
    /// The non-indexed data, ABI-encoded.
    public var data: [UInt8]
    /// The block holding it (nil while pending).
    public var blockNumber: UInt64?
    /// The block holding it (nil while pending).
    public var blockHash: Bytes32?
    /// The transaction's hash.
    public var transactionHash: Bytes32?
    /// Its position in the block (nil while pending).
    public var transactionIndex: UInt64?
    /// Index of the log in its block.
    public var logIndex: UInt64?
    /// True when a re-org removed the log.
    public var removed: Bool

    /// A log record from its fields (e.g. one an in-process chain returns).
    public init(
        address: Address, topics: [Bytes32], data: [UInt8], blockNumber: UInt64? = nil, blockHash: Bytes32? = nil,
        transactionHash: Bytes32? = nil, transactionIndex: UInt64? = nil, logIndex: UInt64? = nil, removed: Bool = false
    ) {
        self.address = address
        self.topics = topics
        self.data = data
        self.blockNumber = blockNumber
        self.blockHash = blockHash
        self.transactionHash = transactionHash
        self.transactionIndex = transactionIndex
        self.logIndex = logIndex
        self.removed = removed
    }

    /// Reads a log object.
    public init(json: JSONValue, path: String = "log") throws(WireError) {
        let o = try json.wireObject(path)
        address = try o.address("address")
        var topics: [Bytes32] = []
        for (i, t) in try o.required("topics").wireArray(o.name("topics")).enumerated() {
            topics.append(try t.wireBytes32(o.name("topics[\(i)]")))
        }
        self.topics = topics
        data = try o.bytes("data")
        blockNumber = try o.optionalUInt64("blockNumber")
        blockHash = try o.optionalBytes32("blockHash")
        transactionHash = try o.optionalBytes32("transactionHash")
        transactionIndex = try o.optionalUInt64("transactionIndex")
        logIndex = try o.optionalUInt64("logIndex")
        removed = o.optional("removed")?.boolValue ?? false
    }
}

/// The filter of `eth_getLogs`: a block range (or one block by hash), addresses and topic positions.
public struct LogFilter: Sendable, Hashable {
    /// First block of the range (node default: latest).
    public var fromBlock: BlockTag?
    /// Last block of the range (node default: latest).
    public var toBlock: BlockTag?
    /// One block by hash, instead of a range.
    public var blockHash: Bytes32?
    /// Emitting contracts (any of them); empty for all.
    public var addresses: [Address]
    /// Per position: nil matches anything, else any of the listed topics.
    public var topics: [[Bytes32]?]

    public init(
        fromBlock: BlockTag? = nil, toBlock: BlockTag? = nil, blockHash: Bytes32? = nil, addresses: [Address] = [],
        topics: [[Bytes32]?] = []
    ) {
        self.fromBlock = fromBlock
        self.toBlock = toBlock
        self.blockHash = blockHash
        self.addresses = addresses
        self.topics = topics
    }

    /// The filter object on the wire.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let fromBlock { members.append(("fromBlock", fromBlock.json)) }
        if let toBlock { members.append(("toBlock", toBlock.json)) }
        if let blockHash { members.append(("blockHash", .string(blockHash.hexString))) }
        if addresses.count == 1 {
            members.append(("address", .string(addresses[0].lowercasedHex)))
        } else if !addresses.isEmpty {
            members.append(("address", .array(addresses.map { .string($0.lowercasedHex) })))
        }
        if !topics.isEmpty {
            members.append(("topics", .array(topics.map { position in
                guard let position else { return .null }
                return .array(position.map { .string($0.hexString) })
            })))
        }
        return .object(members)
    }
}
