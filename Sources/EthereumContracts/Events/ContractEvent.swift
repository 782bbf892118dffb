import EthereumABI
import EthereumPrimitives
import EthereumWire

/// An event of a contract as a Swift type (generated bindings make one struct per event): it knows its ABI
/// event and decodes itself from a decoded log. Indexed parameters of dynamic types (`string`, `bytes`, arrays,
/// tuples) are only in the log as their hash, so their fields are `Bytes32`.
public protocol ContractEvent: Sendable, Hashable {
    /// The event in the ABI.
    static var event: ABIEvent { get }
    /// The event from a log decoded with ``event``.
    init(decoded log: ABIDecodedLog) throws(ContractError)
}

extension ContractEvent {
    /// Topic 0 of this event's logs (nil for an anonymous event).
    public static var topic0: Bytes32? { event.anonymous ? nil : event.topic0 }

    /// Decodes a log; nil when the log is not this event (another topic 0 or topic count), an error when it claims
    /// to be but does not decode.
    public init?(log: TransactionLog) throws(ContractError) {
        guard log.topics.count == Self.event.topicCount, Self.event.anonymous || log.topics.first == Self.event.topic0 else {
            return nil
        }
        do {
            try self.init(decoded: try Self.event.decodeLog(topics: log.topics, data: log.data))
        } catch let error as ABIError {
            throw .unexpectedData(what: "a \(Self.event.name) log of \(log.address.checksummed)", reason: "\(error)")
        } catch let error as ContractError {
            throw error
        } catch {
            throw .unexpectedData(what: "a \(Self.event.name) log", reason: "\(error)")
        }
    }

    /// Every log of this event in a transaction's outcome, emitted by `address` (nil: any contract).
    public static func all(in outcome: TransactionOutcome, emittedBy address: Address?) throws(ContractError) -> [Self] {
        var out: [Self] = []
        for log in outcome.logs where address == nil || log.address == address {
            if let event = try Self(log: log) { out.append(event) }
        }
        return out
    }

    /// A filter for this event's logs: `indexed` holds, per indexed parameter in declaration order, the values it
    /// may have (nil or empty: any).
    public static func filter(indexed: [[ABIValue]?] = []) throws(ContractError) -> EventFilter<Self> {
        try EventFilter(event: event, indexed: indexed)
    }
}

/// A log of event `E` with where it is on the chain.
public struct EventLog<E: ContractEvent>: Sendable, Hashable {
    /// The event.
    public var event: E
    /// The emitting contract.
    public var address: Address
    /// The block holding it.
    public var blockNumber: UInt64?
    /// The transaction that emitted it.
    public var transactionHash: Bytes32?
    /// Its index in the block.
    public var logIndex: UInt64?
    /// True when a re-org removed it.
    public var removed: Bool

    public init(event: E, log: RPCLog) {
        self.event = event
        self.address = log.address
        self.blockNumber = log.blockNumber
        self.transactionHash = log.transactionHash
        self.logIndex = log.logIndex
        self.removed = log.removed
    }
}

/// The topic filter of one event's logs: topic 0 (unless the event is anonymous), then one position per indexed
/// parameter, each any of a set of values or anything. `E` is the Swift event type (``DynamicEvent`` when the ABI
/// is known at run time only).
public struct EventFilter<E>: Sendable, Hashable {
    /// The event.
    public var event: ABIEvent
    /// `eth_getLogs` topic positions (nil: any).
    public var topics: [[Bytes32]?]

    /// A filter of `event`'s logs; `indexed[i]` lists the values the i-th indexed parameter may have (nil or empty: any).
    public init(event: ABIEvent, indexed: [[ABIValue]?] = []) throws(ContractError) {
        let parameters = event.inputs.filter(\.indexed)
        guard indexed.count <= parameters.count else {
            throw .notInABI("event \(event.signature) has \(parameters.count) indexed parameters, not \(indexed.count)")
        }
        var topics: [[Bytes32]?] = event.anonymous ? [] : [[event.topic0]]
        for (parameter, values) in zip(parameters, indexed) {
            guard let values, !values.isEmpty else {
                topics.append(nil)
                continue
            }
            var position: [Bytes32] = []
            for value in values {
                do { position.append(try ABIEvent.topic(for: value, as: parameter.type)) } catch {
                    throw .invalidArguments(function: "event \(event.name) filter (\(parameter.name))", error)
                }
            }
            topics.append(position)
        }
        while let last = topics.last, last == nil { topics.removeLast() }
        self.event = event
        self.topics = topics
    }

    /// The `eth_getLogs` filter for `address` over a block range.
    public func logFilter(address: Address?, fromBlock: BlockTag, toBlock: BlockTag) -> LogFilter {
        LogFilter(fromBlock: fromBlock, toBlock: toBlock, addresses: address.map { [$0] } ?? [], topics: topics)
    }
}

/// The event type of filters built from an ABI at run time (``Contract/logs(event:indexed:fromBlock:toBlock:)``).
public enum DynamicEvent {}
