import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// One JSON-RPC call decoded once into its method and typed parameters. Decoding fails with -32601
/// for an unknown method and -32602 for parameters that do not fit; the handler then dispatches with
/// one exhaustive `switch`.
public enum RPCRequest: Sendable, Equatable {
    // net / web3
    case chainId, netVersion, clientVersion, netListening, sha3([UInt8])
    // eth reads
    case blockNumber, syncing, mining, accounts, gasPrice, maxPriorityFeePerGas
    /// EIP-7910's `eth_config`.
    case config
    case getBalance(Address, BlockID)
    case getTransactionCount(Address, BlockID)
    case getCode(Address, BlockID)
    case getStorageAt(Address, UInt256, BlockID)
    case feeHistory(blockCount: UInt64, newest: BlockID, percentiles: [Double])
    case call(CallRequest, BlockID)
    case estimateGas(CallRequest, BlockID)
    case createAccessList(CallRequest, BlockID)
    case simulate(SimulationRequest, BlockID, fullTransactions: Bool)
    case getBlock(BlockID, full: Bool)
    case getBlockTransactionCount(BlockID)
    case getTransactionByBlockAndIndex(BlockID, UInt64)
    case getTransactionByHash(Bytes32)
    case getTransactionReceipt(Bytes32)
    case getLogs(Chain.LogFilter)
    // eth writes and signing
    case sendRawTransaction([UInt8])
    case sendTransaction(CallRequest)
    case sign(Address, [UInt8])
    // filters
    case newFilter(Chain.LogFilter), newBlockFilter, getFilterChanges(String), getFilterLogs(String), uninstallFilter(String)
    // debug
    case traceTransaction(Bytes32, TraceConfig)
    /// `debug_traceCall`: a call traced on a block's state, with the config's overrides.
    case traceCall(CallRequest, BlockID, TraceConfig)
    // rpc-compat methods (bodies in RPC/Methods)
    case getProof(Address, [ProofKey], BlockID), getStorageValues([StorageQuery], BlockID), getBlockReceipts(BlockID)
    case baseFee, blobBaseFee, capabilities, txpoolContent(from: Address?), txpoolStatus
    case traceBlock(BlockID, TraceConfig), buildBlock(BuildBlock)
    /// `debug_getRawHeader`, `debug_getRawBlock`, `debug_getRawReceipts`: consensus encodings of a block's parts.
    case rawHeader(BlockID), rawBlock(BlockID), rawReceipts(BlockID)
    /// `debug_getRawTransaction`: a mined or pooled transaction's EIP-2718 encoding.
    case rawTransaction(Bytes32)
    // dev (evm_, anvil_, hardhat_)
    case snapshot, revert(UInt64), mine(blocks: Int, timestamp: UInt64?, interval: UInt64?), increaseTime(UInt64)
    case setNextBlockTimestamp(UInt64), setAutomine(Bool), setIntervalMining(UInt64)
    case setBalance(Address, UInt256, hardhat: Bool)
    case setCode(Address, [UInt8], hardhat: Bool)
    case setNonce(Address, UInt64, hardhat: Bool)
    case setStorageAt(Address, UInt256, UInt256)
    /// Impersonation, reset, state dumps, block settings, node information and signing (DevNodeRequest.swift).
    case node(DevNodeRequest)
    /// Headers, raw transactions by position, by sender and nonce, `eth_fillTransaction`, the synchronous sends and
    /// `net_peerCount` (EthMethods.swift).
    case eth(EthRequest)

    /// Decodes `method` with its `params` (nil when the request has none).
    public static func decode(method: String, params raw: JSONValue?) throws(JSONRPCErrorObject) -> RPCRequest {
        let p = try RPCParams(raw)
        switch method {
        case "eth_chainId": try p.expect(0, 0); return .chainId
        case "net_version": try p.expect(0, 0); return .netVersion
        case "web3_clientVersion": try p.expect(0, 0); return .clientVersion
        case "net_listening": try p.expect(0, 0); return .netListening
        case "web3_sha3": try p.expect(1, 1); return .sha3(try p.bytes(0))
        case "eth_blockNumber": try p.expect(0, 0); return .blockNumber
        case "eth_syncing": try p.expect(0, 0); return .syncing
        case "eth_mining": try p.expect(0, 0); return .mining
        case "eth_accounts": try p.expect(0, 0); return .accounts
        case "eth_gasPrice": try p.expect(0, 0); return .gasPrice
        case "eth_maxPriorityFeePerGas": try p.expect(0, 0); return .maxPriorityFeePerGas
        case "eth_config": try p.expect(0, 0); return .config
        case "eth_getBalance": try p.expect(1, 2); return .getBalance(try p.address(0), try p.block(1))
        case "eth_getTransactionCount": try p.expect(1, 2); return .getTransactionCount(try p.address(0), try p.block(1))
        case "eth_getCode": try p.expect(1, 2); return .getCode(try p.address(0), try p.block(1))
        case "eth_getStorageAt": try p.expect(2, 3); return .getStorageAt(try p.address(0), try p.word(1), try p.block(2))
        case "eth_feeHistory":
            try p.expect(2, 3)
            var percentiles: [Double] = []
            if let list = p.optional(2) {
                guard case .array(let items) = list else { throw .invalidParams("invalid argument 2: expected an array of percentiles") }
                for item in items {
                    guard case .number(let text) = item, let value = Double(text), value.isFinite else {
                        throw .invalidParams("invalid argument 2: percentiles must be numbers")
                    }
                    percentiles.append(value)
                }
                guard percentiles.count <= 100 else { throw .invalidParams("invalid argument 2: at most 100 percentiles") }
            }
            return .feeHistory(blockCount: try p.uint64(0), newest: try p.block(1), percentiles: percentiles)
        case "eth_call":
            try p.expect(1, 3)
            if let overrides = try DevNodeRequest.stateOverrides(p, 2) { return .node(.callWithOverrides(try p.callRequest(0), try p.block(1), overrides)) }
            return .call(try p.callRequest(0), try p.block(1))
        case "eth_estimateGas":
            try p.expect(1, 3)
            if let overrides = try DevNodeRequest.stateOverrides(p, 2) {
                return .node(.estimateGasWithOverrides(try p.callRequest(0), try p.block(1, default: .pending), overrides))
            }
            return .estimateGas(try p.callRequest(0), try p.block(1, default: .pending))
        case "eth_createAccessList": try p.expect(1, 2); return .createAccessList(try p.callRequest(0), try p.block(1, default: .pending))
        case "eth_simulateV1": return try simulate(p)
        case "eth_getBlockByNumber": try p.expect(1, 2); return .getBlock(try p.block(0), full: try p.optional(1) == nil ? false : p.bool(1))
        case "eth_getBlockByHash": try p.expect(1, 2); return .getBlock(.hash(try p.hash(0)), full: try p.optional(1) == nil ? false : p.bool(1))
        case "eth_getBlockTransactionCountByNumber": try p.expect(1, 1); return .getBlockTransactionCount(try p.block(0))
        case "eth_getBlockTransactionCountByHash": try p.expect(1, 1); return .getBlockTransactionCount(.hash(try p.hash(0)))
        case "eth_getTransactionByBlockNumberAndIndex": try p.expect(2, 2); return .getTransactionByBlockAndIndex(try p.block(0), try p.uint64(1))
        case "eth_getTransactionByBlockHashAndIndex": try p.expect(2, 2); return .getTransactionByBlockAndIndex(.hash(try p.hash(0)), try p.uint64(1))
        case "eth_getTransactionByHash": try p.expect(1, 1); return .getTransactionByHash(try p.hash(0))
        case "eth_getTransactionReceipt": try p.expect(1, 1); return .getTransactionReceipt(try p.hash(0))
        case "eth_getLogs": try p.expect(1, 1); return .getLogs(try p.logFilter(0))
        case "eth_sendRawTransaction": try p.expect(1, 1); return .sendRawTransaction(try p.bytes(0))
        case "eth_sendTransaction": try p.expect(1, 1); return .sendTransaction(try p.callRequest(0))
        case "eth_sign": try p.expect(2, 2); return .sign(try p.address(0), try p.bytes(1))
        case "personal_sign": try p.expect(2, 3); return .sign(try p.address(1), try p.bytes(0))
        case "eth_newFilter": try p.expect(1, 1); return .newFilter(try p.logFilter(0))
        case "eth_newBlockFilter": try p.expect(0, 0); return .newBlockFilter
        case "eth_getFilterChanges": try p.expect(1, 1); return .getFilterChanges(try filterID(p))
        case "eth_getFilterLogs": try p.expect(1, 1); return .getFilterLogs(try filterID(p))
        case "eth_uninstallFilter": try p.expect(1, 1); return .uninstallFilter(try filterID(p))
        case "debug_traceTransaction": try p.expect(1, 2); return .traceTransaction(try p.hash(0), try p.traceConfig(1))
        case "debug_traceCall":
            try p.expect(1, 3)
            return .traceCall(try p.callRequest(0), try p.block(1), try p.traceConfig(2, forCall: true))
        case "eth_getProof": try p.expect(2, 3); return .getProof(try p.address(0), try proofKeys(p, 1), try p.block(2))
        case "eth_getStorageValues": try p.expect(1, 2); return .getStorageValues(try storageQueries(p, 0), try p.block(1))
        case "eth_getBlockReceipts": try p.expect(1, 1); return .getBlockReceipts(try p.block(0))
        case "eth_baseFee": try p.expect(0, 0); return .baseFee
        case "eth_blobBaseFee": try p.expect(0, 0); return .blobBaseFee
        case "eth_capabilities": try p.expect(0, 0); return .capabilities
        case "txpool_content": try p.expect(0, 0); return .txpoolContent(from: nil)
        case "txpool_contentFrom": try p.expect(1, 1); return .txpoolContent(from: try p.address(0))
        case "txpool_status": try p.expect(0, 0); return .txpoolStatus
        case "debug_traceBlockByNumber", "debug_traceBlockByHash":
            try p.expect(1, 2)
            let id = method.hasSuffix("ByHash") ? BlockID.hash(try p.hash(0)) : try traceBlockNumber(p)
            return .traceBlock(id, try p.traceConfig(1))
        case "testing_buildBlockV1": return .buildBlock(try buildBlock(p))
        case "debug_getRawHeader": try p.expect(1, 1); return .rawHeader(try p.block(0))
        case "debug_getRawBlock": try p.expect(1, 1); return .rawBlock(try p.block(0))
        case "debug_getRawReceipts": try p.expect(1, 1); return .rawReceipts(try p.block(0))
        case "debug_getRawTransaction", "eth_getRawTransactionByHash": try p.expect(1, 1); return .rawTransaction(try p.hash(0))
        case "evm_snapshot", "anvil_snapshot": try p.expect(0, 0); return .snapshot
        case "evm_revert", "anvil_revert": try p.expect(1, 1); return .revert(try p.uint64(0))
        case "evm_mine", "anvil_mine", "hardhat_mine":
            try p.expect(0, 2)
            if method == "evm_mine" {
                // Hardhat: an optional timestamp; anvil also takes {blocks, timestamp}.
                try p.expect(0, 1)
                if case .object? = p.optional(0) {
                    let o = try RPCParams.wire(0) { () throws(WireError) in try p.items[0].wireObject("options") }
                    let blocks = try RPCParams.wire(0) { () throws(WireError) in try o.optional("blocks").map { v throws(WireError) in try v.wireUInt64OrNumber("blocks") } }
                    let ts = try RPCParams.wire(0) { () throws(WireError) in try o.optional("timestamp").map { v throws(WireError) in try v.wireUInt64OrNumber("timestamp") } }
                    return .mine(blocks: try blockCount(blocks ?? 1), timestamp: ts, interval: nil)
                }
                return .mine(blocks: 1, timestamp: p.optional(0) == nil ? nil : try p.uint64(0), interval: nil)
            }
            // anvil_mine / hardhat_mine: [blocks, interval between their timestamps in seconds].
            let blocks = try blockCount(p.optional(0) == nil ? 1 : try p.uint64(0))
            let interval = p.optional(1) == nil ? nil : try p.uint64(1)
            if let interval, interval == 0 { throw .invalidParams("invalid argument 1: the interval must be at least 1 second") }
            return .mine(blocks: blocks, timestamp: nil, interval: interval)
        case "evm_increaseTime", "anvil_increaseTime": try p.expect(1, 1); return .increaseTime(try p.uint64(0))
        case "evm_setNextBlockTimestamp", "anvil_setNextBlockTimestamp": try p.expect(1, 1); return .setNextBlockTimestamp(try p.uint64(0))
        case "evm_setAutomine", "anvil_setAutomine": try p.expect(1, 1); return .setAutomine(try p.bool(0))
        case "evm_setIntervalMining", "anvil_setIntervalMining": try p.expect(1, 1); return .setIntervalMining(try p.uint64(0))
        case "anvil_setBalance", "hardhat_setBalance":
            try p.expect(2, 2); return .setBalance(try p.address(0), try p.uint256(1), hardhat: method.hasPrefix("hardhat"))
        case "anvil_setCode", "hardhat_setCode":
            try p.expect(2, 2); return .setCode(try p.address(0), try p.bytes(1), hardhat: method.hasPrefix("hardhat"))
        case "anvil_setNonce", "hardhat_setNonce":
            try p.expect(2, 2); return .setNonce(try p.address(0), try p.uint64(1), hardhat: method.hasPrefix("hardhat"))
        case "anvil_setStorageAt", "hardhat_setStorageAt":
            try p.expect(3, 3); return .setStorageAt(try p.address(0), try p.word(1), try p.word(2))
        default:
            if let request = try DevNodeRequest.decode(method: method, p) { return .node(request) }
            if let request = try EthRequest.decode(method: method, p) { return .eth(request) }
            throw .methodNotFound(method)
        }
    }

    /// A block count of `evm_mine` / `anvil_mine`, at most ``DevChain/maxBlocksPerMine`` (in either form).
    private static func blockCount(_ count: UInt64) throws(JSONRPCErrorObject) -> Int {
        guard count <= UInt64(DevChain.maxBlocksPerMine) else {
            throw .invalidParams("invalid argument 0: \(count) blocks is more than the \(DevChain.maxBlocksPerMine) one call may mine")
        }
        return Int(count)
    }

    private static func filterID(_ p: RPCParams) throws(JSONRPCErrorObject) -> String {
        guard case .string(let id) = try p.required(0), Hex.hasPrefix(id), id.utf8.count <= 66 else {
            throw .invalidParams("invalid argument 0: expected a filter id (hex)")
        }
        return id.lowercased()
    }
}
