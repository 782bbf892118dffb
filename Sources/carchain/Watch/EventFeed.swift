import CarChainKit
import EthereumPrimitives
import EthereumRPC
import EthereumWire
import Foundation

/// How `carchain watch` learns of new blocks.
enum EventSource {
    /// `eth_subscribe("logs", {address})` on a connection that delivers notifications: told as each block is mined.
    case subscription(any SubscribingTransport)
    /// `eth_blockNumber` and `eth_getLogs` every `interval` (a plain HTTP node has no notifications).
    case polling(interval: Duration)
}

/// Why watching stopped.
struct WatchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The contract's events in chain order: the past ones from `fromBlock` (with `eth_getLogs`), then each new one as
/// its block is mined, until `emit` says enough or the connection ends.
struct EventFeed {
    let client: RPCClient
    let contract: Address
    /// Replays the events from this block first; nil for new events only.
    let fromBlock: UInt64?
    let source: EventSource

    /// Blocks per `eth_getLogs` during replay and polling: public nodes refuse wider ranges.
    static let maxRange: UInt64 = 10_000

    /// Runs until `emit` returns false (then returns normally) or the connection fails (then throws).
    /// `warn` reports a log of the contract that does not decode as a CarChain event (it is skipped).
    func run(warn: (String) -> Void, emit: (RecordedCarChainEvent) -> Bool) async throws {
        switch source {
        case .subscription(let transport): try await subscribe(transport, warn: warn, emit: emit)
        case .polling(let interval): try await poll(every: interval, warn: warn, emit: emit)
        }
    }

    /// Subscribes first, then replays up to the head read after subscribing, then passes on the notifications of
    /// later blocks: no block is missed or shown twice, even while blocks are mined during the replay.
    private func subscribe(_ transport: any SubscribingTransport, warn: (String) -> Void, emit: (RecordedCarChainEvent) -> Bool) async throws {
        let filter = JSONValue.object([("address", .string(contract.checksummed))])
        let answer = try await client.request("eth_subscribe", [.string("logs"), filter])
        guard let id = answer.stringValue else { throw WatchError("eth_subscribe answered \(answer), not a subscription id") }
        var replayedThrough: UInt64?
        if let fromBlock {
            let head = try await client.blockNumber()
            if fromBlock <= head, try await !replay(fromBlock...head, warn: warn, emit: emit) { return }
            replayedThrough = head
        }
        for await params in transport.notifications {
            guard params["subscription"]?.stringValue == id, let result = params["result"] else { continue }
            let log: RPCLog
            do { log = try RPCLog(json: result) } catch { throw WatchError("a logs notification the node sent is malformed: \(error)") }
            if log.removed { continue }
            if let replayedThrough, let block = log.blockNumber, block <= replayedThrough { continue }
            if try !deliver(log, warn: warn, emit: emit) { return }
        }
        throw WatchError("connection to \(transport.endpoint) lost: \(await transport.endReason ?? "closed")")
    }

    /// Asks for the head every `interval` and for the logs of the blocks mined since.
    private func poll(every interval: Duration, warn: (String) -> Void, emit: (RecordedCarChainEvent) -> Bool) async throws {
        var next: UInt64
        if let fromBlock {
            next = fromBlock
        } else {
            let head = try await client.blockNumber()
            guard head < UInt64.max else { return }
            next = head + 1
        }
        while true {
            let head = try await client.blockNumber()
            if head >= next {
                if try await !replay(next...head, warn: warn, emit: emit) { return }
                guard head < UInt64.max else { return }
                next = head + 1
            }
            try await Task.sleep(for: interval)
        }
    }

    /// The events of `blocks`, a bounded range per request.
    private func replay(_ blocks: ClosedRange<UInt64>, warn: (String) -> Void, emit: (RecordedCarChainEvent) -> Bool) async throws -> Bool {
        var first = blocks.lowerBound
        while first <= blocks.upperBound {
            let (sum, overflow) = first.addingReportingOverflow(Self.maxRange - 1)
            let last = overflow ? blocks.upperBound : min(sum, blocks.upperBound)
            let logs = try await client.logs(LogFilter(fromBlock: .number(first), toBlock: .number(last), addresses: [contract]))
            let ordered = logs.filter { !$0.removed }.sorted {
                ($0.blockNumber ?? 0, $0.logIndex ?? 0) < ($1.blockNumber ?? 0, $1.logIndex ?? 0)
            }
            for log in ordered where try !deliver(log, warn: warn, emit: emit) { return false }
            guard last < blocks.upperBound else { break }
            first = last + 1
        }
        return true
    }

    /// Decodes and passes on one log; false when `emit` wants no more.
    private func deliver(_ log: RPCLog, warn: (String) -> Void, emit: (RecordedCarChainEvent) -> Bool) throws -> Bool {
        let record: RecordedCarChainEvent?
        do {
            record = try RecordedCarChainEvent(log: log)
        } catch {
            warn("skipped a log in block \(log.blockNumber.map(String.init) ?? "?") that is not a valid CarChain event: \(error)")
            return true
        }
        guard let record else { return true }
        return emit(record)
    }
}
