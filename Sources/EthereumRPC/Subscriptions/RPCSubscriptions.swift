import EthereumPrimitives
import EthereumWire

/// Where a subscription's news comes from: a connection that pushes `eth_subscription` notifications (WebSocket,
/// or a node in this process), opened again after it drops, or polling a node that pushes nothing (HTTP).
public struct SubscriptionSource: Sendable {
    /// How news arrives.
    public enum Kind: Sendable {
        /// A connection opened by the closure (once, then again after each drop).
        case connection(@Sendable () async throws -> any SubscribingTransport)
        /// `eth_blockNumber` (and `eth_getLogs` or `eth_getBlockByNumber`) every `interval`.
        case polling(RPCClient, interval: Duration)
    }

    /// For messages: the URL or name of the node.
    public let endpoint: String
    /// How news arrives.
    public let kind: Kind

    public init(endpoint: String, kind: Kind) {
        self.endpoint = endpoint
        self.kind = kind
    }

    /// `ws://` or `wss://` (a new ``WebSocketTransport`` per connection; `timeout` bounds opening it and each request).
    public static func webSocket(url: String, timeout: Double = 30) -> SubscriptionSource {
        SubscriptionSource(endpoint: url, kind: .connection { try await WebSocketTransport.connect(url: url, timeout: timeout) })
    }

    /// Any connection that pushes notifications, opened by `open`.
    public static func connection(endpoint: String, open: @escaping @Sendable () async throws -> any SubscribingTransport) -> SubscriptionSource {
        SubscriptionSource(endpoint: endpoint, kind: .connection(open))
    }

    /// Polling `client` every `interval` (a node without notifications). Pending transactions cannot be polled.
    public static func polling(_ client: RPCClient, interval: Duration = .seconds(1)) -> SubscriptionSource {
        SubscriptionSource(endpoint: client.endpoint, kind: .polling(client, interval: interval))
    }
}

/// How a dropped connection is reopened: up to `maxAttempts` attempts in a row, waiting `initialDelay` seconds
/// before the first and doubling up to `maxDelay`. A successful resubscription starts the count again.
public struct ReconnectPolicy: Sendable, Hashable {
    /// Failed attempts in a row before the stream fails (0: the first drop fails it).
    public var maxAttempts: Int
    /// Seconds before the first attempt.
    public var initialDelay: Double
    /// The longest wait between attempts, in seconds.
    public var maxDelay: Double

    public init(maxAttempts: Int, initialDelay: Double = 0.1, maxDelay: Double = 5) {
        self.maxAttempts = Swift.max(0, maxAttempts)
        self.initialDelay = initialDelay.isFinite ? Swift.min(Swift.max(0, initialDelay), 3600) : 0
        self.maxDelay = maxDelay.isFinite ? Swift.min(Swift.max(self.initialDelay, maxDelay), 3600) : self.initialDelay
    }

    /// Never: the first drop ends the stream with ``SubscriptionError/connectionLost(endpoint:reason:attempts:)``.
    public static let none = ReconnectPolicy(maxAttempts: 0)
    /// Eight attempts over about 16 s (0.1 s, doubling, at most 5 s apart).
    public static let `default` = ReconnectPolicy(maxAttempts: 8)

    /// Seconds to wait before attempt `attempt` (1-based).
    public func delay(attempt: Int) -> Double {
        var delay = initialDelay
        for _ in 1..<Swift.max(1, Swift.min(attempt, 64)) { delay = Swift.min(delay * 2, maxDelay) }
        return delay
    }
}

/// Why a subscription stream ended.
public enum SubscriptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection dropped and could not be reopened (`attempts` reconnections failed).
    case connectionLost(endpoint: String, reason: String, attempts: Int)
    /// The node refused the subscription or a request the stream needs (a JSON-RPC error, not a dropped connection).
    case refused(endpoint: String, String)
    /// A notification the node sent does not read.
    case malformed(endpoint: String, String)
    /// The source cannot deliver this kind of subscription (pending transactions by polling).
    case unsupported(String)
    /// More blocks were missed while disconnected than a new-heads stream fetches back.
    case gapTooLarge(endpoint: String, missed: UInt64, limit: UInt64)

    public var description: String {
        switch self {
        case .connectionLost(let endpoint, let reason, let attempts):
            let tried = attempts == 0 ? "" : " (\(attempts) reconnection attempt\(attempts == 1 ? "" : "s") failed)"
            return "connection to \(endpoint) lost: \(reason)\(tried)"
        case .refused(let endpoint, let what): return "\(endpoint): \(what)"
        case .malformed(let endpoint, let what): return "\(endpoint) sent a notification that does not read: \(what)"
        case .unsupported(let what): return what
        case .gapTooLarge(let endpoint, let missed, let limit):
            return "\(endpoint): \(missed) blocks were mined while disconnected, more than the \(limit) a new-heads stream fetches back"
        }
    }
}

/// Subscriptions as `AsyncSequence`s — new blocks, logs matching a filter, pending transactions — over a
/// ``SubscriptionSource``, reconnecting and resubscribing when the connection drops (``ReconnectPolicy``).
///
/// Nothing is lost or repeated across a reconnection: a logs stream fills the gap with `eth_getLogs` from its
/// cursor (``LogFollower``) before it takes notifications again, and a new-heads stream fetches the blocks mined
/// meanwhile (at most ``maxHeadGap``). Pending transactions seen by the node while the stream was disconnected are
/// not replayed (a node has no query for them). Each stream holds its own connection, closed when the stream
/// ends or its consumer stops iterating.
///
/// Confirmations and re-orgs: a logs stream with `confirmations: 1` (the default) delivers a log as soon as its
/// block is the head; a log a re-org takes away comes again with `removed: true` (when the node says so: geth and
/// `eth_subscribe` nodes do), followed by the logs of the block that replaced it. With `confirmations: n > 1` a log
/// is delivered once `n - 1` blocks are on top of its block (read with `eth_getLogs` as each new head arrives), so
/// re-orgs shallower than `n` are never seen. A new-heads stream delivers every new head; after a re-org, the
/// replacing blocks come again with numbers already seen.
public struct RPCSubscriptions: Sendable {
    public let source: SubscriptionSource
    public var reconnect: ReconnectPolicy
    /// Blocks per `eth_getLogs` request when filling a gap or replaying.
    public var maxRange: UInt64 = 10_000
    /// The most blocks a new-heads stream fetches after a reconnection (more fails it with ``SubscriptionError/gapTooLarge(endpoint:missed:limit:)``).
    public var maxHeadGap: UInt64 = 1_024

    public init(source: SubscriptionSource, reconnect: ReconnectPolicy = .default) {
        self.source = source
        self.reconnect = reconnect
    }

    /// Subscriptions over `ws://` or `wss://`.
    public static func webSocket(url: String, timeout: Double = 30, reconnect: ReconnectPolicy = .default) -> RPCSubscriptions {
        RPCSubscriptions(source: .webSocket(url: url, timeout: timeout), reconnect: reconnect)
    }

    // MARK: Logs

    /// The logs matching `filter` (addresses and topics; its block range is ignored), in chain order: from block
    /// `fromBlock` (replayed with `eth_getLogs` first) or, when nil, those of blocks mined from now on; each one
    /// once `confirmations` blocks hold it (1: its own block).
    public func logs(_ filter: LogFilter, fromBlock: UInt64? = nil, confirmations: UInt64 = 1) -> AsyncThrowingStream<RPCLog, any Error> {
        let depth = Swift.min(Swift.max(1, confirmations), 100_000) - 1
        return Self.stream { yield in try await self.followLogs(filter, fromBlock: fromBlock, depth: depth, yield: yield) }
    }

    private func followLogs(
        _ filter: LogFilter, fromBlock: UInt64?, depth: UInt64, yield: @escaping @Sendable (RPCLog) -> Bool
    ) async throws {
        var started: LogFollower?
        let deliver: (RPCLog) async throws -> Bool = { yield($0) }
        func confirmed(_ head: UInt64) -> UInt64? { head >= depth ? head - depth : nil }
        try await withReconnection { attempt -> Bool in
            switch source.kind {
            case .polling(let client, let interval):
                var follower = try await Self.resume(started, filter, fromBlock: fromBlock, client: client, maxRange: maxRange)
                defer { started = follower }
                while true {
                    let head = try await client.blockNumber()
                    if let through = confirmed(head), try await !follower.fill(through: through, getLogs: { try await client.logs($0) }, deliver: deliver) {
                        return false
                    }
                    attempt.succeeded()
                    try await Task.sleep(for: interval)
                }
            case .connection(let open):
                let transport = try await open()
                defer { Task { await transport.close() } }
                let client = RPCClient(transport: transport, retryPolicy: .none)
                // The cursor starts at the head before subscribing, so nothing mined meanwhile is missed.
                var follower = try await Self.resume(started, filter, fromBlock: fromBlock, client: client, maxRange: maxRange)
                defer { started = follower }
                var query = filter
                query.fromBlock = nil
                query.toBlock = nil
                query.blockHash = nil
                let id = try await Self.subscribe(client, depth == 0 ? [.string("logs"), query.json] : [.string("newHeads")])
                let head = try await client.blockNumber()
                if let through = confirmed(head), try await !follower.fill(through: through, getLogs: { try await client.logs($0) }, deliver: deliver) {
                    return false
                }
                attempt.succeeded()
                for await params in transport.notifications {
                    guard params["subscription"]?.stringValue == id, let result = params["result"] else { continue }
                    if depth == 0 {
                        let log: RPCLog
                        do { log = try RPCLog(json: result) } catch { throw SubscriptionError.malformed(endpoint: source.endpoint, "\(error)") }
                        if follower.offer(log), !yield(log) { return false }
                    } else {
                        let block: RPCBlock
                        do { block = try RPCBlock(json: result, path: "newHeads") } catch {
                            throw SubscriptionError.malformed(endpoint: source.endpoint, "\(error)")
                        }
                        guard follower.head(block.number, hash: block.hash), let through = confirmed(block.number) else { continue }
                        if try await !follower.fill(through: through, getLogs: { try await client.logs($0) }, deliver: deliver) { return false }
                    }
                }
                throw TransportError.unreachable(await transport.endReason ?? "closed")
            }
        }
    }

    private static func resume(
        _ started: LogFollower?, _ filter: LogFilter, fromBlock: UInt64?, client: RPCClient, maxRange: UInt64
    ) async throws -> LogFollower {
        if let started { return started }
        return try await start(filter, fromBlock: fromBlock, client: client, maxRange: maxRange)
    }

    private static func start(_ filter: LogFilter, fromBlock: UInt64?, client: RPCClient, maxRange: UInt64) async throws -> LogFollower {
        if let fromBlock { return LogFollower(filter: filter, fromBlock: fromBlock, maxRange: maxRange) }
        let head = try await client.blockNumber()
        return LogFollower(filter: filter, fromBlock: head == .max ? head : head + 1, maxRange: maxRange)
    }

    // MARK: New heads

    /// Each new block's header (`eth_subscribe("newHeads")`, or `eth_getBlockByNumber` when polling) from now on,
    /// in order; after a reconnection, the blocks mined meanwhile are fetched first.
    public func newHeads() -> AsyncThrowingStream<RPCBlock, any Error> {
        Self.stream { yield in try await self.followHeads(yield: yield) }
    }

    private func followHeads(yield: @escaping @Sendable (RPCBlock) -> Bool) async throws {
        var last: (number: UInt64, hash: Bytes32)?
        /// Hashes of the heads delivered lately, by number: a repeated notification is not delivered twice.
        var seen: [UInt64: Bytes32] = [:]
        func deliver(_ block: RPCBlock) -> Bool {
            last = (block.number, block.hash)
            seen[block.number] = block.hash
            if seen.count > 256, let oldest = seen.keys.min() { seen[oldest] = nil }
            return yield(block)
        }
        /// Fetches and delivers the blocks after `last` through `head`; false when the consumer stopped.
        func catchUp(to head: UInt64, client: RPCClient) async throws -> Bool {
            guard let from = last?.number, head > from else { return true }
            guard head - from <= maxHeadGap else { throw SubscriptionError.gapTooLarge(endpoint: source.endpoint, missed: head - from, limit: maxHeadGap) }
            for number in (from + 1)...head {
                guard let block = try await client.block(.number(number)) else { return true }
                if !deliver(block) { return false }
            }
            return true
        }
        try await withReconnection { attempt -> Bool in
            switch source.kind {
            case .polling(let client, let interval):
                if last == nil, let block = try await client.block(.latest) {
                    last = (block.number, block.hash)
                    seen[block.number] = block.hash
                }
                while true {
                    if try await !catchUp(to: try await client.blockNumber(), client: client) { return false }
                    attempt.succeeded()
                    try await Task.sleep(for: interval)
                }
            case .connection(let open):
                let transport = try await open()
                defer { Task { await transport.close() } }
                let client = RPCClient(transport: transport, retryPolicy: .none)
                let id = try await Self.subscribe(client, [.string("newHeads")])
                if try await !catchUp(to: try await client.blockNumber(), client: client) { return false }
                attempt.succeeded()
                for await params in transport.notifications {
                    guard params["subscription"]?.stringValue == id, let result = params["result"] else { continue }
                    let block: RPCBlock
                    do { block = try RPCBlock(json: result, path: "newHeads") } catch {
                        throw SubscriptionError.malformed(endpoint: source.endpoint, "\(error)")
                    }
                    // A head already delivered (by the catch-up, or notified twice) is not repeated; one at a number
                    // delivered with another hash is a re-org's, and is.
                    if seen[block.number] == block.hash { continue }
                    if let previous = last, block.number > previous.number + 1 {
                        if try await !catchUp(to: block.number - 1, client: client) { return false }
                    }
                    if !deliver(block) { return false }
                }
                throw TransportError.unreachable(await transport.endReason ?? "closed")
            }
        }
    }

    // MARK: Pending transactions

    /// The hashes of transactions the node accepts into its pool (`eth_subscribe("newPendingTransactions")`), from
    /// now on. Needs a connection that pushes notifications; those accepted while disconnected are not replayed.
    public func pendingTransactions() -> AsyncThrowingStream<Bytes32, any Error> {
        Self.stream { yield in try await self.followPending(yield: yield) }
    }

    private func followPending(yield: @escaping @Sendable (Bytes32) -> Bool) async throws {
        guard case .connection(let open) = source.kind else {
            throw SubscriptionError.unsupported("\(source.endpoint) is polled: pending transactions need a connection that pushes them (ws://)")
        }
        try await withReconnection { attempt -> Bool in
            let transport = try await open()
            defer { Task { await transport.close() } }
            let client = RPCClient(transport: transport, retryPolicy: .none)
            let id = try await Self.subscribe(client, [.string("newPendingTransactions")])
            attempt.succeeded()
            for await params in transport.notifications {
                guard params["subscription"]?.stringValue == id, let result = params["result"] else { continue }
                let hash: Bytes32
                do { hash = try result.wireBytes32("transaction hash") } catch {
                    throw SubscriptionError.malformed(endpoint: source.endpoint, "\(error)")
                }
                if !yield(hash) { return false }
            }
            throw TransportError.unreachable(await transport.endReason ?? "closed")
        }
    }

    // MARK: Machinery

    /// Counts the failed attempts in a row (a successful subscription starts again).
    final class Attempts: @unchecked Sendable {  // used by one task at a time
        var failures = 0
        func succeeded() { failures = 0 }
    }

    /// Runs `body` (one connection's life) until it returns (false: the consumer stopped; true: done), reopening
    /// after transport failures as the policy allows. JSON-RPC errors and malformed notifications end the stream.
    private func withReconnection(_ body: (Attempts) async throws -> Bool) async throws {
        let attempts = Attempts()
        while true {
            if Task.isCancelled { return }
            do {
                _ = try await body(attempts)
                return
            } catch {
                if Task.isCancelled || error is CancellationError { return }
                let reason: String
                switch error {
                case let error as SubscriptionError: throw error
                case let error as TransportError:
                    if error == .cancelled { return }
                    reason = error.description
                case let error as RPCError:
                    guard case .transport(let failure, _, _) = error else { throw SubscriptionError.refused(endpoint: source.endpoint, "\(error)") }
                    if failure == .cancelled { return }
                    reason = failure.description
                default:
                    reason = "\(error)"
                }
                attempts.failures += 1
                guard attempts.failures <= reconnect.maxAttempts else {
                    throw SubscriptionError.connectionLost(endpoint: source.endpoint, reason: reason, attempts: attempts.failures - 1)
                }
                do { try await Task.sleep(for: .milliseconds(Int64(reconnect.delay(attempt: attempts.failures) * 1000))) } catch { return }
            }
        }
    }

    /// `eth_subscribe(params…)`: the subscription id.
    private static func subscribe(_ client: RPCClient, _ params: [JSONValue]) async throws -> String {
        let answer = try await client.request("eth_subscribe", params)
        guard let id = answer.stringValue, !id.isEmpty else {
            throw SubscriptionError.malformed(endpoint: client.endpoint, "eth_subscribe answered \(answer), not a subscription id")
        }
        return id
    }

    /// A stream fed by `run` in a task of its own, cancelled when the consumer stops iterating.
    private static func stream<Element: Sendable>(
        _ run: @escaping @Sendable (_ yield: @escaping @Sendable (Element) -> Bool) async throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let task = Task {
            do {
                try await run { element in
                    if case .terminated = continuation.yield(element) { return false }
                    return true
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
