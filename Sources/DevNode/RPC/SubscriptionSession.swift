import Chain
import EthereumPrimitives
import EthereumWire
import Foundation

/// One WebSocket connection's subscriptions (`eth_subscribe`, `eth_unsubscribe`), as geth serves them:
/// `newHeads` (each new block's header), `logs` (each new log matching an address and topic filter, one
/// notification per log), `newPendingTransactions` (hashes, or whole transactions when the second parameter is
/// `true`) and `syncing` (a dev node never syncs: accepted, never notified). Notifications go out as
/// `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":ID,"result":…}}`.
///
/// Everything the connection sends — answers and notifications — goes through one bounded queue
/// (``SubscriptionSession/Limits/maxQueuedMessages``). A subscriber that does not read fast enough fills it — or
/// falls so far behind the chain that blocks are skipped (the chain keeps the newest 1,024 per subscriber) — and
/// the session then stops (``overflowed``): the server closes the connection with ``closeReason`` instead of
/// buffering without end or silently missing blocks. Subscriptions end with their connection (``close()``).
public actor SubscriptionSession {
    /// Bounds per connection.
    public struct Limits: Sendable {
        /// Messages waiting to be written at most; one more closes the connection.
        public var maxQueuedMessages: Int
        /// Subscriptions at once at most.
        public var maxSubscriptions: Int

        /// 10,000 queued messages and 1,000 subscriptions.
        public init(maxQueuedMessages: Int = 10_000, maxSubscriptions: Int = 1_000) {
            self.maxQueuedMessages = maxQueuedMessages
            self.maxSubscriptions = maxSubscriptions
        }
    }

    let chain: DevChain
    let limits: Limits
    let headTexts: HeadTextCache
    private let outbox: AsyncStream<String>.Continuation
    private var tasks: [String: Task<Void, Never>] = [:]
    /// Why the connection is to be closed (the subscriber fell behind); nil while it keeps up.
    public private(set) var closeReason: String?
    /// True once the subscriber fell behind: nothing more is queued and the connection is to be closed.
    public var overflowed: Bool { closeReason != nil }
    private var nextID: UInt64

    /// A session whose messages are read from ``messages``.
    public let messages: AsyncStream<String>

    /// A session on `chain`; the server passes every connection the same `headTexts`, so each block's header is
    /// encoded once for all `newHeads` subscribers.
    public init(chain: DevChain, limits: Limits = Limits(), headTexts: HeadTextCache = HeadTextCache()) {
        self.chain = chain
        self.limits = limits
        self.headTexts = headTexts
        (messages, outbox) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(Swift.max(1, limits.maxQueuedMessages)))
        nextID = UInt64.random(in: 1...UInt64.max >> 8)
    }

    /// Queues a message for the connection; false (and the session overflowed) when the queue is full.
    @discardableResult
    public func send(_ text: String) -> Bool {
        guard !overflowed else { return false }
        if case .dropped = outbox.yield(text) {
            fellBehind("subscriber too slow: more than \(limits.maxQueuedMessages) messages waiting")
            return false
        }
        return true
    }

    /// Stops the session because the subscriber cannot keep up.
    func fellBehind(_ reason: String) {
        guard closeReason == nil else { return }
        closeReason = reason
        outbox.finish()
        cancelAll()
    }

    /// Checks that a subscription saw every block: a jump in numbers means the chain's per-subscriber buffer
    /// dropped blocks while this connection lagged. (After `evm_revert` numbers go back: that is no gap.)
    private func gapless(_ number: UInt64, after last: UInt64?) -> Bool {
        guard let last, last < UInt64.max, number > last + 1 else { return true }
        fellBehind("subscriber too slow: missed blocks \(last + 1) to \(number - 1)")
        return false
    }

    /// Ends every subscription and the queue (the connection closed).
    public func close() {
        cancelAll()
        outbox.finish()
    }

    private func cancelAll() {
        for task in tasks.values { task.cancel() }
        tasks = [:]
    }

    /// The number of live subscriptions.
    public var count: Int { tasks.count }

    /// `eth_subscribe` / `eth_unsubscribe`.
    func call(_ method: String, params: JSONValue?) async throws(JSONRPCErrorObject) -> JSONValue {
        let p = try RPCParams(params)
        if method == "eth_unsubscribe" {
            try p.expect(1, 1)
            guard case .string(let id)? = p.optional(0) else { throw .invalidParams("invalid argument 0: expected a subscription id") }
            guard let task = tasks.removeValue(forKey: id) else { return .bool(false) }
            task.cancel()
            return .bool(true)
        }
        try p.expect(1, 2)
        guard case .string(let kind)? = p.optional(0) else { throw .invalidParams("invalid argument 0: expected a subscription name") }
        guard tasks.count < limits.maxSubscriptions else {
            throw JSONRPCErrorObject(code: -32000, message: "too many subscriptions on this connection (\(limits.maxSubscriptions))")
        }
        let id = Quantity.encode(nextID)
        nextID &+= 1
        let chain = self.chain
        switch kind {
        case "newHeads":
            try p.expect(1, 1)
            let heads = await chain.newHeads()
            let headTexts = self.headTexts
            tasks[id] = Task { [weak self] in
                var last: UInt64?
                for await block in heads {
                    guard let self, await self.gapless(block.number, after: last) else { return }
                    last = block.number
                    guard await self.notify(id, text: headTexts.text(for: block)) else { return }
                }
            }
        case "logs":
            var filter = p.optional(1) == nil ? LogFilter() : try p.logFilter(1)
            filter.fromBlock = nil
            filter.toBlock = nil
            let heads = await chain.newHeads()
            let matching = filter
            tasks[id] = Task { [weak self] in
                var last: UInt64?
                for await block in heads {
                    guard let self, await self.gapless(block.number, after: last) else { return }
                    last = block.number
                    guard let receipts = try? await chain.receipts(.hash(block.hash)) else { continue }
                    for receipt in receipts {
                        for entry in receipt.logs where matching.matches(entry.log) {
                            guard await self.notify(id, NodeWire.log(entry)) else { return }
                        }
                    }
                }
            }
        case "newPendingTransactions":
            let full = p.optional(1) == nil ? false : try p.bool(1)
            let pending = await chain.newPendingTransactions()
            tasks[id] = Task { [weak self] in
                for await item in pending {
                    let result =
                        full
                        ? NodeWire.transaction(item.transaction, location: TransactionLocation(sender: item.sender), baseFee: nil)
                        : NodeWire.hash(item.transaction.hash)
                    guard let self, await self.notify(id, result) else { return }
                }
            }
        case "syncing":
            try p.expect(1, 1)
            tasks[id] = Task {}
        default:
            throw .invalidParams("invalid argument 0: unknown subscription \(kind.prefix(40)) (newHeads, logs, newPendingTransactions, syncing)")
        }
        return .string(id)
    }

    /// Queues one notification; false when the subscription should stop (cancelled, or the queue overflowed).
    private func notify(_ id: String, _ result: JSONValue) -> Bool {
        notify(id, text: result.description)
    }

    /// Queues one notification whose result is already JSON text (the id is a hex quantity: nothing to escape).
    private func notify(_ id: String, text result: String) -> Bool {
        guard tasks[id] != nil, !Task.isCancelled else { return false }
        return send(#"{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"\#(id)","result":\#(result)}}"#)
    }
}

/// The newest block's `newHeads` result as JSON text. With 1,000 subscribers a block's header was encoded 1,000
/// times, most of the time from mining to the last notification; shared by the server's connections, the first
/// subscription to see a block encodes it and the others reuse the text.
public final class HeadTextCache: @unchecked Sendable {  // `last` is only touched under `lock`
    private let lock = NSLock()
    private var last: (hash: Bytes32, text: String)?

    public init() {}

    func text(for block: Block) -> String {
        if let cached = lock.withLock({ last }), cached.hash == block.hash { return cached.text }
        let text = NodeWire.header(block).description
        lock.withLock { last = (block.hash, text) }
        return text
    }
}
