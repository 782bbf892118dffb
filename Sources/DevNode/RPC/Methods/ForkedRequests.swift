import Chain
import EthereumPrimitives
import EthereumWire

/// How a forked node answers (`carchain node --fork-url`): reads of blocks up to the fork block, and of state at
/// them, are the remote's and forwarded to it; everything else runs on the local chain, which reads the fork
/// block's state through its ``ForkCache``. A run that read something not fetched yet is repeated once the
/// cache has fetched all of it in one batch (each repetition is one round trip), so an answer is always made of
/// fetched values only.
extension NodeRPCHandler {
    /// Fetch-and-repeat rounds before a request is given up (each round fetches at least one new value).
    static let maxForkRounds = 64

    /// Runs one request, on a forked chain as described above.
    func runMaybeForked(_ name: String, params: JSONValue?) async throws(JSONRPCErrorObject) -> JSONValue {
        guard let forkBlock = chain.forkBlockNumber, let cache = await chain.forkCache else {
            return try await execute(try RPCRequest.decode(method: name, params: params))
        }
        if let forwarded = try await forwardIfRemote(name, params: params, forkBlock: forkBlock, cache: cache) {
            return forwarded
        }
        let request = try RPCRequest.decode(method: name, params: params)
        // eth_sendTransaction fills its gas by an estimate: fault in what the estimate reads first, so the
        // estimate (run once, inside the write) sees fetched values only.
        if name == "eth_sendTransaction", case .array(let items)? = params, let call = items.first {
            _ = try? await runMaybeForked("eth_estimateGas", params: .array([call, .string("pending")]))
        }
        let readOnly = Self.isReadOnly(name)
        let notFetched = JSONRPCErrorObject(ChainError.fork(.notFetched))
        for _ in 0..<Self.maxForkRounds {
            let mark = cache.missMark
            let outcome: Result<JSONValue, JSONRPCErrorObject>
            do { outcome = .success(try await execute(request)) } catch { outcome = .failure(error) }
            let abandoned = if case .failure(let error) = outcome { error.message == notFetched.message } else { false }
            // A read is repeated after any miss; a write that succeeded is never repeated (its block was mined
            // from fetched values only: the miner abandons a block that missed), one that failed may be.
            let failed = if case .failure = outcome { true } else { false }
            guard abandoned || ((readOnly || failed) && cache.missed(since: mark)) else { return try outcome.get() }
            do { try await cache.fetchMissing() } catch { throw JSONRPCErrorObject(ChainError.fork(error)) }
        }
        throw JSONRPCErrorObject(code: -32000, message: "\(name) kept reading new fork state after \(Self.maxForkRounds) fetches")
    }

    /// Methods that change nothing, so running them again is harmless.
    static func isReadOnly(_ name: String) -> Bool {
        name.hasPrefix("eth_get") || name.hasPrefix("debug_trace") || name.hasPrefix("trace_")
            || ["eth_call", "eth_estimateGas", "eth_createAccessList", "eth_simulateV1", "eth_feeHistory"].contains(name)
    }

    /// The remote's answer when the request names a block at or before the fork block, or a block or transaction by
    /// hash that the local chain does not hold; nil to run it locally.
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
        default:
            return nil
        }
        guard blockIndex < list.count, let number = Self.blockNumber(list[blockIndex]), number <= forkBlock else { return nil }
        // eth_call and friends at a remote block with local-only options (state overrides) still go there as sent.
        return try await forward(name, list, cache)
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
        case .object:
            guard let number = value["blockNumber"]?.stringValue else { return nil }
            return try? Quantity.decodeUInt64(number)
        default: return nil
        }
    }
}
