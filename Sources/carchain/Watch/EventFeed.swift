import CarChainKit
import EthereumPrimitives
import EthereumRPC
import EthereumWire
import Foundation

/// Why watching stopped.
struct WatchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The CarChain contract's events in chain order: the past ones from `fromBlock`, then each new one as its block is
/// mined, until `emit` says enough or the connection is lost for good. The following itself — subscribing or
/// polling, filling gaps with `eth_getLogs`, reconnecting — is EthereumRPC's ``RPCSubscriptions``.
struct EventFeed {
    let subscriptions: RPCSubscriptions
    let contract: Address
    /// Replays the events from this block first; nil for new events only.
    let fromBlock: UInt64?

    /// Runs until `emit` returns false (then returns normally) or the connection is lost for good (then throws).
    /// `warn` reports a log of the contract that does not decode as a CarChain event (it is skipped).
    func run(warn: (String) -> Void, emit: (RecordedCarChainEvent) -> Bool) async throws {
        let logs = subscriptions.logs(LogFilter(addresses: [contract]), fromBlock: fromBlock)
        do {
            for try await log in logs where !log.removed {
                let record: RecordedCarChainEvent?
                do {
                    record = try RecordedCarChainEvent(log: log)
                } catch {
                    warn("skipped a log in block \(log.blockNumber.map(String.init) ?? "?") that is not a valid CarChain event: \(error)")
                    continue
                }
                guard let record else { continue }
                if !emit(record) { return }
            }
        } catch let error as SubscriptionError {
            throw WatchError(error.description)
        }
        throw WatchError("connection to \(subscriptions.source.endpoint) ended")
    }
}
