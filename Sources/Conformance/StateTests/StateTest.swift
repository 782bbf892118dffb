import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions

/// One test of the GeneralStateTests format (ethereum/tests): a pre-state, an environment, a
/// transaction with several data/gas/value choices, and per fork the expected post-state root and
/// logs hash for each chosen combination.
public struct StateTest: Sendable {
    /// The test's name (its key in the file).
    public var name: String
    /// The block environment.
    public var environment: Environment
    /// The accounts before the transaction.
    public var pre: WorldState
    /// The transaction template.
    public var transaction: TransactionTemplate
    /// Expected results by fork name, in file order.
    public var post: [(fork: String, entries: [PostEntry])]
    /// The chain id of `config.chainid` (EEST fixtures), nil when absent (then 1).
    public var chainID: UInt64?
    /// `config.blobSchedule` (EIP-7840) by fork name, where the fixture gives one.
    public var blobSchedules: [String: BlobSchedule]

    /// The `env` section.
    public struct Environment: Sendable {
        public var coinbase: Address
        public var difficulty: UInt256
        public var gasLimit: UInt64
        public var number: UInt64
        public var timestamp: UInt64
        public var baseFee: UInt256?
        public var random: Bytes32?
        public var excessBlobGas: UInt64?
    }

    /// The `transaction` section: `data`, `gasLimit` and `value` are lists indexed by a post entry.
    /// Values that do not fit their type (the files write them as `0x:bigint …`) are nil, which
    /// makes the transaction malformed.
    public struct TransactionTemplate: Sendable {
        public var data: [[UInt8]]
        public var gasLimit: [UInt64?]
        public var value: [UInt256?]
        public var gasPrice: UInt256?
        public var maxFeePerGas: UInt256?
        public var maxPriorityFeePerGas: UInt256?
        public var nonce: UInt64?
        public var secretKey: [UInt8]
        public var sender: Address?
        /// nil for a contract creation.
        public var to: Address?
        /// One access list per data index, when the transaction has access lists.
        public var accessLists: [[AccessListEntry]?]?
        public var blobVersionedHashes: [Bytes32]?
        public var maxFeePerBlobGas: UInt256?
        /// The EIP-7702 authorizations of a set-code transaction (nil: not a set-code transaction).
        public var authorizationList: [AuthorizationTemplate]?
    }

    /// One entry of `authorizationList`, as the file writes it: a field that does not fit its wire type
    /// (nil here) makes the transaction malformed.
    public struct AuthorizationTemplate: Sendable {
        public var chainId: UInt256?
        public var address: Address
        public var nonce: UInt64?
        public var yParity: UInt8?
        public var r: UInt256?
        public var s: UInt256?
    }

    /// One expected result.
    public struct PostEntry: Sendable {
        /// The expected state root.
        public var hash: Bytes32
        /// keccak256 of the RLP list of logs.
        public var logs: Bytes32
        /// Indexes into the transaction's data, gasLimit and value lists.
        public var dataIndex: Int
        public var gasIndex: Int
        public var valueIndex: Int
        /// The signed transaction the filler produced.
        public var txbytes: [UInt8]?
        /// When set, the transaction is invalid; alternatives are separated by `|`.
        public var expectException: String?
    }
}

/// A malformed state-test file.
public struct StateTestFormatError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and where.
    public let description: String
    init(_ description: String) { self.description = description }
}

extension StateTest {
    /// Parses every test in one file's JSON text.
    public static func parseFile(_ bytes: [UInt8]) throws(StateTestFormatError) -> [StateTest] {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw StateTestFormatError("not JSON: \(error)") }
        guard let members = root.objectValue else { throw StateTestFormatError("top level is not an object") }
        var tests: [StateTest] = []
        for (name, value) in members {
            do { tests.append(try StateTest(name: name, json: value)) } catch {
                throw StateTestFormatError("test \(name): \(error.description)")
            }
        }
        return tests
    }

    /// Parses one test object.
    public init(name: String, json: JSONValue) throws(StateTestFormatError) {
        self.name = name
        let env = try Field.object(json, "env")
        environment = Environment(
            coinbase: try Field.address(env, "currentCoinbase"),
            difficulty: try Field.uint256(env, "currentDifficulty") ?? .zero,
            gasLimit: try Field.uint64(env, "currentGasLimit") ?? 0,
            number: try Field.uint64(env, "currentNumber") ?? 0,
            timestamp: try Field.uint64(env, "currentTimestamp") ?? 0,
            baseFee: try Field.uint256(env, "currentBaseFee"),
            random: try Field.optionalBytes32(env, "currentRandom"),
            excessBlobGas: try Field.uint64(env, "currentExcessBlobGas"))

        guard let preJSON = json["pre"], preJSON.objectValue != nil else { throw StateTestFormatError("missing pre") }
        do { pre = try Prestate.accounts(from: preJSON) } catch { throw StateTestFormatError("pre: \(error.description)") }

        let tx = try Field.object(json, "transaction")
        let toText = tx["to"]?.stringValue ?? ""
        var accessLists: [[AccessListEntry]?]?
        if let lists = tx["accessLists"]?.arrayValue {
            accessLists = try lists.map { (list) throws(StateTestFormatError) -> [AccessListEntry]? in
                guard let entries = list.arrayValue else { return nil }
                return try entries.map { (entry) throws(StateTestFormatError) -> AccessListEntry in
                    AccessListEntry(
                        address: try Field.address(entry, "address"),
                        storageKeys: try (entry["storageKeys"]?.arrayValue ?? []).map {
                            (key) throws(StateTestFormatError) -> Bytes32 in
                            try Field.parseBytes32(key.stringValue ?? "", "storage key")
                        })
                }
            }
        }
        var blobHashes: [Bytes32]?
        if let hashes = tx["blobVersionedHashes"]?.arrayValue {
            blobHashes = try hashes.map { (h) throws(StateTestFormatError) -> Bytes32 in
                try Field.parseBytes32(h.stringValue ?? "", "blob versioned hash")
            }
        }
        var authorizations: [AuthorizationTemplate]?
        if let list = tx["authorizationList"]?.arrayValue {
            authorizations = try list.map { (item) throws(StateTestFormatError) -> AuthorizationTemplate in
                let parity = Field.lenientUInt256((item["yParity"] ?? item["v"])?.stringValue)
                return AuthorizationTemplate(
                    chainId: Field.lenientUInt256(item["chainId"]?.stringValue),
                    address: try Field.address(item, "address"),
                    nonce: Field.lenientUInt64(item["nonce"]?.stringValue),
                    yParity: parity.flatMap { $0.uint64 }.flatMap { UInt8(exactly: $0) },
                    r: Field.lenientUInt256(item["r"]?.stringValue),
                    s: Field.lenientUInt256(item["s"]?.stringValue))
            }
        }
        transaction = TransactionTemplate(
            data: try (tx["data"]?.arrayValue ?? []).map { (d) throws(StateTestFormatError) -> [UInt8] in
                try Field.parseBytes(d.stringValue ?? "", "data")
            },
            gasLimit: (tx["gasLimit"]?.arrayValue ?? []).map { Field.lenientUInt64($0.stringValue) },
            value: (tx["value"]?.arrayValue ?? []).map { Field.lenientUInt256($0.stringValue) },
            gasPrice: try Field.uint256(tx, "gasPrice"),
            maxFeePerGas: try Field.uint256(tx, "maxFeePerGas"),
            maxPriorityFeePerGas: try Field.uint256(tx, "maxPriorityFeePerGas"),
            nonce: Field.lenientUInt64(tx["nonce"]?.stringValue),
            secretKey: try Field.bytes(tx, "secretKey"),
            sender: tx["sender"]?.stringValue.flatMap { try? Address($0) },
            to: toText.isEmpty ? nil : try Field.parseAddress(toText, "to"),
            accessLists: accessLists,
            blobVersionedHashes: blobHashes,
            maxFeePerBlobGas: try Field.uint256(tx, "maxFeePerBlobGas"),
            authorizationList: authorizations)

        let config = json["config"]
        chainID = try config.flatMap { (c) throws(StateTestFormatError) in try Field.uint64(c, "chainid") }
        blobSchedules = try Field.blobSchedules(config)

        var post: [(fork: String, entries: [PostEntry])] = []
        for (fork, list) in json["post"]?.objectValue ?? [] {
            var entries: [PostEntry] = []
            for entry in list.arrayValue ?? [] {
                let indexes = try Field.object(entry, "indexes")
                entries.append(
                    PostEntry(
                        hash: try Field.bytes32(entry, "hash"),
                        logs: try Field.bytes32(entry, "logs"),
                        dataIndex: try Field.int(indexes, "data"),
                        gasIndex: try Field.int(indexes, "gas"),
                        valueIndex: try Field.int(indexes, "value"),
                        txbytes: entry["txbytes"]?.stringValue.flatMap { try? Hex.decode($0) },
                        expectException: entry["expectException"]?.stringValue))
            }
            post.append((fork, entries))
        }
        self.post = post
    }
}

/// Field readers for the state-test JSON, with errors that name the field.
enum Field {
    /// `config.blobSchedule` (EIP-7840) of an EEST fixture, by fork name: target, max and update fraction each.
    static func blobSchedules(_ config: JSONValue?) throws(StateTestFormatError) -> [String: BlobSchedule] {
        var schedules: [String: BlobSchedule] = [:]
        for (fork, entry) in config?["blobSchedule"]?.objectValue ?? [] {
            guard let target = try Field.uint64(entry, "target"), let max = try Field.uint64(entry, "max"),
                let fraction = try Field.uint64(entry, "baseFeeUpdateFraction"), fraction > 0
            else { throw StateTestFormatError("config.blobSchedule.\(fork) needs target, max and baseFeeUpdateFraction") }
            schedules[fork] = BlobSchedule(target: target, max: max, baseFeeUpdateFraction: fraction)
        }
        return schedules
    }

    static func object(_ json: JSONValue, _ key: String) throws(StateTestFormatError) -> JSONValue {
        guard let value = json[key], value.objectValue != nil else { throw StateTestFormatError("missing object \(key)") }
        return value
    }

    static func string(_ json: JSONValue, _ key: String) -> String? { json[key]?.stringValue }

    static func uint256(_ json: JSONValue, _ key: String) throws(StateTestFormatError) -> UInt256? {
        guard let text = string(json, key) else { return nil }
        return try parseUInt256(text, key)
    }

    static func uint64(_ json: JSONValue, _ key: String) throws(StateTestFormatError) -> UInt64? {
        guard let value = try uint256(json, key) else { return nil }
        guard let small = value.uint64 else { throw StateTestFormatError("\(key) does not fit in 64 bits") }
        return small
    }

    static func int(_ json: JSONValue, _ key: String) throws(StateTestFormatError) -> Int {
        guard case .number(let text)? = json[key], let n = Int(text) else {
            throw StateTestFormatError("missing integer \(key)")
        }
        return n
    }

    static func address(_ json: JSONValue, _ key: String) throws(StateTestFormatError) -> Address {
        try parseAddress(string(json, key) ?? "", key)
    }

    static func bytes(_ json: JSONValue, _ key: String) throws(StateTestFormatError) -> [UInt8] {
        try parseBytes(string(json, key) ?? "", key)
    }

    static func bytes32(_ json: JSONValue, _ key: String) throws(StateTestFormatError) -> Bytes32 {
        try parseBytes32(string(json, key) ?? "", key)
    }

    static func optionalBytes32(_ json: JSONValue, _ key: String) throws(StateTestFormatError) -> Bytes32? {
        guard let text = string(json, key) else { return nil }
        return try parseUInt256(text, key).bytes32
    }

    static func parseUInt256(_ text: String, _ what: String) throws(StateTestFormatError) -> UInt256 {
        guard let value = lenientUInt256(text) else { throw StateTestFormatError("bad number for \(what): \(text)") }
        return value
    }

    /// A quantity as the files write it ("0x…" hex, possibly with leading zeros, or decimal); nil
    /// when it is malformed or does not fit in 256 bits (e.g. "0x:bigint 0x1000…").
    static func lenientUInt256(_ text: String?) -> UInt256? {
        guard let text else { return nil }
        if Hex.hasPrefix(text) {
            let digits = Hex.stripPrefix(text).drop { $0 == "0" }
            if digits.isEmpty { return .zero }
            guard digits.count <= 64 else { return nil }
            return try? UInt256(hex: "0x" + digits)
        }
        return try? UInt256(decimal: text)
    }

    static func lenientUInt64(_ text: String?) -> UInt64? { lenientUInt256(text)?.uint64 }

    static func parseAddress(_ text: String, _ what: String) throws(StateTestFormatError) -> Address {
        do { return try Address(text.lowercased()) } catch { throw StateTestFormatError("bad address for \(what): \(text)") }
    }

    static func parseBytes(_ text: String, _ what: String) throws(StateTestFormatError) -> [UInt8] {
        do { return try Hex.decode(text) } catch { throw StateTestFormatError("bad hex for \(what): \(error)") }
    }

    static func parseBytes32(_ text: String, _ what: String) throws(StateTestFormatError) -> Bytes32 {
        guard let value = Bytes32(try parseBytes(text, what)) else { throw StateTestFormatError("\(what) is not 32 bytes") }
        return value
    }
}
