import EthereumPrimitives

/// A contract's whole ABI: functions, events, custom errors, constructor, fallback and receive.
///
/// Read it from a JSON ABI (``init(json:)``, which also accepts a compiler artifact with an `"abi"`
/// field) or from human-readable signatures (``init(humanReadable:)``).
public struct ContractABI: Hashable, Sendable {
    /// Every entry, in the order given.
    public var items: [ABIItem] { didSet { index = Index(items) } }

    /// The functions and their lookups, kept with ``items`` (a contract runtime looks a function up on every call).
    private var index: Index

    /// Creates an ABI from its entries.
    public init(items: [ABIItem]) {
        self.items = items
        index = Index(items)
    }

    /// The functions, and where to find them by selector, canonical signature and name.
    private struct Index: Sendable {
        var functions: [ABIFunction] = []
        var bySelector: [ABISelector: Int] = [:]
        var bySignature: [String: Int] = [:]
        var byName: [String: [Int]] = [:]

        init(_ items: [ABIItem]) {
            for item in items {
                guard case .function(let function) = item else { continue }
                let position = functions.count
                functions.append(function)
                // The first function with a selector or signature wins, as a search in order would find it.
                if bySelector[function.selector] == nil { bySelector[function.selector] = position }
                if bySignature[function.signature] == nil { bySignature[function.signature] = position }
                byName[function.name, default: []].append(position)
            }
        }
    }

    public static func == (a: ContractABI, b: ContractABI) -> Bool { a.items == b.items }

    public func hash(into hasher: inout Hasher) { hasher.combine(items) }

    /// Parses human-readable signatures, one entry each (see ``ABIItem/init(signature:)``).
    public init(humanReadable signatures: [String]) throws(ABIError) {
        var items: [ABIItem] = []
        for s in signatures { items.append(try ABIItem(signature: s)) }
        self.init(items: items)
    }

    /// The functions, in order (overloads share a name).
    public var functions: [ABIFunction] { index.functions }

    /// The events, in order.
    public var events: [ABIEvent] {
        items.compactMap { if case .event(let e) = $0 { return e } else { return nil } }
    }

    /// The custom errors, in order.
    public var errors: [ABICustomError] {
        items.compactMap { if case .error(let e) = $0 { return e } else { return nil } }
    }

    /// The constructor, if declared.
    public var constructor: ABIConstructor? {
        for item in items { if case .constructor(let c) = item { return c } }
        return nil
    }

    /// The first function named `name` (use ``functions`` to see overloads).
    public func function(named name: String) -> ABIFunction? {
        index.byName[name]?.first.map { index.functions[$0] }
    }

    /// The functions named `name`, in order (overloads).
    public func functions(named name: String) -> [ABIFunction] {
        (index.byName[name] ?? []).map { index.functions[$0] }
    }

    /// The function whose selector is `selector`.
    public func function(selector: ABISelector) -> ABIFunction? {
        index.bySelector[selector].map { index.functions[$0] }
    }

    /// The function whose canonical signature (`name(type1,type2)`) is `signature`.
    public func function(signature: String) -> ABIFunction? {
        index.bySignature[signature].map { index.functions[$0] }
    }

    /// The first event named `name`.
    public func event(named name: String) -> ABIEvent? {
        events.first { $0.name == name }
    }

    /// The non-anonymous event whose topic 0 is `topic0`.
    public func event(topic0: Bytes32) -> ABIEvent? {
        events.first { !$0.anonymous && $0.topic0 == topic0 }
    }

    /// The custom error named `name`.
    public func error(named name: String) -> ABICustomError? {
        errors.first { $0.name == name }
    }

    /// The custom error whose selector is `selector`.
    public func error(selector: ABISelector) -> ABICustomError? {
        errors.first { $0.selector == selector }
    }

    /// Decodes a log with the event it belongs to: by topic 0 first, then by trying each anonymous event
    /// whose topic count fits.
    public func decodeLog(topics: [Bytes32], data: some Collection<UInt8>, options: ABIDecodingOptions = .strict) throws(ABIError) -> ABIDecodedLog {
        if let first = topics.first, let event = event(topic0: first) {
            return try event.decodeLog(topics: topics, data: data, options: options)
        }
        var lastError: ABIError?
        for event in events where event.anonymous && event.topicCount == topics.count {
            do {
                return try event.decodeLog(topics: topics, data: data, options: options)
            } catch {
                lastError = error
            }
        }
        if let lastError { throw lastError }
        let topic = topics.first.map { "topic 0 \($0)" } ?? "a log without topics"
        throw .noMatch("no event in the ABI matches \(topic)")
    }

    /// Decodes revert data, recognising this ABI's custom errors.
    public func decodeRevert(_ data: some Collection<UInt8>) -> RevertReason {
        RevertReason(data: data, errors: errors)
    }
}
