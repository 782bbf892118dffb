import Chain
import EVM
import EthereumPrimitives

/// One test of the `blockchain_test` fixture format (execution-spec-tests, also ethereum/tests'
/// BlockchainTests): a genesis block and pre-state, a list of blocks as RLP (those with `expectException`
/// must be rejected), and the expected post state and last block hash.
public struct BlockTest: Sendable {
    /// The test's key in the file.
    public var name: String
    /// `network`: the fork the blocks run under (e.g. "Prague").
    public var network: String
    /// `config.chainid` (1 when absent).
    public var chainID: UInt64
    /// `config.blobSchedule` by fork name (EIP-7840).
    public var blobSchedules: [String: BlobSchedule]
    /// The pre-state (the genesis alloc).
    public var pre: WorldState
    /// `genesisRLP`: the genesis block's encoding.
    public var genesisRLP: [UInt8]
    /// `genesisBlockHeader.hash`.
    public var genesisHash: Bytes32
    /// The blocks in import order.
    public var blocks: [Block]
    /// `postState` (nil when the fixture gives only its root).
    public var postState: WorldState?
    /// `postStateHash`, the post state's root (nil when the fixture gives the state).
    public var postStateHash: Bytes32?
    /// `lastblockhash`: the head after every block.
    public var lastBlockHash: Bytes32

    /// One entry of `blocks`.
    public struct Block: Sendable {
        /// `rlp`, nil when it is not hex (such a block must be rejected).
        public var rlp: [UInt8]?
        /// `expectException`: the block must be rejected with one of these `|`-separated names.
        public var expectException: String?
        /// `blockHeader.hash` of a valid block.
        public var hash: Bytes32?
    }

    /// Parses every test in a fixture file.
    public static func parseFile(_ bytes: [UInt8]) throws(StateTestFormatError) -> [BlockTest] {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw StateTestFormatError("not valid JSON: \(error.description)") }
        guard let tests = root.objectValue else { throw StateTestFormatError("the top level is not a JSON object") }
        var out: [BlockTest] = []
        for (name, json) in tests {
            do throws(StateTestFormatError) { out.append(try BlockTest(name: name, json: json)) } catch {
                throw StateTestFormatError("\(name): \(error.description)")
            }
        }
        return out
    }

    init(name: String, json: JSONValue) throws(StateTestFormatError) {
        self.name = name
        guard let network = Field.string(json, "network") else { throw StateTestFormatError("no network") }
        self.network = network
        let config = json["config"]
        chainID = try config.flatMap { (c) throws(StateTestFormatError) in try Field.uint64(c, "chainid") } ?? 1
        blobSchedules = try Field.blobSchedules(config)
        let preJSON = try Field.object(json, "pre")
        do { pre = try Prestate.accounts(from: preJSON) } catch { throw StateTestFormatError("pre: \(error.description)") }
        genesisRLP = try Field.bytes(json, "genesisRLP")
        genesisHash = try Field.bytes32(try Field.object(json, "genesisBlockHeader"), "hash")
        var blocks: [Block] = []
        for entry in json["blocks"]?.arrayValue ?? [] {
            let rlp = entry["rlp"]?.stringValue.flatMap { try? Hex.decode($0) }
            let hash = try entry["blockHeader"].flatMap { (h) throws(StateTestFormatError) in try Field.optionalBytes32(h, "hash") }
            blocks.append(Block(rlp: rlp, expectException: entry["expectException"]?.stringValue, hash: hash))
        }
        self.blocks = blocks
        if let post = json["postState"] {
            do { postState = try Prestate.accounts(from: post) } catch {
                throw StateTestFormatError("postState: \(error.description)")
            }
        } else {
            postStateHash = try Field.bytes32(json, "postStateHash")
        }
        lastBlockHash = try Field.bytes32(json, "lastblockhash")
    }
}
