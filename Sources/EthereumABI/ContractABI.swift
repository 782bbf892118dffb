import EthereumPrimitives

/// A contract's whole ABI: functions, events, custom errors, constructor, fallback and receive.
///
/// Read it from a JSON ABI (``init(json:)``, which also accepts a compiler artifact with an `"abi"`
/// field) or from human-readable signatures (``init(humanReadable:)``).
public struct ContractABI: Hashable, Sendable {
    /// Every entry, in the order given.
    public var items: [ABIItem]

    /// Creates an ABI from its entries.
    public init(items: [ABIItem]) { self.items = items }

    /// Parses human-readable signatures, one entry each (see ``ABIItem/init(signature:)``).
    public init(humanReadable signatures: [String]) throws(ABIError) {
        var items: [ABIItem] = []
        for s in signatures { items.append(try ABIItem(signature: s)) }
        self.items = items
    }

    /// The functions, in order (overloads share a name).
    public var functions: [ABIFunction] {
        items.compactMap { if case .function(let f) = $0 { return f } else { return nil } }
    }

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
        functions.first { $0.name == name }
    }

    /// The function whose selector is `selector`.
    public func function(selector: ABISelector) -> ABIFunction? {
        functions.first { $0.selector == selector }
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
