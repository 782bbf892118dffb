import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// Answers JSON-RPC 2.0 request bodies (single requests and batches) from a ``DevChain``: the
/// standard `eth_`, `net_` and `web3_` methods, filters, the `debug_trace*` methods, and the dev methods
/// of anvil and Hardhat (`evm_*`, `anvil_*`, `hardhat_*`). Bytes in, bytes out, so the same handler
/// serves HTTP (``DevNodeServer``) and in-process clients (``InProcessTransport``). Hostile input
/// (malformed or deeply nested JSON, oversized bodies and batches, wrong parameter types) gets an
/// error answer; nothing derived from a request can trap.
public final class NodeRPCHandler: Sendable {
    /// Bounds on what one request body may ask for (docs/NODE.md, "Limits").
    public struct Limits: Sendable {
        /// The largest body, in bytes.
        public var maxBodyBytes: Int
        /// The most requests in one batch.
        public var maxBatchLength: Int
        /// Gas cap and time limit of `eth_call`, `eth_estimateGas`, `eth_createAccessList` and the
        /// `debug_trace*` methods (`--rpc-gas-cap`, `--rpc-evm-timeout`).
        public var calls: CallLimits
        /// Installed filters at most; the oldest goes when one more is installed.
        public var maxFilters: Int
        /// A filter not polled for this long is removed (geth: 5 minutes).
        public var filterIdleTimeout: Duration
        /// How much one `debug_trace*` answer may hold (a block's traces share it).
        public var trace: TraceLimits
        /// A batch's answers at most (geth's `--rpc.batch-response-max-size`, 25 MB); later requests get -32003.
        public var maxBatchResponseBytes: Int
        /// How long one batch may run; later requests get -32002 (geth answers them so when its HTTP write
        /// timeout, 30 s, nears).
        public var batchTimeout: Duration
        /// How long `eth_sendRawTransactionSync` / `eth_sendTransactionSync` wait for the receipt when the request
        /// names no wait, and the longest wait a request may ask (geth's `--rpc.txsync.defaulttimeout`, 20 s, and
        /// `--rpc.txsync.maxtimeout`, 1 minute).
        public var syncSendWait: Duration
        public var maxSyncSendWait: Duration

        /// Creates limits (defaults: 5 MiB, 1000 requests, geth's call limits, 10,000 filters idle for
        /// at most 5 minutes, 100 MB of trace, 25 MB and 30 s per batch, synchronous sends waiting 20 s, at most 60 s).
        public init(
            maxBodyBytes: Int = 5 << 20, maxBatchLength: Int = 1000, calls: CallLimits = .standard,
            maxFilters: Int = 10_000, filterIdleTimeout: Duration = .seconds(300), trace: TraceLimits = .standard,
            maxBatchResponseBytes: Int = 25_000_000, batchTimeout: Duration = .seconds(30),
            syncSendWait: Duration = .seconds(20), maxSyncSendWait: Duration = .seconds(60)
        ) {
            self.syncSendWait = syncSendWait
            self.maxSyncSendWait = maxSyncSendWait
            self.maxBatchResponseBytes = maxBatchResponseBytes
            self.batchTimeout = batchTimeout
            self.maxBodyBytes = maxBodyBytes
            self.maxBatchLength = maxBatchLength
            self.calls = calls
            self.maxFilters = maxFilters
            self.filterIdleTimeout = filterIdleTimeout
            self.trace = trace
        }
    }

    /// What `web3_clientVersion` answers: it names carchain and "dev", so clients (the carchain CLI
    /// among them) recognise a development node whose dev accounts may sign.
    public static let defaultClientVersion = "carchain-dev/0.1.0/swift (carchain dev node)"

    /// The chain.
    public let chain: DevChain
    /// The limits applied to every body.
    public let limits: Limits
    /// The `web3_clientVersion` answer.
    public let clientVersion: String
    let filters: FilterRegistry
    let devKeys: [Address: PrivateKey]

    /// A handler over `chain`.
    public init(chain: DevChain, limits: Limits = Limits(), clientVersion: String = NodeRPCHandler.defaultClientVersion) {
        self.chain = chain
        self.limits = limits
        self.clientVersion = clientVersion
        self.filters = FilterRegistry(capacity: limits.maxFilters, idleTimeout: limits.filterIdleTimeout)
        var keys: [Address: PrivateKey] = [:]
        for account in chain.config.devAccounts { if let key = account.privateKey { keys[account.address] = key } }
        self.devKeys = keys
    }

    /// Answers one request body: a JSON-RPC request object or a batch (array) of them. Notifications
    /// (requests without an `id`) are executed and get no answer, as JSON-RPC 2.0 says: a body of only
    /// notifications gives an empty answer.
    ///
    /// A batch is bounded like geth's: once its answers pass ``Limits/maxBatchResponseBytes`` the remaining
    /// requests are not run and get -32003 "response too large"; once it has run for ``Limits/batchTimeout``
    /// they get -32002 "request timed out" (a batch of 1000 looping calls would otherwise hold the chain for
    /// 1000 call timeouts).
    ///
    /// `subscriptions` is the connection's subscription state on a WebSocket (`eth_subscribe`, `eth_unsubscribe`);
    /// over HTTP there is none, and those methods answer -32001 "notifications not supported", as geth does.
    public func handle(_ body: [UInt8], subscriptions: SubscriptionSession? = nil) async -> [UInt8] {
        guard body.count <= limits.maxBodyBytes else {
            return Self.bytes(Self.errorResponse(
                id: .null, .invalidRequest("body of \(body.count) bytes is larger than \(limits.maxBodyBytes) bytes")))
        }
        let document: JSONValue
        do { document = try JSONParser.parse(body) } catch {
            return Self.bytes(Self.errorResponse(id: .null, .parseError(error.description)))
        }
        guard case .array(let requests) = document else {
            return await respond(document, subscriptions: subscriptions).map(Self.bytes) ?? []
        }
        guard !requests.isEmpty else { return Self.bytes(Self.errorResponse(id: .null, .invalidRequest("empty batch"))) }
        guard requests.count <= limits.maxBatchLength else {
            return Self.bytes(Self.errorResponse(
                id: .null, .invalidRequest("batch of \(requests.count) requests is longer than \(limits.maxBatchLength)")))
        }
        // A batch of raw transactions has their senders recovered on another core while the first ones are mined; the
        // requests run in order as always, each finding its sender ready (or recovering it, if it comes first).
        let raws = requests.compactMap(Self.rawTransaction)
        if raws.count > 1 { chain.recoverSenders(raws) }
        let started = ContinuousClock.now
        var out: [UInt8] = [UInt8(ascii: "[")]
        var answered = 0
        for request in requests {
            let answer: JSONValue?
            if out.count > limits.maxBatchResponseBytes {
                answer = Self.unrun(request, JSONRPCErrorObject(code: -32003, message: "response too large"))
            } else if ContinuousClock.now - started > limits.batchTimeout {
                answer = Self.unrun(request, JSONRPCErrorObject(code: -32002, message: "request timed out"))
            } else {
                answer = await respond(request, subscriptions: subscriptions)
            }
            guard let answer else { continue }
            if answered > 0 { out.append(UInt8(ascii: ",")) }
            answer.write(into: &out)
            answered += 1
        }
        guard answered > 0 else { return [] }
        out.append(UInt8(ascii: "]"))
        return out
    }

    static func bytes(_ value: JSONValue) -> [UInt8] { value.jsonBytes }

    /// The bytes of an `eth_sendRawTransaction` request's transaction, nil for any other request (or one whose
    /// parameter is not hex: the request itself then gets the error).
    static func rawTransaction(_ request: JSONValue) -> [UInt8]? {
        guard case .object(let members) = request,
            members.contains(where: { $0.key == "method" && $0.value == .string("eth_sendRawTransaction") }),
            case .array(let params)? = members.first(where: { $0.key == "params" })?.value,
            case .string(let hex)? = params.first
        else { return nil }
        return try? Hex.decode(hex)
    }

    /// The answer to a batch request that was not run: `failure` for a request with an id, nothing for a
    /// notification (which is then not executed either).
    static func unrun(_ request: JSONValue, _ failure: JSONRPCErrorObject) -> JSONValue? {
        guard case .object(let members) = request else {
            return errorResponse(id: .null, .invalidRequest("a request must be a JSON object"))
        }
        guard let id = members.first(where: { $0.key == "id" })?.value else { return nil }
        switch id {
        case .null, .number, .string: return errorResponse(id: id, failure)
        default: return errorResponse(id: .null, .invalidRequest("id must be a number, a string or null"))
        }
    }

    /// The answer object for one request object; nil for a well-formed notification (no `id` member).
    func respond(_ request: JSONValue, subscriptions: SubscriptionSession? = nil) async -> JSONValue? {
        guard case .object(let members) = request else {
            return Self.errorResponse(id: .null, .invalidRequest("a request must be a JSON object"))
        }
        var id: JSONValue = .null
        var method: JSONValue?
        var params: JSONValue?
        var version: JSONValue?
        var isNotification = true
        for (key, value) in members {
            switch key {
            case "id":
                id = value
                isNotification = false
            case "method": method = value
            case "params": params = value
            case "jsonrpc": version = value
            default: break
            }
        }
        switch id {
        case .null, .number, .string: break
        default: return Self.errorResponse(id: .null, .invalidRequest("id must be a number, a string or null"))
        }
        if let version, version != .string("2.0") {
            return Self.errorResponse(id: id, .invalidRequest("jsonrpc must be \"2.0\""))
        }
        guard case .string(let name)? = method else {
            return Self.errorResponse(id: id, .invalidRequest("method must be a string"))
        }
        do throws(JSONRPCErrorObject) {
            let result: JSONValue
            if name == "eth_subscribe" || name == "eth_unsubscribe" {
                guard let subscriptions else {
                    throw JSONRPCErrorObject(code: -32001, message: "notifications not supported")
                }
                result = try await subscriptions.call(name, params: params)
            } else {
                result = try await runMaybeForked(name, params: params)  // Methods/ForkedRequests.swift
            }
            if isNotification { return nil }
            return .object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])
        } catch {
            return isNotification ? nil : Self.errorResponse(id: id, error)
        }
    }

    static func errorResponse(id: JSONValue, _ failure: JSONRPCErrorObject) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id), ("error", failure.json)])
    }

    /// Runs a chain operation, mapping its error to the JSON-RPC answer.
    func onChain<T>(_ body: () async throws(ChainError) -> T) async throws(JSONRPCErrorObject) -> T {
        do { return try await body() } catch { throw JSONRPCErrorObject(error) }
    }

    /// Executes one decoded request and returns its `result`.
    public func execute(_ request: RPCRequest) async throws(JSONRPCErrorObject) -> JSONValue {
        switch request {
        case .chainId: return NodeWire.q(chain.chainId)
        case .netVersion: return .string(String(chain.chainId))
        case .clientVersion: return .string(clientVersion)
        case .netListening: return .bool(true)
        case .sha3(let data): return NodeWire.hash(Keccak256.hash(data))
        case .syncing: return .bool(false)
        case .mining: return .bool(true)
        case .accounts: return .array(chain.accounts.map { NodeWire.address($0) })
        case .blockNumber: return NodeWire.q(await chain.blockNumber())
        case .gasPrice: return NodeWire.q(await chain.gasPrice())
        case .maxPriorityFeePerGas: return NodeWire.q(await chain.maxPriorityFeePerGas())
        case .config:
            // A dev chain runs one fork from genesis: nothing is scheduled, so `next` and `last` are null.
            let configs = await chain.forkConfigurations()
            return .object([
                ("current", NodeWire.forkConfiguration(configs.current)),
                ("next", configs.next.map(NodeWire.forkConfiguration) ?? .null),
                ("last", configs.last.map(NodeWire.forkConfiguration) ?? .null),
            ])
        case .getBalance(let address, let block):
            return NodeWire.q(try await onChain { () async throws(ChainError) in try await chain.balance(address, at: block) })
        case .getTransactionCount(let address, let block):
            return NodeWire.q(try await onChain { () async throws(ChainError) in try await chain.nonce(address, at: block) })
        case .getCode(let address, let block):
            return NodeWire.data(try await onChain { () async throws(ChainError) in try await chain.code(address, at: block) })
        case .getStorageAt(let address, let slot, let block):
            let value = try await onChain { () async throws(ChainError) in try await chain.storage(address, slot: slot, at: block) }
            return NodeWire.data(value.bigEndianBytes)
        case .feeHistory(let count, let newest, let percentiles):
            guard count >= 1 else { throw .invalidParams("blockCount must be at least 1") }
            let history = try await onChain { () async throws(ChainError) in
                try await chain.feeHistory(blockCount: Int(min(count, 1024)), newest: newest, rewardPercentiles: percentiles)
            }
            return NodeWire.feeHistory(history)
        case .call(let request, let block):
            let result = try await onChain { () async throws(ChainError) in try await chain.call(request, at: block, limits: limits.calls) }
            if let error = result.error { throw JSONRPCErrorObject(error) }
            return NodeWire.data(result.output)
        case .estimateGas(let request, let block):
            return NodeWire.q(try await onChain { () async throws(ChainError) in try await chain.estimateGas(request, at: block, limits: limits.calls) })
        case .createAccessList(let request, let block):
            let result = try await onChain { () async throws(ChainError) in try await chain.createAccessList(request, at: block, limits: limits.calls) }
            var members: [(key: String, value: JSONValue)] = [
                ("accessList", CallRequest.json(result.accessList)), ("gasUsed", NodeWire.q(result.gasUsed)),
            ]
            if let error = result.error { members.append(("error", .string(error.description))) }
            return .object(members)
        case .simulate(let request, let block, let full): return try await simulate(request, at: block, fullTransactions: full)
        case .getBlock(let id, let full):
            guard let block = try await onChain({ () async throws(ChainError) in try await chain.block(id) }) else { return .null }
            if case .pending = id { return NodeWire.pending(NodeWire.block(block, full: full)) }
            return NodeWire.block(block, full: full)
        case .getBlockTransactionCount(let id):
            guard let block = try await onChain({ () async throws(ChainError) in try await chain.block(id) }) else { return .null }
            return NodeWire.q(block.transactions.count)
        case .getTransactionByBlockAndIndex(let id, let index):
            guard let block = try await onChain({ () async throws(ChainError) in try await chain.block(id) }),
                index < UInt64(block.transactions.count)
            else { return .null }
            let i = Int(index)
            return NodeWire.transaction(
                block.transactions[i],
                location: TransactionLocation(
                    sender: block.senders[i], blockHash: block.hash, blockNumber: block.number, index: i,
                    blockTimestamp: block.header.timestamp),
                baseFee: block.header.baseFeePerGas)
        case .getTransactionByHash(let hash):
            guard let (signed, location) = try await onChain({ () async throws(ChainError) in try await chain.transaction(hash: hash) })
            else { return .null }
            return try await transactionJSON(signed, location)
        case .getTransactionReceipt(let hash):
            guard let receipt = try await onChain({ () async throws(ChainError) in try await chain.receipt(hash: hash) }) else { return .null }
            return NodeWire.receipt(receipt)
        case .node(let request): return try await execute(request)
        case .eth(let request): return try await execute(request)
        case .rawHeader(let id):
            return NodeWire.data(try await rawBlock(id).header.encoded)
        case .rawBlock(let id):
            return NodeWire.data(try await rawBlock(id).encoded)
        case .rawReceipts(let id):
            let receipts = try await onChain { () async throws(ChainError) in try await chain.receipts(id) }
            guard let receipts else { throw JSONRPCErrorObject(ChainError.unknownBlock("\(id)")) }
            return .array(receipts.map { NodeWire.data($0.consensusEncoding) })
        case .rawTransaction(let hash):
            let found = try await onChain { () async throws(ChainError) in try await chain.transaction(hash: hash) }
            return found.map { NodeWire.data($0.0.encoded) } ?? .null
        case .getLogs(let filter):
            return .array(try await onChain { () async throws(ChainError) in try await chain.logs(filter) }.map(NodeWire.log))
        case .sendRawTransaction(let raw):
            return NodeWire.hash(try await onChain { () async throws(ChainError) in try await chain.sendRawTransaction(raw) })
        case .sendTransaction(let request):
            return NodeWire.hash(try await onChain { () async throws(ChainError) in try await chain.sendTransaction(request) })
        case .sign(let address, let message):
            guard let key = devKeys[address] else { throw JSONRPCErrorObject(ChainError.unknownAccount(address)) }
            return NodeWire.data(PersonalMessage.sign(message, with: key).rsv)
        case .newFilter(let filter):
            // geth's filter system refuses a pending bound.
            if filter.fromBlock == .pending || filter.toBlock == .pending { throw .invalidParams("pending logs are not supported") }
            let head = await chain.blockNumber()
            return .string(await filters.install(.logs(filter), head: head))
        case .newBlockFilter:
            let head = await chain.blockNumber()
            return .string(await filters.install(.blocks, head: head))
        case .getFilterChanges(let id):
            return try await filterChanges(id)
        case .getFilterLogs(let id):
            guard let filter = await filters.filter(id) else { throw JSONRPCErrorObject(code: JSONRPCErrorCode.serverError, message: "filter not found") }
            guard case .logs(let logFilter) = filter.kind else { throw JSONRPCErrorObject(code: JSONRPCErrorCode.serverError, message: "filter \(id) is not a log filter") }
            return .array(try await onChain { () async throws(ChainError) in try await chain.logs(logFilter) }.map(NodeWire.log))
        case .uninstallFilter(let id):
            return .bool(await filters.uninstall(id))
        case .traceTransaction(let hash, let config): return try await traceTransaction(hash, config)
        case .traceCall(let request, let block, let config): return try await traceCall(request, at: block, config)
        case .getProof(let address, let keys, let block): return try await getProof(address, keys: keys, at: block)
        case .getStorageValues(let queries, let block): return try await getStorageValues(queries, at: block)
        case .getBlockReceipts(let block): return try await blockReceipts(block)
        case .baseFee: return await baseFee()
        case .blobBaseFee: return await blobBaseFee()
        case .capabilities: return try await capabilities()
        case .txpoolContent(let sender): return await txpoolContent(from: sender)
        case .txpoolStatus: return await txpoolStatus()
        case .traceBlock(let id, let config): return try await traceBlock(id, config)
        case .buildBlock(let request): return try await buildBlock(request)
        case .snapshot:
            return NodeWire.q(try await onChain { () async throws(ChainError) in try await chain.snapshot() })
        case .revert(let id):
            return .bool(try await onChain { () async throws(ChainError) in try await chain.revert(to: id) })
        case .mine(let blocks, let timestamp, let interval):
            _ = try await onChain { () async throws(ChainError) in
                try await chain.mine(blocks: blocks, timestamp: timestamp, interval: interval)
            }
            return .string("0x0")
        case .increaseTime(let seconds):
            return .number(String(try await onChain { () async throws(ChainError) in try await chain.increaseTime(seconds) }))
        case .setNextBlockTimestamp(let timestamp):
            try await onChain { () async throws(ChainError) in try await chain.setNextBlockTimestamp(timestamp) }
            return .null
        case .setAutomine(let on):
            try await onChain { () async throws(ChainError) in try await chain.setAutomine(on) }
            return .bool(true)
        case .setIntervalMining(let seconds):
            if seconds == 0 {
                try await onChain { () async throws(ChainError) in try await chain.setAutomine(true) }
            } else {
                try await onChain { () async throws(ChainError) in try await chain.setIntervalMining(Double(seconds)) }
            }
            return .bool(true)
        case .setBalance(let address, let value, let hardhat):
            try await onChain { () async throws(ChainError) in try await chain.setBalance(address, value) }
            return hardhat ? .bool(true) : .null
        case .setCode(let address, let code, let hardhat):
            try await onChain { () async throws(ChainError) in try await chain.setCode(address, code) }
            return hardhat ? .bool(true) : .null
        case .setNonce(let address, let nonce, let hardhat):
            try await onChain { () async throws(ChainError) in try await chain.setNonce(address, nonce) }
            return hardhat ? .bool(true) : .null
        case .setStorageAt(let address, let slot, let value):
            try await onChain { () async throws(ChainError) in try await chain.setStorage(address, slot: slot, value: value) }
            return .bool(true)
        }
    }

    /// `eth_getFilterChanges`: new block hashes, or new matching logs, since the last poll.
    private func filterChanges(_ id: String) async throws(JSONRPCErrorObject) -> JSONValue {
        guard let filter = await filters.filter(id) else { throw JSONRPCErrorObject(code: JSONRPCErrorCode.serverError, message: "filter not found") }
        if case .pendingTransactions = filter.kind { return await pendingTransactionChanges(id) }
        let head = await chain.blockNumber()
        guard let range = await filters.advance(id, to: head) else { return .array([]) }
        switch filter.kind {
        case .pendingTransactions: return .array([])  // answered above
        case .blocks:
            var hashes: [JSONValue] = []
            for n in range {
                if let block = try await onChain({ () async throws(ChainError) in try await chain.block(.number(n)) }) {
                    hashes.append(NodeWire.hash(block.hash))
                }
            }
            return .array(hashes)
        case .logs(var logFilter):
            if logFilter.blockHash != nil { return .array([]) }
            var from = range.lowerBound
            var to = range.upperBound
            if case .number(let first)? = logFilter.fromBlock { from = max(from, first) }
            if case .number(let last)? = logFilter.toBlock { to = min(to, last) }
            if case .earliest? = logFilter.toBlock { to = 0 }
            guard from <= to else { return .array([]) }
            logFilter.fromBlock = .number(from)
            logFilter.toBlock = .number(to)
            let lf = logFilter
            return .array(try await onChain { () async throws(ChainError) in try await chain.logs(lf) }.map(NodeWire.log))
        }
    }

    /// The block `id` names, or geth's "header not found" error.
    private func rawBlock(_ id: BlockID) async throws(JSONRPCErrorObject) -> Block {
        let block = try await onChain { () async throws(ChainError) in try await chain.block(id) }
        guard let block else { throw JSONRPCErrorObject(ChainError.unknownBlock("\(id)")) }
        return block
    }
}
