import Chain
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire

/// The fork remote over JSON-RPC (``ForkRemote``): every fetch is one JSON-RPC batch (`eth_getBalance`,
/// `eth_getTransactionCount`, `eth_getCode` per account, `eth_getStorageAt` per slot, `eth_getBlockByNumber`
/// per block hash), always at the fork block's number, never `latest`. Only reads are sent. The client's
/// ``RetryPolicy`` repeats a batch after a dropped connection, HTTP 429 or 5xx, with exponential backoff;
/// every request has a deadline, so a remote that stops answering costs a bounded wait and a clear error.
struct RemoteForkSource: ForkRemote {
    let client: RPCClient
    let block: UInt64

    var endpoint: String { client.endpoint }

    /// Retries for the fork's reads: 5 attempts, 0.25 s doubling to 4 s, timeouts included.
    static let retryPolicy = RetryPolicy(maxAttempts: 5, initialDelay: 0.25, multiplier: 2, maxDelay: 4, retryOnTimeout: true)

    /// Connects to `url`: reads its chain id (checked against `expectedChainId`) and the fork block (`number`,
    /// or the remote's latest), whose hash must be the hash of the header as decoded.
    static func connect(
        url: String, number: UInt64?, expectedChainId: UInt64?, timeout: Double
    ) async throws(ForkError) -> (RemoteForkSource, ForkPoint) {
        let client: RPCClient
        do { client = try RPCClient(url: url, timeout: timeout, retryPolicy: retryPolicy) } catch {
            throw .unreachable(endpoint: url, reason: error.description)
        }
        let chainId: UInt64
        do { chainId = try await client.send(RPCMethods.chainID()) } catch { throw map(error, endpoint: client.endpoint) }
        if let expectedChainId, expectedChainId != chainId { throw .wrongChain(expected: expectedChainId, remote: chainId) }
        let tag: JSONValue = number.map { .string(Quantity.encode($0)) } ?? .string("latest")
        let json: JSONValue
        do { json = try await client.request("eth_getBlockByNumber", [tag, .bool(false)], idempotent: true) } catch {
            throw map(error, endpoint: client.endpoint)
        }
        if json.isNull { throw .blockNotAvailable("the remote has no block \(number.map(String.init) ?? "latest")") }
        let (header, hash): (BlockHeader, Bytes32)
        do { (header, hash) = try Self.header(json) } catch { throw .malformed(method: "eth_getBlockByNumber", reason: error.what) }
        guard header.hash == hash else {
            throw .malformed(
                method: "eth_getBlockByNumber",
                reason: "block \(header.number)'s fields hash to \(header.hash), not the reported \(hash) (a header field this node does not know?)")
        }
        return (RemoteForkSource(client: client, block: header.number), ForkPoint(chainId: chainId, header: header, hash: hash))
    }

    /// A source for `url` at `block` that has not contacted the remote (a start from a complete cache file).
    static func offline(url: String, block: UInt64, timeout: Double) throws(ForkError) -> RemoteForkSource {
        do { return RemoteForkSource(client: try RPCClient(url: url, timeout: timeout, retryPolicy: retryPolicy), block: block) } catch {
            throw .unreachable(endpoint: url, reason: error.description)
        }
    }

    func fetch(_ request: ForkFetchRequest) async throws(ForkError) -> ForkFetchResult {
        let at = JSONValue.string(Quantity.encode(block))
        var calls: [RPCMethodCall<JSONValue>] = []
        func read(_ method: String, _ params: [JSONValue]) {
            calls.append(RPCMethodCall(method: method, params: params, isIdempotent: true) { $0 })
        }
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
        let answers: [Result<JSONValue, RPCError>]
        do { answers = try await client.batch(calls) } catch { throw Self.map(error, endpoint: endpoint) }
        // Any refused item (state the remote no longer holds, a method it does not serve) fails the fetch.
        var values: [JSONValue] = []
        for answer in answers {
            switch answer {
            case .success(let json): values.append(json)
            case .failure(let error): throw Self.map(error, endpoint: endpoint)
            }
        }
        func value(_ i: Int) -> JSONValue { values[i] }
        for (offset, number) in request.blockHashes.enumerated() where values[values.count - request.blockHashes.count + offset].isNull {
            throw .blockNotAvailable("the remote has no block \(number)")
        }
        var result = ForkFetchResult()
        var i = 0
        do throws(WireError) {
            for address in request.accounts {
                let balance = try value(i).wireUInt256("balance")
                let nonce = try value(i + 1).wireUInt64("nonce")
                let code = try value(i + 2).wireBytes("code")
                i += 3
                let empty = balance.isZero && nonce == 0 && code.isEmpty
                result.accounts[address] = empty ? .some(nil) : RemoteAccount(nonce: nonce, balance: balance, code: code)
            }
            for slot in request.slots {
                let bytes = try value(i).wireBytes("storage word")
                i += 1
                guard bytes.count <= 32 else { throw WireError("storage word of \(bytes.count) bytes") }
                result.slots[slot] = UInt256(truncatingBigEndian: bytes)
            }
            for number in request.blockHashes {
                let json = try value(i)
                i += 1
                result.blockHashes[number] = try json.wireObject("block").bytes32("hash")
            }
        } catch {
            throw .malformed(method: "batch", reason: error.what)
        }
        return result
    }

    func accessList(for call: CallRequest) async throws(ForkError) -> [AccessListEntry]? {
        let json: JSONValue
        do {
            json = try await client.request(
                "eth_createAccessList", [call.json, .string(Quantity.encode(block))], idempotent: true)
        } catch {
            if case .jsonRPC = error { return nil }  // the remote cannot say: no hint
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

    func forward(method: String, params: [JSONValue]) async throws(ForkError) -> JSONValue {
        do { return try await client.request(method, params, idempotent: true) } catch { throw Self.map(error, endpoint: endpoint) }
    }

    static func map(_ error: RPCError, endpoint: String) -> ForkError {
        switch error {
        case .transport(let transport, _, _): return .unreachable(endpoint: endpoint, reason: transport.description)
        case .jsonRPC(let code, let message, _, let method): return .refused(method: method, reason: "\(message) (code \(code))")
        case .decoding(let method, let what): return .malformed(method: method, reason: what)
        case .reverted(let revert): return .refused(method: revert.method, reason: revert.nodeMessage)
        }
    }

    /// A block's header from its JSON form, with the hash the remote reported.
    static func header(_ json: JSONValue) throws(WireError) -> (BlockHeader, Bytes32) {
        let o = try json.wireObject("block")
        func opt<T>(_ key: String, _ read: (JSONValue, String) throws(WireError) -> T) throws(WireError) -> T? {
            guard let value = o.optional(key) else { return nil }
            return try read(value, o.name(key))
        }
        let bloomBytes = try o.bytes("logsBloom")
        guard let bloom = Bloom(bytes: bloomBytes) else { throw WireError("block.logsBloom: \(bloomBytes.count) bytes, not 256") }
        let nonceBytes = try opt("nonce") { v, n throws(WireError) in try v.wireBytes(n) } ?? []
        guard nonceBytes.count <= 8 else { throw WireError("block.nonce: more than 8 bytes") }
        let header = BlockHeader(
            parentHash: try o.bytes32("parentHash"), ommersHash: try o.bytes32("sha3Uncles"), coinbase: try o.required("miner").wireAddress("block.miner"),
            stateRoot: try o.bytes32("stateRoot"), transactionsRoot: try o.bytes32("transactionsRoot"),
            receiptsRoot: try o.bytes32("receiptsRoot"), logsBloom: bloom, difficulty: try o.uint256("difficulty"),
            number: try o.uint64("number"), gasLimit: try o.uint64("gasLimit"), gasUsed: try o.uint64("gasUsed"),
            timestamp: try o.uint64("timestamp"), extraData: try o.bytes("extraData"),
            mixHash: try opt("mixHash") { v, n throws(WireError) in try v.wireBytes32(n) } ?? .zero,
            nonce: nonceBytes.reduce(0) { $0 << 8 | UInt64($1) },
            baseFeePerGas: try opt("baseFeePerGas") { v, n throws(WireError) in try v.wireUInt256(n) },
            withdrawalsRoot: try opt("withdrawalsRoot") { v, n throws(WireError) in try v.wireBytes32(n) },
            blobGasUsed: try opt("blobGasUsed") { v, n throws(WireError) in try v.wireUInt64(n) },
            excessBlobGas: try opt("excessBlobGas") { v, n throws(WireError) in try v.wireUInt64(n) },
            parentBeaconBlockRoot: try opt("parentBeaconBlockRoot") { v, n throws(WireError) in try v.wireBytes32(n) },
            requestsHash: try opt("requestsHash") { v, n throws(WireError) in try v.wireBytes32(n) })
        return (header, try o.bytes32("hash"))
    }
}
