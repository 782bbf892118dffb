import Chain
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// How a forked node answers (`carchain node --fork-url`): reads of blocks up to the fork block, and of state at
/// them, are the remote's and forwarded to it; everything else runs on the local chain, which reads the fork
/// block's state through its ``ForkCache``. A run that read something not fetched yet is repeated once the
/// cache has fetched all of it in one batch (each repetition is one round trip), so an answer is always made of
/// fetched values only.
///
/// The first miss of a request that runs a call (`eth_call`, `eth_estimateGas`, `eth_createAccessList`,
/// `eth_sendTransaction`, `eth_sendRawTransaction`) also asks the remote for the call's access list
/// (`eth_createAccessList` at the fork block) and fetches every account and slot it names in the same batch as the
/// misses: a CarChain getter on a fresh fork then costs two round trips (the access list, the batch) instead of one
/// per level of its storage reads.
extension NodeRPCHandler {
    /// Runs one request, on a forked chain as described above.
    func runMaybeForked(_ name: String, params: JSONValue?) async throws(JSONRPCErrorObject) -> JSONValue {
        guard let cache = chain.forkCache else {
            return try await execute(try RPCRequest.decode(method: name, params: params))
        }
        if let forwarded = try await forwardIfRemote(name, params: params, forkBlock: cache.point.number, cache: cache) {
            return forwarded
        }
        let request = try RPCRequest.decode(method: name, params: params)
        // eth_sendTransaction fills its gas by an estimate: fault in what the estimate reads first, so the
        // estimate (run once, inside the write) sees fetched values only.
        if case .sendTransaction = request, case .array(let items)? = params, let call = items.first {
            _ = try? await runMaybeForked("eth_estimateGas", params: .array([call, .string("pending")]))
        }
        let readOnly = Self.isReadOnly(name)
        let call = Self.call(of: request)
        // A write is judged by its sender's nonce and balance before it runs (the pool queues a nonce past the one it
        // reads): read them first, so a missing sender cannot make a valid transaction wait forever for a nonce gap.
        if !readOnly, let call {
            do { try await cache.prefetch(ForkFetchRequest(accounts: [call.from, call.to].compactMap { $0 })) } catch {
                throw JSONRPCErrorObject(ChainError.fork(error))
            }
        }
        // A dev method that changes part of an account (its balance, nonce, code or a slot) would otherwise build the
        // change on what the chain holds for an account it has not read: an empty one, losing the fork block's code,
        // nonce and balance; and being a write that succeeded, it would not be repeated. Its accounts are read first.
        if let accounts = Self.accountsChangedInPart(by: request) {
            do { try await cache.prefetch(ForkFetchRequest(accounts: accounts)) } catch {
                throw JSONRPCErrorObject(ChainError.fork(error))
            }
        }
        var hinted = false
        for _ in 0..<DevChain.maxForkRounds {
            // This request's own misses, wherever its reads run (other requests' misses are theirs).
            let misses = ForkMissCounter()
            let outcome = await ForkCache.$missCounter.withValue(misses) { () async -> Result<JSONValue, JSONRPCErrorObject> in
                do throws(JSONRPCErrorObject) { return .success(try await execute(request)) } catch { return .failure(error) }
            }
            // A read is repeated after any miss; a write that succeeded is never repeated (its block was mined from
            // fetched values only: the miner abandons a block that missed, which fails the write), one that failed is.
            let failed = if case .failure = outcome { true } else { false }
            guard (readOnly || failed) && misses.misses > 0 else { return try outcome.get() }
            var hint = ForkFetchRequest()
            if !hinted, let call {
                hinted = true
                hint = try await accessListHint(call, cache)
            }
            do { try await cache.fetchMissing(with: hint) } catch { throw JSONRPCErrorObject(ChainError.fork(error)) }
        }
        throw JSONRPCErrorObject(code: -32000, message: "\(name) kept reading new fork state after \(DevChain.maxForkRounds) fetches")
    }

    /// Methods that change nothing, so running them again is harmless.
    static func isReadOnly(_ name: String) -> Bool {
        name.hasPrefix("eth_get") || name.hasPrefix("debug_trace") || name.hasPrefix("trace_")
            || ["eth_call", "eth_estimateGas", "eth_createAccessList", "eth_simulateV1", "eth_feeHistory"].contains(name)
    }

    /// The accounts a dev method changes in part (anvil's setBalance, setNonce, setCode, setStorageAt, addBalance, and the
    /// ERC-20 balance and allowance setters, whose token is called); nil for any other request.
    static func accountsChangedInPart(by request: RPCRequest) -> [Address]? {
        switch request {
        case .setBalance(let address, _, _), .setCode(let address, _, _), .setNonce(let address, _, _), .setStorageAt(let address, _, _):
            return [address]
        case .node(.addBalance(let address, _)):
            return [address]
        case .node(.dealERC20(let owner, let token, _)):
            return [owner, token]
        case .node(.setERC20Allowance(let owner, let spender, let token, _)):
            return [owner, spender, token]
        default:
            return nil
        }
    }

    /// The call a request runs, as the remote would run it for an access list; nil for requests that run none.
    static func call(of request: RPCRequest) -> CallRequest? {
        switch request {
        case .call(let call, _), .estimateGas(let call, _), .createAccessList(let call, _), .sendTransaction(let call):
            return call
        case .node(.callWithOverrides(let call, _, _)), .node(.estimateGasWithOverrides(let call, _, _)):
            return call
        case .sendRawTransaction(let raw):
            guard let signed = try? SignedTransaction.decode(raw), let sender = try? signed.sender() else { return nil }
            let tx = signed.transaction
            return CallRequest(
                from: sender, to: tx.to, gas: tx.gasLimit, value: tx.value, data: tx.data,
                accessList: tx.accessList.isEmpty ? nil : tx.accessList)
        default:
            return nil
        }
    }

    /// What to fetch with a call's first misses (``ForkCache/accessListHint(for:)``).
    func accessListHint(_ call: CallRequest, _ cache: ForkCache) async throws(JSONRPCErrorObject) -> ForkFetchRequest {
        do { return try await cache.accessListHint(for: call) } catch { throw JSONRPCErrorObject(ChainError.fork(error)) }
    }

    /// The remote's answer when the request names a block at or before the fork block, or a block or transaction by
    /// hash that the local chain does not hold; nil to run it locally. Logs over a range that starts at or before the
    /// fork block are the remote's up to it and the local chain's after.
    private func forwardIfRemote(
        _ name: String, params: JSONValue?, forkBlock: UInt64, cache: ForkCache
    ) async throws(JSONRPCErrorObject) -> JSONValue? {
        let list: [JSONValue]
        switch params {
        case .array(let items)?: list = items
        default: list = []
        }
        let blockIndex: Int
        switch name {
        case "eth_getBlockByNumber", "eth_getBlockTransactionCountByNumber",
            "eth_getTransactionByBlockNumberAndIndex", "eth_getBlockReceipts":
            blockIndex = 0
        case "eth_getBalance", "eth_getTransactionCount", "eth_getCode", "eth_call", "eth_estimateGas", "eth_createAccessList",
            "debug_traceCall":
            blockIndex = 1
        case "eth_getStorageAt", "eth_getProof":
            blockIndex = 2
        case "eth_getBlockByHash", "eth_getTransactionByHash", "eth_getTransactionReceipt", "eth_getBlockTransactionCountByHash":
            // Local first: only what the local chain does not know goes to the remote.
            let local = try await execute(try RPCRequest.decode(method: name, params: params))
            guard local.isNull else { return local }
            return try await forward(name, list, cache)
        case "eth_getLogs":
            return try await forwardLogs(list, forkBlock: forkBlock, cache: cache)
        default:
            return nil
        }
        guard blockIndex < list.count, let number = Self.blockNumber(list[blockIndex]), number <= forkBlock else { return nil }
        // eth_call and friends at a remote block with local-only options (state overrides) still go there as sent.
        return try await forward(name, list, cache)
    }

    /// `eth_getLogs` whose range starts at or before the fork block: the remote's logs up to it (the whole answer when
    /// the range ends there too), then the local chain's after it.
    private func forwardLogs(_ list: [JSONValue], forkBlock: UInt64, cache: ForkCache) async throws(JSONRPCErrorObject) -> JSONValue? {
        guard list.count == 1, case .object(let members) = list[0], members.first(where: { $0.key == "blockHash" }) == nil,
            let from = members.first(where: { $0.key == "fromBlock" }).flatMap({ Self.blockNumber($0.value) }), from <= forkBlock
        else { return nil }
        let to = members.first(where: { $0.key == "toBlock" }).flatMap { Self.blockNumber($0.value) }
        if let to, to <= forkBlock { return try await forward("eth_getLogs", list, cache) }
        func with(_ key: String, _ value: JSONValue) -> JSONValue {
            .object(members.filter { $0.key != key } + [(key: key, value: value)])
        }
        let remote = try await forward("eth_getLogs", [with("toBlock", .string(Quantity.encode(forkBlock)))], cache)
        if await chain.blockNumber() <= forkBlock { return remote }  // no local block yet
        // The fork block is the last one there can be (its number is a UInt64 the remote reported, below the head's).
        let local = try await runMaybeForked("eth_getLogs", params: .array([with("fromBlock", .string(Quantity.encode(forkBlock &+ 1)))]))
        guard case .array(let remoteLogs) = remote, case .array(let localLogs) = local else {
            throw JSONRPCErrorObject(ChainError.fork(.malformed(method: "eth_getLogs", reason: "expected an array of logs")))
        }
        return .array(remoteLogs + localLogs)
    }

    private func forward(_ name: String, _ params: [JSONValue], _ cache: ForkCache) async throws(JSONRPCErrorObject) -> JSONValue {
        do { return try await cache.remote.forward(method: name, params: params) } catch {
            throw JSONRPCErrorObject(ChainError.fork(error))
        }
    }

    /// The block number a block parameter names: a quantity, `earliest`, or an EIP-1898 object with
    /// `blockNumber`; nil for tags and hashes (answered locally).
    static func blockNumber(_ value: JSONValue) -> UInt64? {
        switch value {
        case .string("earliest"): return 0
        case .string(let text): return try? Quantity.decodeUInt64(text)
        case .number(let text): return UInt64(text)
        case .object:
            guard let number = value["blockNumber"]?.stringValue else { return nil }
            return try? Quantity.decodeUInt64(number)
        default: return nil
        }
    }
}
