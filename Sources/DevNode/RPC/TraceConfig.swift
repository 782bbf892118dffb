import Chain
import EVM
import EthereumPrimitives
import EthereumWire

/// A `debug_trace*` request's trace config, decoded: geth's `TraceConfig` (the struct logger's options, `tracer`,
/// `tracerConfig`, `timeout`) and, for `debug_traceCall`, its `TraceCallConfig` additions (`stateOverrides`,
/// `blockOverrides`). A tracer the node does not have, JavaScript tracer source among them, is refused (-32602),
/// never quietly replaced by the default.
public struct TraceConfig: Sendable, Equatable {
    /// The tracer and its options.
    public var tracer: TracerConfiguration
    /// geth's `timeout`: it can only shorten the node's `--rpc-evm-timeout`.
    public var timeout: Duration?
    /// `debug_traceCall`: accounts to change for the call.
    public var stateOverrides: StateOverrides
    /// `debug_traceCall`: block environment fields to change for the call.
    public var blockOverrides: BlockOverrides?

    /// A config (the default: the struct logger with its defaults).
    public init(
        tracer: TracerConfiguration = .structLogger(StructLogOptions()), timeout: Duration? = nil,
        stateOverrides: StateOverrides = [:], blockOverrides: BlockOverrides? = nil
    ) {
        self.tracer = tracer
        self.timeout = timeout
        self.stateOverrides = stateOverrides
        self.blockOverrides = blockOverrides
    }

    /// `limits` with the config's `timeout` applied (it only shortens the node's).
    func limits(_ limits: CallLimits) -> CallLimits {
        var limits = limits
        if let timeout { limits.timeout = limits.timeout.map { Swift.min($0, timeout) } ?? timeout }
        return limits
    }

    /// Decodes a trace config object (nil or null: the defaults). `forCall`: `debug_traceCall`'s, which alone takes
    /// the overrides.
    static func decode(_ value: JSONValue?, forCall: Bool) throws(WireError) -> TraceConfig {
        guard let value, !value.isNull else { return TraceConfig() }
        let o = try value.wireObject("traceConfig")
        var config = TraceConfig()
        if let text = o.optional("timeout") {
            config.timeout = try RPCParams.goDuration(try text.wireString(o.name("timeout")), what: o.name("timeout"))
        }
        let name = try o.optional("tracer").map { v throws(WireError) in try v.wireString(o.name("tracer")) } ?? ""
        let tracerConfig = o.optional("tracerConfig")
        switch name {
        case "", "structLogger":
            try noOptions(tracerConfig, "the struct logger", path: o.name("tracerConfig"))
            config.tracer = .structLogger(try structLoggerOptions(o))
        case "callTracer":
            let flags = try Self.flags(tracerConfig, ["onlyTopCall", "withLog"], of: name, path: o.name("tracerConfig"))
            config.tracer = .callTracer(CallTracerOptions(onlyTopCall: flags["onlyTopCall"] ?? false, withLog: flags["withLog"] ?? false))
        case "prestateTracer":
            let flags = try Self.flags(
                tracerConfig, ["diffMode", "disableCode", "disableStorage", "includeEmpty"], of: name, path: o.name("tracerConfig"))
            let options = PrestateTracerOptions(
                diffMode: flags["diffMode"] ?? false, disableCode: flags["disableCode"] ?? false,
                disableStorage: flags["disableStorage"] ?? false, includeEmpty: flags["includeEmpty"] ?? false)
            if options.diffMode && options.includeEmpty {
                throw WireError("\(o.name("tracerConfig")): cannot use diffMode with includeEmpty")
            }
            config.tracer = .prestateTracer(options)
        case "4byteTracer":
            try noOptions(tracerConfig, name, path: o.name("tracerConfig"))
            config.tracer = .fourByteTracer
        case "noopTracer":
            try noOptions(tracerConfig, name, path: o.name("tracerConfig"))
            config.tracer = .noopTracer
        default:
            let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
            throw WireError(
                "\(o.name("tracer")): \(JSONValue.quote(shown)) is not a tracer of this node (callTracer, prestateTracer, "
                    + "4byteTracer, noopTracer, or none for the struct logger); JavaScript tracers are not supported")
        }
        if let overrides = o.optional("stateOverrides") {
            guard forCall else { throw WireError("\(o.name("stateOverrides")): only debug_traceCall takes state overrides") }
            config.stateOverrides = try SimulateRequestWire.stateOverrides(overrides, path: o.name("stateOverrides"))
        }
        if let overrides = o.optional("blockOverrides") {
            guard forCall else { throw WireError("\(o.name("blockOverrides")): only debug_traceCall takes block overrides") }
            config.blockOverrides = try SimulateRequestWire.blockOverrides(overrides, path: o.name("blockOverrides"))
        }
        if o.optional("txIndex") != nil {
            throw WireError("\(o.name("txIndex")): tracing a call between a block's transactions is not supported")
        }
        return config
    }

    /// The struct logger's options, which sit in the trace config itself (geth's `logger.Config`): `disableStack`,
    /// `enableMemory`, `disableStorage`, `enableReturnData` and `limit` (steps recorded at most).
    private static func structLoggerOptions(_ o: WireObject) throws(WireError) -> StructLogOptions {
        func flag(_ key: String) throws(WireError) -> Bool {
            switch o.optional(key) {
            case nil: return false
            case .bool(let b)?: return b
            default: throw WireError("\(o.name(key)): expected a boolean")
            }
        }
        var options = StructLogOptions()
        options.disableStack = try flag("disableStack")
        options.enableMemory = try flag("enableMemory")
        options.disableStorage = try flag("disableStorage")
        options.enableReturnData = try flag("enableReturnData")
        if let limit = o.optional("limit") {
            let n = try limit.wireUInt64OrNumber(o.name("limit"))
            options.limit = Int(Swift.min(n, UInt64(Int32.max)))
        }
        return options
    }

    /// A `tracerConfig` of boolean options among `known`; any other member is refused, naming the known ones.
    private static func flags(
        _ value: JSONValue?, _ known: [String], of tracer: String, path: String
    ) throws(WireError) -> [String: Bool] {
        guard let value else { return [:] }
        guard case .object(let members) = value else { throw WireError("\(path): expected an object") }
        var flags: [String: Bool] = [:]
        for (key, member) in members {
            guard known.contains(key) else {
                throw WireError(
                    "\(path).\(key): not an option of \(tracer) (its options: \(known.joined(separator: ", ")))")
            }
            switch member {
            case .null: break
            case .bool(let b): flags[key] = b
            default: throw WireError("\(path).\(key): expected a boolean")
            }
        }
        return flags
    }

    /// Refuses a non-empty `tracerConfig` for a tracer that takes none.
    private static func noOptions(_ value: JSONValue?, _ tracer: String, path: String) throws(WireError) {
        switch value {
        case nil: return
        case .object(let members)? where members.isEmpty: return
        case .object?: throw WireError("\(path): \(tracer) takes no options")
        default: throw WireError("\(path): expected an object")
        }
    }
}
