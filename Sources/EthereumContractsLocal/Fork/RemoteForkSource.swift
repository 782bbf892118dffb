import Chain
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire
import Foundation

/// The fork remote over JSON-RPC (``ForkRemote``), shared by `carchain node --fork-url`, the CLI's rehearsals
/// (`carchain rent … --fork-url`) and EthereumTesting's forked `TestChain`. Every fetch is one JSON-RPC batch:
/// `eth_chainId`, then `eth_getBalance`, `eth_getTransactionCount` and `eth_getCode` per account, `eth_getStorageAt`
/// per slot, `eth_getBlockByNumber` per block hash. State is always read at the fork block *by hash* (an EIP-1898 `{"blockHash": …}` parameter), never
/// `latest` or a number: a remote that reorganised, was replaced or pruned that block answers an error instead of
/// another block's state, and the chain id in the same batch catches a remote that became another chain.
///
/// Only reads are sent. The client's ``RetryPolicy`` repeats a batch after a dropped connection, a timeout, HTTP 429
/// (waiting as long as its `Retry-After` asks, up to 30 s) or 5xx, with exponential backoff; a batch whose items
/// came back rate-limited (JSON-RPC code 429 or -32005) is sent again the same way. Every request has a deadline, so
/// a remote that stops answering costs a bounded wait and a clear error.
public struct RemoteForkSource: ForkRemote {
    let client: RPCClient
    /// The fork block.
    let point: ForkPoint
    /// How the fork was opened (for ``reopen(url:blockNumber:)``).
    let settings: ForkSettings

    /// The remote's address for messages: scheme, host and port only (a provider's API key in the path or query, and
    /// any user and password, stay out of logs and errors).
    public var endpoint: String { Self.displayed(settings.url) }

    /// Retries for the fork's reads: 5 attempts, 0.25 s doubling to 4 s (or the remote's `Retry-After`, up to 30 s),
    /// timeouts included.
    public static let retryPolicy = RetryPolicy(
        maxAttempts: 5, initialDelay: 0.25, multiplier: 2, maxDelay: 4, retryOnTimeout: true, maxRetryAfter: 30)

    /// Connects as `settings` say: reads the remote's chain id (checked against ``ForkSettings/chainID``) and the
    /// fork block (``ForkSettings/blockNumber``, or the remote's latest), whose hash must be the hash of the header as
    /// decoded. Both go in one batch when the block number is given.
    static func connect(_ settings: ForkSettings) async throws(ForkError) -> (RemoteForkSource, ForkPoint) {
        let client = try makeClient(settings)
        let endpoint = displayed(settings.url)
        let tag: JSONValue = settings.blockNumber.map { .string(Quantity.encode($0)) } ?? .string("latest")
        let calls = [
            RPCMethodCall<JSONValue>(method: "eth_chainId", params: [], isIdempotent: true) { $0 },
            RPCMethodCall<JSONValue>(method: "eth_getBlockByNumber", params: [tag, .bool(false)], isIdempotent: true) { $0 },
        ]
        let answers: [Result<JSONValue, RPCError>]
        do { answers = try await client.batch(calls) } catch { throw map(error, endpoint: endpoint) }
        let chainId: UInt64
        let json: JSONValue
        do {
            chainId = try answers[0].get().wireUInt64("chain id")
            json = try answers[1].get()
        } catch let error as RPCError {
            throw map(error, endpoint: endpoint)
        } catch {
            throw .malformed(method: "eth_chainId", reason: (error as? WireError)?.what ?? "\(error)")
        }
        if let expected = settings.chainID, expected != chainId { throw .wrongChain(expected: expected, remote: chainId) }
        if json.isNull {
            throw .blockNotAvailable("the remote has no block \(settings.blockNumber.map(String.init) ?? "latest") (its chain is shorter)")
        }
        let (header, hash): (BlockHeader, Bytes32)
        do { (header, hash) = try Self.header(json) } catch { throw .malformed(method: "eth_getBlockByNumber", reason: error.what) }
        if let wanted = settings.blockNumber, header.number != wanted {
            throw .malformed(method: "eth_getBlockByNumber", reason: "asked for block \(wanted), got block \(header.number)")
        }
        let point = ForkPoint(chainId: chainId, header: header, hash: hash)
        try settings.verify(point, unknownFields: Self.unknownHeaderFields(json))
        return (RemoteForkSource(client: client, point: point, settings: settings), point)
    }

    /// A source for the fork block `point` (from a cache file) that has not contacted the remote.
    static func offline(_ settings: ForkSettings, point: ForkPoint) throws(ForkError) -> RemoteForkSource {
        RemoteForkSource(client: try makeClient(settings), point: point, settings: settings)
    }

    private static func makeClient(_ settings: ForkSettings) throws(ForkError) -> RPCClient {
        if let transport = settings.transport { return RPCClient(transport: transport, retryPolicy: retryPolicy) }
        do { return try RPCClient(url: settings.url, timeout: settings.timeout, retryPolicy: retryPolicy) } catch {
            throw .unreachable(endpoint: displayed(settings.url), reason: error.reason)
        }
    }

    /// The block parameter of every state read: the fork block by hash (EIP-1898).
    var at: JSONValue { .object([("blockHash", .string(point.hash.hexString))]) }

    public func fetch(_ request: ForkFetchRequest) async throws(ForkError) -> ForkFetchResult {
        var calls: [RPCMethodCall<JSONValue>] = []
        func read(_ method: String, _ params: [JSONValue]) {
            calls.append(RPCMethodCall(method: method, params: params, isIdempotent: true) { $0 })
        }
        read("eth_chainId", [])
        for address in request.accounts {
            let a = JSONValue.string(address.lowercasedHex)
            read("eth_getBalance", [a, at])
            read("eth_getTransactionCount", [a, at])
            read("eth_getCode", [a, at])
        }
        for slot in request.slots {
            read("eth_getStorageAt", [.string(slot.address.lowercasedHex), .string(Quantity.encode(slot.key)), at])
        }
        for number in request.blockHashes { read("eth_getBlockByNumber", [.string(Quantity.encode(number)), .bool(false)]) }
        let answers = try await self.answers(calls)
        // The chain id first: a remote that became another chain also refuses the reads at a block it never had.
        let chainId: UInt64
        do { chainId = try answers[0].get().wireUInt64("chain id") } catch {
            if let error = error as? RPCError { throw Self.map(error, endpoint: endpoint) }
            throw .malformed(method: "eth_chainId", reason: (error as? WireError)?.what ?? "\(error)")
        }
        if chainId != point.chainId { throw .wrongChain(expected: point.chainId, remote: chainId) }
        var values: [JSONValue] = []
        for answer in answers {
            switch answer {
            case .success(let json): values.append(json)
            case .failure(let error): throw Self.mapRead(error, endpoint: endpoint, point: point)
            }
        }
        var result = ForkFetchResult()
        var i = 1
        do throws(WireError) {
            for address in request.accounts {
                let balance = try values[i].wireUInt256("balance")
                let nonce = try values[i + 1].wireUInt64("nonce")
                let code = try values[i + 2].wireBytes("code")
                i += 3
                let empty = balance.isZero && nonce == 0 && code.isEmpty
                result.accounts[address] = empty ? .some(nil) : RemoteAccount(nonce: nonce, balance: balance, code: code)
            }
            for slot in request.slots {
                let bytes = try values[i].wireBytes("storage word")
                i += 1
                guard bytes.count <= 32 else { throw WireError("storage word of \(bytes.count) bytes") }
                result.slots[slot] = UInt256(truncatingBigEndian: bytes)
            }
            for number in request.blockHashes {
                let json = values[i]
                i += 1
                if json.isNull { throw WireError("no block \(number)") }
                result.blockHashes[number] = try json.wireObject("block").bytes32("hash")
            }
        } catch {
            if error.what.hasPrefix("no block ") { throw .blockNotAvailable("the remote has \(error.what) (before the fork block)") }
            throw .malformed(method: "a batch of \(calls.count) reads", reason: error.what)
        }
        return result
    }

    /// The answers to a batch, in order: the batch is sent again (with the retry policy's backoff) while the remote
    /// answers some of its items with a rate-limit error.
    private func answers(_ calls: [RPCMethodCall<JSONValue>]) async throws(ForkError) -> [Result<JSONValue, RPCError>] {
        var retry = 0
        while true {
            let answers: [Result<JSONValue, RPCError>]
            do { answers = try await client.batch(calls) } catch { throw Self.map(error, endpoint: endpoint) }
            let limited = answers.lazy.compactMap { answer -> RPCError? in
                if case .failure(let error) = answer, Self.isRateLimit(error) { return error }
                return nil
            }.first
            guard let limited else { return answers }
            retry += 1
            guard retry < Self.retryPolicy.maxAttempts else {
                throw .unreachable(endpoint: endpoint, reason: "rate limited after \(retry) attempts: \(limited.nodeMessage ?? "\(limited)")")
            }
            let delay = Self.retryPolicy.delay(beforeRetry: retry, random: Double.random(in: 0..<1))
            do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch {
                throw .unreachable(endpoint: endpoint, reason: "cancelled while rate limited")
            }
        }
    }

    public func accessList(for call: CallRequest) async throws(ForkError) -> [AccessListEntry]? {
        let json: JSONValue
        do {
            json = try await client.request("eth_createAccessList", [call.json, at], idempotent: true)
        } catch {
            // The remote cannot say (no such method, or the call reverts there): no hint, the misses are fetched instead.
            if case .jsonRPC = error { return nil }
            if case .reverted = error { return nil }
            throw Self.map(error, endpoint: endpoint)
        }
        guard let list = try? json.wireObject("access list result").required("accessList").wireArray("accessList") else { return nil }
        var entries: [AccessListEntry] = []
        for item in list {
            guard let object = try? item.wireObject("entry"), let address = try? object.required("address").wireAddress("address"),
                let keys = try? object.required("storageKeys").wireArray("storageKeys")
            else { return nil }
            entries.append(AccessListEntry(address: address, storageKeys: keys.compactMap { try? $0.wireBytes32("key") }))
        }
        return entries
    }

    public func forward(method: String, params: [JSONValue]) async throws(ForkError) -> JSONValue {
        do { return try await client.request(method, params, idempotent: true) } catch { throw Self.map(error, endpoint: endpoint) }
    }

    public func reopen(url: String?, blockNumber: UInt64?) async throws(ForkError) -> ForkCache {
        var next = settings
        if let url {
            next.url = url
            next.transport = nil  // another node: over HTTP
        }
        next.blockNumber = blockNumber
        // The running chain keeps its chain id: the new remote must have it.
        next.chainID = point.chainId
        return try await next.open()
    }

    // MARK: Errors

    /// A failed call as the fork's error: the transport's failures are "unreachable", the remote's answers "refused".
    static func map(_ error: RPCError, endpoint: String) -> ForkError {
        switch error {
        case .transport(let transport, _, _): return .unreachable(endpoint: endpoint, reason: transport.description)
        case .jsonRPC(let code, let message, _, let method): return .refused(method: method, reason: "\(message) (code \(code))")
        case .decoding(let method, let what): return .malformed(method: method, reason: what)
        case .reverted(let revert): return .refused(method: revert.method, reason: revert.nodeMessage)
        }
    }

    /// A refused state read at the fork block: when the remote says it lacks the block or its state (geth's "missing
    /// trie node", "header not found", an archive-only error…), the fork block is not available there — pruned, or
    /// the remote reorganised or was replaced; anything else is "refused".
    static func mapRead(_ error: RPCError, endpoint: String, point: ForkPoint) -> ForkError {
        guard case .jsonRPC(let code, let message, _, let method) = error, method != "eth_chainId" else { return map(error, endpoint: endpoint) }
        let text = message.lowercased()
        let lacksState = [
            "missing trie node", "header not found", "unknown block", "block not found", "pruned", "historical state",
            "state not found", "state not available", "state is not available", "state histories", "no state available",
        ].contains { text.contains($0) }
        guard lacksState else { return map(error, endpoint: endpoint) }
        return .blockNotAvailable(
            "the remote has no state for block \(point.number) (\(point.hash)) any more: \(message) (code \(code)); it pruned it, "
                + "reorganised or is another chain: fork a recent block, or use an archive node")
    }

    /// True for an item the remote refused only for now: JSON-RPC 429, or -32005 ("limit exceeded", as Infura and
    /// geth's rate limiting answer).
    static func isRateLimit(_ error: RPCError) -> Bool {
        guard case .jsonRPC(let code, let message, _, _) = error else { return false }
        if code == 429 { return true }
        let text = message.lowercased()
        return code == -32005 && (text.contains("limit") || text.contains("rate"))
    }

    /// `url` without what may be a secret: user and password, path and query (`https://mainnet.example.io/…`).
    public static func displayed(_ url: String) -> String {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host else { return "the fork remote" }
        let port = parts.port.map { ":\($0)" } ?? ""
        let hidden = !(parts.path.isEmpty || parts.path == "/") || parts.query != nil || parts.user != nil
        return "\(scheme)://\(host)\(port)\(hidden ? "/…" : "")"
    }

    /// The members of a block object that are no header field, body or summary this node knows: an L2's additions
    /// (Arbitrum's `l1BlockNumber`, `sendRoot`…, which its hash does not cover) or a newer fork's header fields (which
    /// it does), sorted.
    static func unknownHeaderFields(_ json: JSONValue) -> [String] {
        guard case .object(let members) = json else { return [] }
        return members.map(\.key).filter { !knownBlockMembers.contains($0) }.sorted()
    }

    /// What a block object holds that this node reads or knows to be no header field.
    static let knownBlockMembers: Set<String> = [
        "number", "hash", "parentHash", "nonce", "sha3Uncles", "logsBloom", "transactionsRoot", "stateRoot", "receiptsRoot",
        "miner", "difficulty", "totalDifficulty", "extraData", "size", "gasLimit", "gasUsed", "timestamp", "transactions",
        "uncles", "mixHash", "baseFeePerGas", "withdrawalsRoot", "withdrawals", "blobGasUsed", "excessBlobGas",
        "parentBeaconBlockRoot", "requestsHash",
    ]

    /// A block's header from its JSON form, with the hash the remote reported.
    static func header(_ json: JSONValue) throws(WireError) -> (BlockHeader, Bytes32) {
        let o = try json.wireObject("block")
        let bloomBytes = try o.bytes("logsBloom")
        guard let bloom = Bloom(bytes: bloomBytes) else { throw WireError("block.logsBloom: \(bloomBytes.count) bytes, not 256") }
        let nonceBytes = try o.optionalBytes("nonce") ?? []
        guard nonceBytes.count <= 8 else { throw WireError("block.nonce: more than 8 bytes") }
        let header = BlockHeader(
            parentHash: try o.bytes32("parentHash"), ommersHash: try o.bytes32("sha3Uncles"), coinbase: try o.address("miner"),
            stateRoot: try o.bytes32("stateRoot"), transactionsRoot: try o.bytes32("transactionsRoot"),
            receiptsRoot: try o.bytes32("receiptsRoot"), logsBloom: bloom, difficulty: try o.uint256("difficulty"),
            number: try o.uint64("number"), gasLimit: try o.uint64("gasLimit"), gasUsed: try o.uint64("gasUsed"),
            timestamp: try o.uint64("timestamp"), extraData: try o.bytes("extraData"),
            mixHash: try o.optionalBytes32("mixHash") ?? .zero,
            nonce: nonceBytes.reduce(0) { $0 << 8 | UInt64($1) },
            baseFeePerGas: try o.optionalUInt256("baseFeePerGas"), withdrawalsRoot: try o.optionalBytes32("withdrawalsRoot"),
            blobGasUsed: try o.optionalUInt64("blobGasUsed"), excessBlobGas: try o.optionalUInt64("excessBlobGas"),
            parentBeaconBlockRoot: try o.optionalBytes32("parentBeaconBlockRoot"), requestsHash: try o.optionalBytes32("requestsHash"))
        return (header, try o.bytes32("hash"))
    }
}
