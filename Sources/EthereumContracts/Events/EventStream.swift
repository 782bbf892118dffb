import EthereumABI
import EthereumPrimitives
import EthereumRPC
import EthereumWire

/// Where an event stream starts and when it delivers.
public struct EventStreamOptions: Sendable, Hashable {
    /// Replays the events from this block first (nil: only events of blocks mined from now on).
    public var fromBlock: UInt64?
    /// Blocks that must hold an event's block, its own included, before it is delivered (1: as soon as it is
    /// mined; more: re-orgs shallower than this are never seen). See docs/CONTRACTS.md, "Confirmations and re-orgs".
    public var confirmations: UInt64

    public init(fromBlock: UInt64? = nil, confirmations: UInt64 = 1) {
        self.fromBlock = fromBlock
        self.confirmations = Swift.min(Swift.max(1, confirmations), 100_000)
    }

    /// New events, as soon as they are mined.
    public static let live = EventStreamOptions()
}

/// A ``ContractBackend`` that can follow logs as blocks are mined: ``RPCContractBackend`` (over `eth_subscribe` when
/// it has ``RPCContractBackend/subscriptions``, else by polling its node) and the in-process `DevChainBackend`.
public protocol LogStreamingBackend: ContractBackend {
    /// The logs matching `filter` (addresses and topics), in chain order, each once, from `options.fromBlock` (or
    /// new blocks only) with `options.confirmations`.
    func logStream(_ filter: LogFilter, options: EventStreamOptions) -> AsyncThrowingStream<RPCLog, any Error>
}

/// A contract whose backend cannot follow new blocks.
public struct EventStreamUnsupported: Error, Sendable, CustomStringConvertible {
    /// The backend's type.
    public var backend: String
    public var description: String { "\(backend) cannot stream events (it is no LogStreamingBackend); query them with events(_:fromBlock:toBlock:)" }
}

extension Contract {
    /// The events `filter` selects, as they are mined (and, with `options.fromBlock`, the past ones first), decoded;
    /// ends when the consumer stops iterating, or throws when the backend's connection is lost for good
    /// (`SubscriptionError`) or a log claiming to be `E` does not decode (``ContractError/unexpectedData(what:reason:)``).
    public func stream<E: ContractEvent>(_ filter: EventFilter<E>, options: EventStreamOptions = .live) -> AsyncThrowingStream<EventLog<E>, any Error> {
        guard let streaming = backend as? any LogStreamingBackend else {
            return AsyncThrowingStream { $0.finish(throwing: EventStreamUnsupported(backend: String(describing: type(of: backend)))) }
        }
        let logs = streaming.logStream(filter.logFilter(address: address, fromBlock: .latest, toBlock: .latest), options: options)
        let (stream, continuation) = AsyncThrowingStream<EventLog<E>, any Error>.makeStream()
        let task = Task {
            do {
                for try await log in logs {
                    guard let event = try E(log: TransactionLog(log)) else { continue }
                    if case .terminated = continuation.yield(EventLog(event: event, log: log)) { return }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Every event of type `E`, as they are mined (see ``stream(_:options:)``).
    public func stream<E: ContractEvent>(_ type: E.Type, options: EventStreamOptions = .live) throws(ContractError) -> AsyncThrowingStream<EventLog<E>, any Error> {
        stream(try E.filter(), options: options)
    }
}
