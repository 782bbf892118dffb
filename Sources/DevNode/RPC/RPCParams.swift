import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// Positional JSON-RPC parameters with typed readers. Every reader fails with -32602 naming the
/// argument ("invalid argument 1: …"), so a wrong type is never mistaken for an unknown method.
struct RPCParams {
    let items: [JSONValue]

    /// Reads `params`: absent or null is no parameters; an array is positional; anything else is refused.
    init(_ params: JSONValue?) throws(JSONRPCErrorObject) {
        switch params {
        case nil, .null?: items = []
        case .array(let values)?: items = values
        default: throw .invalidParams("params must be an array")
        }
    }

    /// Refuses more than `count` parameters, or fewer than `required`.
    func expect(_ required: Int, _ count: Int) throws(JSONRPCErrorObject) {
        if items.count > count { throw .invalidParams("too many arguments, want at most \(count)") }
        if items.count < required {
            throw .invalidParams("missing value for required argument \(items.count)")
        }
    }

    /// Parameter `i`, nil when absent or null.
    func optional(_ i: Int) -> JSONValue? {
        guard i < items.count, !items[i].isNull else { return nil }
        return items[i]
    }

    func required(_ i: Int) throws(JSONRPCErrorObject) -> JSONValue {
        guard let value = optional(i) else { throw .invalidParams("missing value for required argument \(i)") }
        return value
    }

    static func wire<T>(_ i: Int, _ read: () throws(WireError) -> T) throws(JSONRPCErrorObject) -> T {
        do { return try read() } catch { throw .invalidParams("invalid argument \(i): \(error.description)") }
    }

    func address(_ i: Int) throws(JSONRPCErrorObject) -> Address {
        let value = try required(i)
        return try Self.wire(i) { () throws(WireError) in try value.wireAddress("address") }
    }

    func bytes(_ i: Int) throws(JSONRPCErrorObject) -> [UInt8] {
        let value = try required(i)
        return try Self.wire(i) { () throws(WireError) in try value.wireBytes("data") }
    }

    func hash(_ i: Int) throws(JSONRPCErrorObject) -> Bytes32 {
        let value = try required(i)
        return try Self.wire(i) { () throws(WireError) in try value.wireBytes32("hash") }
    }

    /// A quantity (hex string) or, as Hardhat and anvil accept, a JSON number.
    func uint64(_ i: Int) throws(JSONRPCErrorObject) -> UInt64 {
        let value = try required(i)
        return try Self.wire(i) { () throws(WireError) in try value.wireUInt64OrNumber("quantity") }
    }

    func uint256(_ i: Int) throws(JSONRPCErrorObject) -> UInt256 {
        let value = try required(i)
        return try Self.wire(i) { () throws(WireError) in
            if case .number(let text) = value {
                guard let n = UInt64(text) else { throw WireError("quantity: \(text) is not a non-negative integer") }
                return UInt256(n)
            }
            return try value.wireUInt256("quantity")
        }
    }

    /// A storage slot or word: a quantity or 32-byte data (both are accepted by nodes).
    func word(_ i: Int) throws(JSONRPCErrorObject) -> UInt256 {
        let value = try required(i)
        return try Self.wire(i) { () throws(WireError) in
            let text = try value.wireString("slot")
            guard Hex.hasPrefix(text), text.utf8.count <= 66 else { throw WireError("slot: expected at most 32 bytes of hex, got \(JSONValue.quote(String(text.prefix(70))))") }
            return try Quantity.decodeUInt256(text)
        }
    }

    func bool(_ i: Int) throws(JSONRPCErrorObject) -> Bool {
        guard case .bool(let b) = try required(i) else { throw .invalidParams("invalid argument \(i): expected a boolean") }
        return b
    }

    /// A block parameter: a tag, a number, or an EIP-1898 object (`blockHash` or `blockNumber`).
    func block(_ i: Int, default fallback: BlockID = .latest) throws(JSONRPCErrorObject) -> BlockID {
        guard let value = optional(i) else { return fallback }
        return try Self.wire(i) { () throws(WireError) in try Self.blockID(value) }
    }

    static func blockID(_ value: JSONValue) throws(WireError) -> BlockID {
        switch value {
        case .string(let text):
            switch text {
            case "latest": return .latest
            case "earliest": return .earliest
            case "pending": return .pending
            case "safe": return .safe
            case "finalized": return .finalized
            default:
                if text.utf8.count == 66 { return .hash(try value.wireBytes32("block hash")) }
                return .number(try value.wireUInt64("block number"))
            }
        case .number:
            return .number(try value.wireUInt64OrNumber("block number"))
        case .object:
            let o = try value.wireObject("block")
            if let hash = try o.optionalBytes32("blockHash") { return .hash(hash) }
            if let number = o.optional("blockNumber") { return try blockID(number) }
            throw WireError("block: expected blockHash or blockNumber")
        default:
            throw WireError("expected a block number, tag or hash, got \(String(value.description.prefix(60)))")
        }
    }

    /// A `debug_trace*` trace config (``TraceConfig``); `forCall` for `debug_traceCall`'s, which takes overrides.
    func traceConfig(_ i: Int, forCall: Bool = false) throws(JSONRPCErrorObject) -> TraceConfig {
        let value = optional(i)
        return try Self.wire(i) { () throws(WireError) in try TraceConfig.decode(value, forCall: forCall) }
    }

    /// A Go duration of one unit ("5s", "1.5s", "300ms", "2m", "1h"), as geth's trace `timeout` takes.
    static func goDuration(_ text: String, what: String) throws(WireError) -> Duration {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (unit, scale) in units where text.hasSuffix(unit) {
            let number = text.dropLast(unit.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(number),
                value.isFinite, value * scale <= 86_400
            else { break }
            return .milliseconds(Int64((value * scale * 1000).rounded()))
        }
        throw WireError("\(what): expected a duration such as \"10s\" or \"500ms\" (at most a day), got \(JSONValue.quote(String(text.prefix(30))))")
    }

    /// A transaction or call object.
    func callRequest(_ i: Int) throws(JSONRPCErrorObject) -> CallRequest {
        let value = try required(i)
        return try Self.wire(i) { () throws(WireError) in try CallRequest(json: value) }
    }

    /// An `eth_getLogs` / `eth_newFilter` filter object.
    func logFilter(_ i: Int) throws(JSONRPCErrorObject) -> Chain.LogFilter {
        let value = optional(i) ?? .object([])
        return try Self.wire(i) { () throws(WireError) in try Self.logFilter(value) }
    }

    static func logFilter(_ value: JSONValue) throws(WireError) -> Chain.LogFilter {
        let o = try value.wireObject("filter")
        var filter = Chain.LogFilter()
        filter.blockHash = try o.optionalBytes32("blockHash")
        if filter.blockHash != nil, o.optional("fromBlock") != nil || o.optional("toBlock") != nil {
            throw WireError("filter: blockHash cannot be combined with fromBlock/toBlock")
        }
        filter.fromBlock = try o.optional("fromBlock").map { v throws(WireError) in try blockID(v) }
        filter.toBlock = try o.optional("toBlock").map { v throws(WireError) in try blockID(v) }
        switch o.optional("address") {
        case nil: break
        case .array(let items)?: filter.addresses = try items.map { a throws(WireError) in try a.wireAddress("filter.address[]") }
        case let single?: filter.addresses = [try single.wireAddress("filter.address")]
        }
        if let topics = o.optional("topics") {
            let positions = try topics.wireArray("filter.topics")
            guard positions.count <= 4 else { throw WireError("filter.topics: more than 4 positions") }
            filter.topics = try positions.map { position throws(WireError) in
                switch position {
                case .null: return []
                case .array(let alternatives):
                    return try alternatives.map { t throws(WireError) in try t.wireBytes32("filter.topics[][]") }
                default: return [try position.wireBytes32("filter.topics[]")]
                }
            }
        }
        return filter
    }
}
