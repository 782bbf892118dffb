import EVM
import EthereumPrimitives
import EthereumTrie

/// A chain's first block and rules, read from a `genesis.json` in go-ethereum's format: `config` (chain id,
/// fork blocks and times, `terminalTotalDifficulty`, `blobSchedule`, `depositContractAddress`), `alloc` (the
/// accounts at genesis) and the header fields (`timestamp`, `extraData`, `gasLimit`, `difficulty`, `mixHash`,
/// `coinbase`, `nonce`, `baseFeePerGas`, …). Quantities may be JSON numbers, hex strings or decimal strings;
/// unknown fields are ignored; a malformed or unsupported field is a ``GenesisError`` that names it.
///
/// The genesis header follows geth's `Genesis.ToBlock`: a missing gas limit is 4,712,388, a missing difficulty
/// 131,072 before the Merge (0 when the chain is merged from genesis), and the fields of the forks active at
/// genesis get their defaults (base fee 1 gwei, the empty withdrawals root, zero blob gas, a zero beacon root,
/// the empty requests hash), so the same file gives the same genesis hash as geth.
public struct Genesis: Sendable {
    /// The chain id (`config.chainId`).
    public var chainId: UInt64
    /// When each fork activates.
    public var schedule: ForkSchedule
    /// The accounts at genesis.
    public var alloc: WorldState
    /// The genesis header fields (the state root is computed from ``alloc``).
    public var timestamp: UInt64
    public var extraData: [UInt8]
    public var gasLimit: UInt64
    public var difficulty: UInt256
    public var mixHash: Bytes32
    public var coinbase: Address
    public var nonce: UInt64
    public var parentHash: Bytes32
    public var baseFeePerGas: UInt256?
    public var excessBlobGas: UInt64?
    public var blobGasUsed: UInt64?
    /// The file as read (kept with a chain on disk, so it reopens without the file).
    public var json: [UInt8]

    /// geth's `params.GenesisGasLimit`, for a file without `gasLimit`.
    public static let defaultGasLimit: UInt64 = 4_712_388
    /// geth's `params.GenesisDifficulty`, for a pre-Merge file without `difficulty`.
    public static let defaultDifficulty = UInt256(131_072 as UInt64)
    /// The largest genesis file read (mainnet's own is 0.7 MB; large allocs exist in test networks).
    public static let maxFileSize = 256 << 20

    /// The block-numbered forks of geth's `config`, in fork order (`eip155Block` and `eip158Block` together are
    /// Spurious Dragon; geth requires both).
    static let blockForks: [(key: String, fork: Hardfork)] = [
        ("homesteadBlock", .homestead), ("eip150Block", .tangerineWhistle), ("eip158Block", .spuriousDragon),
        ("byzantiumBlock", .byzantium), ("constantinopleBlock", .constantinople), ("petersburgBlock", .petersburg),
        ("istanbulBlock", .istanbul), ("muirGlacierBlock", .muirGlacier), ("berlinBlock", .berlin),
        ("londonBlock", .london), ("arrowGlacierBlock", .arrowGlacier), ("grayGlacierBlock", .grayGlacier),
        ("mergeNetsplitBlock", .paris),
    ]
    /// The timestamped forks.
    static let timeForks: [(key: String, fork: Hardfork)] = [
        ("shanghaiTime", .shanghai), ("cancunTime", .cancun), ("pragueTime", .prague), ("osakaTime", .osaka),
        ("bpo1Time", .bpo1), ("bpo2Time", .bpo2),
    ]
    /// Forks geth knows that this chain does not implement: a file that schedules one is refused.
    static let unsupportedForks = ["bpo3Time", "bpo4Time", "bpo5Time", "amsterdamTime", "verkleTime"]

    /// Parses a genesis file's bytes.
    public init(json bytes: [UInt8]) throws(GenesisError) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw GenesisError("not valid JSON: \(error.description)") }
        guard root.objectValue != nil else { throw GenesisError("the top level is not a JSON object") }
        guard let config = root["config"], config.objectValue != nil else { throw GenesisError("config: missing or not an object") }
        let read = GenesisFields(prefix: "config.")
        guard let chainId = try read.uint64(config, "chainId") else { throw GenesisError("config.chainId: missing") }
        self.chainId = chainId
        schedule = try Self.schedule(config, read)

        let top = GenesisFields(prefix: "")
        alloc = try Self.accounts(root["alloc"] ?? .object([]), path: "alloc")
        timestamp = try top.uint64(root, "timestamp") ?? 0
        extraData = try top.bytes(root, "extraData") ?? []
        guard extraData.count <= 32 else { throw GenesisError("extraData: \(extraData.count) bytes, at most 32") }
        let limit = try top.uint64(root, "gasLimit") ?? 0
        gasLimit = limit == 0 ? Self.defaultGasLimit : limit
        let merged = schedule.fork(number: 0, timestamp: timestamp) >= .paris
        difficulty = try top.uint256(root, "difficulty") ?? (merged ? .zero : Self.defaultDifficulty)
        mixHash = try top.bytes32(root, "mixHash") ?? .zero
        coinbase = try top.address(root, "coinbase") ?? .zero
        nonce = try top.uint64(root, "nonce") ?? 0
        parentHash = try top.bytes32(root, "parentHash") ?? .zero
        baseFeePerGas = try top.uint256(root, "baseFeePerGas")
        excessBlobGas = try top.uint64(root, "excessBlobGas")
        blobGasUsed = try top.uint64(root, "blobGasUsed")
        if let number = try top.uint64(root, "number"), number != 0 { throw GenesisError("number: a genesis block is block 0") }
        json = bytes
    }

    /// The fork of the genesis block.
    public var fork: Hardfork { schedule.fork(number: 0, timestamp: timestamp) }

    /// The genesis header over `stateRoot`, with the defaults of the forks active at genesis.
    public func header(stateRoot: Bytes32, initialBaseFee: UInt256) -> BlockHeader {
        let fork = self.fork
        return BlockHeader(
            parentHash: parentHash, coinbase: coinbase, stateRoot: stateRoot, difficulty: difficulty, number: 0,
            gasLimit: gasLimit, timestamp: timestamp, extraData: extraData, mixHash: mixHash, nonce: nonce,
            baseFeePerGas: fork >= .london ? (baseFeePerGas ?? initialBaseFee) : nil,
            withdrawalsRoot: fork >= .shanghai ? MerklePatriciaTrie.emptyRoot : nil,
            blobGasUsed: fork >= .cancun ? (blobGasUsed ?? 0) : nil, excessBlobGas: fork >= .cancun ? (excessBlobGas ?? 0) : nil,
            parentBeaconBlockRoot: fork >= .cancun ? .zero : nil,
            requestsHash: fork >= .prague ? BlockHeader.emptyRequestsHash : nil)
    }

    // MARK: config

    static func schedule(_ config: JSONValue, _ read: GenesisFields) throws(GenesisError) -> ForkSchedule {
        if config["clique"].map({ !$0.isNull }) ?? false {
            throw GenesisError("config.clique: proof-of-authority (clique) chains are not supported")
        }
        if config["daoForkSupport"]?.boolValue == true, try read.uint64(config, "daoForkBlock") != nil {
            throw GenesisError("config.daoForkSupport: the DAO fork's irregular state change is not supported")
        }
        for key in unsupportedForks where config[key].map({ !$0.isNull }) ?? false {
            throw GenesisError("config.\(key): this fork is not supported (the latest supported is BPO2)")
        }
        var activations: [(fork: Hardfork, activation: ForkSchedule.Activation)] = [(.frontier, .block(0))]
        for (key, fork) in blockForks {
            if let block = try read.uint64(config, key) { activations.append((fork, .block(block))) }
        }
        // geth: Petersburg without its own block activates with Constantinople.
        if try read.uint64(config, "petersburgBlock") == nil, let block = try read.uint64(config, "constantinopleBlock") {
            activations.append((.petersburg, .block(block)))
        }
        let ttd = try read.uint256(config, "terminalTotalDifficulty")
        if try read.uint64(config, "mergeNetsplitBlock") == nil, let ttd {
            guard ttd.isZero else {
                throw GenesisError(
                    "config.terminalTotalDifficulty: a merge by total difficulty needs config.mergeNetsplitBlock (the first proof-of-stake block)")
            }
            activations.append((.paris, .block(0)))
        }
        for (key, fork) in timeForks {
            if let time = try read.uint64(config, key) { activations.append((fork, .time(time))) }
        }
        if activations.contains(where: { $0.fork >= .shanghai }), !activations.contains(where: { $0.fork == .paris }) {
            throw GenesisError("config.shanghaiTime: timestamped forks need the Merge (mergeNetsplitBlock or terminalTotalDifficulty 0)")
        }
        var blobSchedules: [Hardfork: BlobSchedule] = [:]
        for (name, entry) in config["blobSchedule"]?.objectValue ?? [] {
            guard let fork = Hardfork(name: name) else { continue }  // a future fork's entry: unused here
            let path = GenesisFields(prefix: "config.blobSchedule.\(name).")
            guard let target = try path.uint64(entry, "target"), let max = try path.uint64(entry, "max"),
                let fraction = try path.uint64(entry, "baseFeeUpdateFraction"), fraction > 0, target <= max
            else {
                throw GenesisError("config.blobSchedule.\(name): needs target ≤ max and a non-zero baseFeeUpdateFraction")
            }
            blobSchedules[fork] = BlobSchedule(target: target, max: max, baseFeeUpdateFraction: fraction)
        }
        let deposit = try read.address(config, "depositContractAddress") ?? ExecutionRequests.mainnetDepositContract
        return ForkSchedule(activations: activations, blobSchedules: blobSchedules, depositContract: deposit)
    }

    // MARK: alloc

    /// The accounts of an `alloc` object (also the shape of a state test's `pre` and geth's `--prestate`):
    /// keyed by address (with or without `0x`), each with optional `balance`, `nonce`, `code` and `storage`.
    public static func accounts(_ json: JSONValue, path: String) throws(GenesisError) -> WorldState {
        guard let members = json.objectValue else { throw GenesisError("\(path): not a JSON object") }
        var accounts: [Address: Account] = [:]
        for (key, account) in members {
            let name = "\(path).\(key)"
            guard let address = GenesisFields.address(key) else { throw GenesisError("\(name): not an address") }
            guard account.objectValue != nil else { throw GenesisError("\(name): not an object") }
            let read = GenesisFields(prefix: "\(name).")
            var storage: [UInt256: UInt256] = [:]
            if let slots = account["storage"], !slots.isNull {
                guard let entries = slots.objectValue else { throw GenesisError("\(name).storage: not an object") }
                for (slot, value) in entries {
                    guard let slotValue = GenesisFields.quantity(.string(slot)) else {
                        throw GenesisError("\(name).storage: bad slot \(slot)")
                    }
                    guard let word = GenesisFields.quantity(value) else {
                        throw GenesisError("\(name).storage.\(slot): bad value")
                    }
                    storage[slotValue] = word
                }
            }
            accounts[address] = Account(
                nonce: try read.uint64(account, "nonce") ?? 0, balance: try read.uint256(account, "balance") ?? .zero,
                code: try read.bytes(account, "code") ?? [], storage: storage)
        }
        return WorldState(accounts: accounts)
    }
}

/// A genesis file that cannot be used: what is wrong, naming the field (`config.londonBlock: …`).
public struct GenesisError: Error, Sendable, CustomStringConvertible {
    /// The one-line reason.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Readers for genesis fields: quantities as JSON numbers, hex or decimal strings; `null` counts as absent.
struct GenesisFields {
    let prefix: String

    func value(_ json: JSONValue, _ key: String) -> JSONValue? {
        guard let value = json[key], !value.isNull else { return nil }
        return value
    }

    func uint256(_ json: JSONValue, _ key: String) throws(GenesisError) -> UInt256? {
        guard let value = value(json, key) else { return nil }
        guard let number = Self.quantity(value) else { throw GenesisError("\(prefix)\(key): not a quantity (\(value))") }
        return number
    }

    func uint64(_ json: JSONValue, _ key: String) throws(GenesisError) -> UInt64? {
        guard let number = try uint256(json, key) else { return nil }
        guard let small = number.uint64 else { throw GenesisError("\(prefix)\(key): does not fit in 64 bits") }
        return small
    }

    func bytes(_ json: JSONValue, _ key: String) throws(GenesisError) -> [UInt8]? {
        guard let value = value(json, key) else { return nil }
        guard let text = value.stringValue, let bytes = try? Hex.decode(text.hasPrefix("0x") || text.hasPrefix("0X") ? text : "0x" + text)
        else { throw GenesisError("\(prefix)\(key): not hex bytes") }
        return bytes
    }

    func bytes32(_ json: JSONValue, _ key: String) throws(GenesisError) -> Bytes32? {
        guard let bytes = try bytes(json, key) else { return nil }
        guard let word = Bytes32(bytes) else { throw GenesisError("\(prefix)\(key): \(bytes.count) bytes, expected 32") }
        return word
    }

    func address(_ json: JSONValue, _ key: String) throws(GenesisError) -> Address? {
        guard let value = value(json, key) else { return nil }
        guard let text = value.stringValue, let address = Self.address(text) else {
            throw GenesisError("\(prefix)\(key): not an address")
        }
        return address
    }

    /// An address with or without `0x`, any case (geth's alloc keys are often bare hex).
    static func address(_ text: String) -> Address? {
        let hex = text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : text
        return try? Address("0x" + hex.lowercased())
    }

    /// A 256-bit quantity: a JSON number, a `0x` hex string (leading zeros allowed) or a decimal string.
    static func quantity(_ value: JSONValue) -> UInt256? {
        let text: String
        switch value {
        case .number(let n): text = n
        case .string(let s): text = s
        default: return nil
        }
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            let digits = text.dropFirst(2).drop { $0 == "0" }
            if digits.isEmpty { return text.count > 2 ? .zero : nil }
            guard digits.count <= 64 else { return nil }
            return try? UInt256(hex: "0x" + digits)
        }
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
        return try? UInt256(decimal: text)
    }
}
