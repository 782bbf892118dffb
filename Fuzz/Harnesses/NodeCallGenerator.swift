import Chain
import DevNode
import EthereumPrimitives

/// Builds JSON-RPC request bodies for the node harness from a ``FuzzInput``.
struct NodeCallGenerator {
    /// What one round sent: the body, and per request object the id it carried (nil: a notification).
    struct Round {
        var body: JSONValue
        var requests: [JSONRPCResponseCheck.Sent]
        var isBatch: Bool
    }

    /// The kinds of parameter a method takes, so that most calls get past decoding.
    enum Kind {
        case address, block, quantity, word, data, hash, transaction, filter, bool, filterID, mineOptions, percentiles
        case traceConfig
    }

    var input: FuzzInput
    let avoidKnownCrashes: Bool
    /// Strings seen in answers (transaction and block hashes, filter and snapshot ids), reused as parameters.
    private var seen: [String] = []
    private var nextID = 1

    init(input: FuzzInput, avoidKnownCrashes: Bool) {
        self.input = input
        self.avoidKnownCrashes = avoidKnownCrashes
    }

    static let signatures: [String: [Kind]] = [
        "web3_sha3": [.data], "eth_getBalance": [.address, .block], "eth_getTransactionCount": [.address, .block],
        "eth_getCode": [.address, .block], "eth_getStorageAt": [.address, .word, .block],
        "eth_feeHistory": [.quantity, .block, .percentiles], "eth_call": [.transaction, .block],
        "eth_estimateGas": [.transaction, .block], "eth_createAccessList": [.transaction, .block],
        "eth_getBlockByNumber": [.block, .bool], "eth_getBlockByHash": [.hash, .bool],
        "eth_getBlockTransactionCountByNumber": [.block], "eth_getBlockTransactionCountByHash": [.hash],
        "eth_getTransactionByBlockNumberAndIndex": [.block, .quantity],
        "eth_getTransactionByBlockHashAndIndex": [.hash, .quantity], "eth_getTransactionByHash": [.hash],
        "eth_getTransactionReceipt": [.hash], "eth_getLogs": [.filter], "eth_sendRawTransaction": [.data],
        "eth_sendTransaction": [.transaction], "eth_sign": [.address, .data], "personal_sign": [.data, .address],
        "eth_newFilter": [.filter], "eth_getFilterChanges": [.filterID], "eth_getFilterLogs": [.filterID],
        "eth_uninstallFilter": [.filterID], "debug_traceTransaction": [.hash], "evm_revert": [.quantity],
        "anvil_revert": [.quantity], "evm_mine": [.mineOptions], "anvil_mine": [.quantity, .quantity],
        "hardhat_mine": [.quantity, .quantity], "evm_increaseTime": [.quantity], "anvil_increaseTime": [.quantity],
        "evm_setNextBlockTimestamp": [.quantity], "anvil_setNextBlockTimestamp": [.quantity],
        "evm_setAutomine": [.bool], "anvil_setAutomine": [.bool], "evm_setIntervalMining": [.quantity],
        "anvil_setIntervalMining": [.quantity], "anvil_setBalance": [.address, .quantity],
        "hardhat_setBalance": [.address, .quantity], "anvil_setCode": [.address, .data],
        "hardhat_setCode": [.address, .data], "anvil_setNonce": [.address, .quantity],
        "hardhat_setNonce": [.address, .quantity], "anvil_setStorageAt": [.address, .word, .word],
        "hardhat_setStorageAt": [.address, .word, .word],
        "debug_traceCall": [.transaction, .block, .traceConfig], "debug_traceBlockByNumber": [.block, .traceConfig],
        "debug_traceBlockByHash": [.hash, .traceConfig],
        // anvil's daily names (issue 31)
        "anvil_setChainId": [.quantity], "anvil_setTime": [.quantity], "evm_setTime": [.quantity],
        "anvil_addBalance": [.address, .quantity], "hardhat_addBalance": [.address, .quantity],
        "anvil_dealERC20": [.address, .address, .quantity], "hardhat_dealERC20": [.address, .address, .quantity],
        "anvil_setERC20Balance": [.address, .address, .quantity],
        "anvil_setERC20Allowance": [.address, .address, .address, .quantity],
    ]

    /// Tracer names: the node's, geth's others, an empty one and JavaScript source.
    static let tracerNames = [
        "callTracer", "prestateTracer", "4byteTracer", "noopTracer", "structLogger", "", "flatCallTracer", "muxTracer",
        "{data: [], step: function(log) {}, result: function() { return this.data }}", "CALLTRACER",
    ]

    /// Members of `tracerConfig`: every tracer's options and one no tracer has.
    static let tracerOptions = ["onlyTopCall", "withLog", "diffMode", "disableCode", "disableStorage", "includeEmpty", "bogus"]

    /// Quantities at the edges: zero, powers of two around each integer width, the gas limit and the caps the
    /// node enforces, hex with leading zeros, empty hex, upper case, and more than 256 bits.
    static let hostileQuantities = [
        "0x0", "0x1", "0x2", "0x7fffffff", "0x80000000", "0xffffffff", "0x100000000", "0x1fffffffffffff",
        "0x7fffffffffffffff", "0x8000000000000000", "0xfffffffffffffffe", "0xffffffffffffffff", "0x10000000000000000",
        "0x2386f26fc10000", "0x1c9c380", "0x2faf080", "0x2710", "0x2711", "0x3b9aca00", "0xde0b6b3a7640000",
        "0x8000000000000000000000000000000000000000000000000000000000000000",
        "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "0x10000000000000000000000000000000000000000000000000000000000000000",
        "0x000000000000000000000000000000000000000000000000000000000000000001", "0x0001", "0x00", "0x", "0X1", "0xG",
        "1", "-0x1", "0x-1", " 0x1", "0x1 ", "0x" + String(repeating: "f", count: 200),
    ]

    /// Numbers as JSON numbers (Hardhat and anvil accept quantities as numbers).
    static let hostileNumbers = [
        "0", "1", "-1", "-0", "2147483648", "4294967296", "9007199254740993", "9223372036854775807",
        "9223372036854775808", "18446744073709551615", "18446744073709551616",
        "115792089237316195423570985008687907853269984665640564039457584007913129639935", "1.5", "1e3", "1E400",
        "-9223372036854775808", "0.0000001", "10000", "10001", "30000000",
    ]

    static let tags = ["latest", "earliest", "pending", "safe", "finalized", "Latest", "", "0x0", "0x1", "0x5"]

    /// The dev accounts (which sign on the node), the zero address and precompiles.
    static let addresses = [
        "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "0x0000000000000000000000000000000000000000",
        "0x0000000000000000000000000000000000000001", "0x000000000000000000000000000000000000000a",
        "0x5fbdb2315678afecb367f032d93f642f64180aa3", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226",
        "0xf39fd6e51aad88f6f4ce6ab8827279cfffb922660", "f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
    ]

    /// Small programs for anvil_setCode and transaction data: an infinite loop, a storage write, a revert with
    /// data, a log, a self-destruct, memory expansion, and a creation that returns code.
    static let programs = [
        "0x5b600056", "0x602a60005500", "0x60206000fd", "0x6001600055600160015560006000a0", "0x33ff",
        "0x63ffffffff600052", "0x600a80600c6000396000f3fe600160005260206000f3", "0x60006000f3", "0xfe", "0x",
    ]

    mutating func round() -> Round {
        let shape = input.index(8)
        if shape == 7 {
            let count = 1 + input.index(6)
            var items: [JSONValue] = []
            var requests: [JSONRPCResponseCheck.Sent] = []
            for _ in 0..<count {
                let (value, sent) = request()
                items.append(value)
                requests.append(sent)
            }
            return Round(body: .array(items), requests: requests, isBatch: true)
        }
        let (value, sent) = request()
        return Round(body: value, requests: [sent], isBatch: false)
    }

    /// One request object: usually well formed, sometimes a notification, with a string or null id, without
    /// `jsonrpc`, with a wrong version, or with params that are not an array.
    private mutating func request() -> (JSONValue, JSONRPCResponseCheck.Sent) {
        let method: String
        if input.chance(8) {
            method = input.pick(["", "eth_", "ETH_CHAINID", "eth_chainId ", "rpc.discover", "evm_mine\u{0}", "__proto__"])
        } else {
            method = input.pick(FuzzHarness.nodeMethods)
        }
        var members: [(key: String, value: JSONValue)] = []
        let variant = input.byte()
        if variant != 1 { members.append(("jsonrpc", .string(variant == 2 ? "1.0" : "2.0"))) }
        var id: JSONValue? = .number(String(nextID))
        nextID += 1
        switch variant {
        case 3: id = nil
        case 4: id = .string("id-\(nextID)")
        case 5: id = .null
        case 6: id = .array([])
        default: break
        }
        if let id { members.append(("id", id)) }
        members.append(("method", variant == 7 ? .number("1") : .string(method)))
        switch variant {
        case 8: break
        case 9: members.append(("params", .object([("a", .number("1"))])))
        case 10: members.append(("params", .string("0x1")))
        default: members.append(("params", .array(params(for: method))))
        }
        if input.chance(6) { members.reverse() }
        return (.object(members), JSONRPCResponseCheck.Sent(id: id))
    }

    private mutating func params(for method: String) -> [JSONValue] {
        let tame = avoidKnownCrashes && FuzzHarness.nodeKnownCrashMethods.contains(method)
        let kinds = Self.signatures[method] ?? []
        var params: [JSONValue] = []
        let mode = input.index(8)
        if mode == 0 && !tame {
            // Any values at all, any count.
            for _ in 0..<input.index(5) { params.append(anyValue(depth: 0)) }
            return params
        }
        // The method's own kinds; trailing optional ones sometimes left out, one sometimes replaced.
        let count = mode == 1 ? input.index(kinds.count + 1) : kinds.count
        for kind in kinds.prefix(count) {
            params.append(tame ? tameValue(kind) : (input.chance(24) ? anyValue(depth: 0) : value(kind)))
        }
        if mode == 2 && !tame { params.append(anyValue(depth: 0)) }
        return params
    }

    /// For a method with an open crash class: small quantities only.
    private mutating func tameValue(_ kind: Kind) -> JSONValue {
        switch kind {
        case .mineOptions:
            guard input.chance(128) else { return input.chance(128) ? .null : smallQuantity() }
            return .object([("blocks", .string("0x" + String(1 + input.index(4), radix: 16))), ("timestamp", smallQuantity())])
        case .bool: return .bool(input.chance(128))
        default: return smallQuantity()
        }
    }

    private mutating func smallQuantity() -> JSONValue {
        .string("0x" + String(input.uint64(width: 3), radix: 16))
    }

    private mutating func value(_ kind: Kind) -> JSONValue {
        switch kind {
        case .address: return .string(input.pick(Self.addresses))
        case .block:
            switch input.index(6) {
            case 0: return quantity()
            case 1: return .object([(input.chance(128) ? "blockNumber" : "blockHash", input.chance(128) ? quantity() : hash())])
            case 2: return hash()
            default: return .string(input.pick(Self.tags))
            }
        case .quantity: return quantity()
        case .word: return input.chance(128) ? quantity() : .string(Hex.encode(randomBytes(32)))
        case .data:
            return input.chance(100) ? .string(input.pick(Self.programs)) : .string(Hex.encode(input.bytes(maxCount: 64)))
        case .hash: return hash()
        case .transaction: return transaction()
        case .filter: return filter()
        case .bool: return input.chance(200) ? .bool(input.chance(128)) : anyValue(depth: 1)
        case .filterID:
            if !seen.isEmpty, input.chance(200) { return .string(input.pick(seen)) }
            return quantity()
        case .mineOptions:
            switch input.index(3) {
            case 0: return quantity()
            case 1: return .null
            default:
                var members: [(key: String, value: JSONValue)] = []
                if input.chance(200) { members.append(("blocks", quantity())) }
                if input.chance(128) { members.append(("timestamp", quantity())) }
                return .object(members)
            }
        case .percentiles:
            return .array((0..<input.index(6)).map { _ in .number(input.pick(["0", "50", "99.9", "100", "-1", "1e308"])) })
        case .traceConfig: return traceConfig()
        }
    }

    /// A `debug_trace*` trace config: a tracer name, its options (of the right type or not), the struct logger's
    /// options, a timeout, and `debug_traceCall`'s overrides.
    private mutating func traceConfig() -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if input.chance(180) { members.append(("tracer", .string(input.pick(Self.tracerNames)))) }
        if input.chance(120) {
            let options = (0..<input.index(4)).map { _ -> (key: String, value: JSONValue) in
                (input.pick(Self.tracerOptions), input.chance(220) ? .bool(input.chance(128)) : anyValue(depth: 1))
            }
            members.append(("tracerConfig", input.chance(230) ? .object(options) : anyValue(depth: 1)))
        }
        for flag in ["disableStack", "enableMemory", "disableStorage", "enableReturnData"] where input.chance(40) {
            members.append((flag, .bool(input.chance(128))))
        }
        if input.chance(40) { members.append(("limit", quantity())) }
        if input.chance(60) { members.append(("timeout", .string(input.pick(["1s", "10ms", "0s", "1h", "25h", "-1s", "x", ""])))) }
        if input.chance(50) {
            members.append(("stateOverrides", .object([(input.pick(Self.addresses), .object([("balance", quantity()), ("code", value(.data))]))])))
        }
        if input.chance(50) {
            members.append(("blockOverrides", .object([("number", quantity()), ("time", quantity()), ("gasLimit", quantity())])))
        }
        return .object(members)
    }

    private mutating func quantity() -> JSONValue {
        switch input.index(4) {
        case 0: return .number(input.pick(Self.hostileNumbers))
        case 1: return .string("0x" + String(input.uint64(width: 1 + input.index(8)), radix: 16))
        default: return .string(input.pick(Self.hostileQuantities))
        }
    }

    private mutating func hash() -> JSONValue {
        if !seen.isEmpty, input.chance(160) { return .string(input.pick(seen)) }
        return .string(Hex.encode(randomBytes(input.chance(230) ? 32 : input.index(40))))
    }

    private mutating func randomBytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in input.byte() } }

    private mutating func transaction() -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        let fields: [(String, Kind)] = [
            ("from", .address), ("to", .address), ("gas", .quantity), ("gasPrice", .quantity), ("value", .quantity),
            ("data", .data), ("input", .data), ("nonce", .quantity), ("maxFeePerGas", .quantity),
            ("maxPriorityFeePerGas", .quantity), ("type", .quantity), ("accessList", .address),
            ("blobVersionedHashes", .hash), ("maxFeePerBlobGas", .quantity),
        ]
        let mask = input.uint64(width: 2)
        for (i, (key, kind)) in fields.enumerated() where mask & (1 << UInt64(i)) != 0 {
            switch key {
            case "accessList":
                members.append((key, .array([.object([("address", value(.address)), ("storageKeys", .array([value(.word)]))])])))
            case "blobVersionedHashes": members.append((key, .array([value(.hash)])))
            case "gas" where avoidKnownCrashes:
                members.append((key, .string("0x" + String(input.uint64(width: 2) * 4, radix: 16))))
            default: members.append((key, value(kind)))
            }
        }
        return .object(members)
    }

    private mutating func filter() -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if input.chance(100) { members.append(("fromBlock", value(.block))) }
        if input.chance(100) { members.append(("toBlock", value(.block))) }
        if input.chance(40) { members.append(("blockHash", hash())) }
        if input.chance(80) {
            members.append(("address", input.chance(128) ? value(.address) : .array([value(.address), value(.address)])))
        }
        if input.chance(80) {
            members.append(("topics", .array((0..<input.index(6)).map { _ in input.chance(60) ? .null : hash() })))
        }
        return .object(members)
    }

    /// Any JSON value: the hostile numbers, hex, tags, booleans, null, nested arrays and objects with the keys the
    /// node reads.
    private mutating func anyValue(depth: Int) -> JSONValue {
        switch input.index(depth < 6 ? 12 : 8) {
        case 0: return .number(input.pick(Self.hostileNumbers))
        case 1: return .string(input.pick(Self.hostileQuantities))
        case 2: return .string(Hex.encode(input.bytes(maxCount: 40)))
        case 3: return .string(input.pick(Self.tags + Self.addresses))
        case 4: return .bool(input.chance(128))
        case 5: return .null
        case 6: return .string(String(decoding: input.bytes(maxCount: 16), as: UTF8.self))
        case 7: return hash()
        case 8, 9: return .array((0..<input.index(4)).map { _ in anyValue(depth: depth + 1) })
        default:
            let keys = ["from", "to", "gas", "value", "data", "blocks", "timestamp", "blockHash", "blockNumber", "topics", "address", "fromBlock"]
            return .object((0..<input.index(4)).map { _ in (input.pick(keys), anyValue(depth: depth + 1)) })
        }
    }

    /// Keeps the strings of an answer (hashes, ids) for later parameters.
    mutating func remember(_ answer: [UInt8]) {
        guard seen.count < 64, let document = try? JSONParser.parse(answer) else { return }
        let answers = document.arrayValue ?? [document]
        for answer in answers {
            if case .string(let s)? = answer["result"], s.utf8.count > 2, s.utf8.count <= 66 { seen.append(s) }
            if case .string(let s)? = answer["result"]?["transactionHash"] { seen.append(s) }
            if case .string(let s)? = answer["result"]?["hash"] { seen.append(s) }
        }
    }
}
