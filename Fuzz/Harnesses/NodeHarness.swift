import Chain
import DevNode
import EthereumPrimitives
import Foundation

extension FuzzHarness {
    /// Every method `RPCRequest.decode` knows, aliases included (`FuzzRegressionTests` checks each decodes, and that
    /// the decoder's source names no other). Order matters to saved inputs: append only.
    public static let nodeMethods = [
        "eth_chainId", "net_version", "web3_clientVersion", "net_listening", "web3_sha3", "eth_blockNumber",
        "eth_syncing", "eth_mining", "eth_accounts", "eth_gasPrice", "eth_maxPriorityFeePerGas", "eth_config", "eth_getBalance",
        "eth_getTransactionCount", "eth_getCode", "eth_getStorageAt", "eth_feeHistory", "eth_call", "eth_estimateGas",
        "eth_createAccessList", "eth_getBlockByNumber", "eth_getBlockByHash", "eth_getBlockTransactionCountByNumber",
        "eth_getBlockTransactionCountByHash", "eth_getTransactionByBlockNumberAndIndex",
        "eth_getTransactionByBlockHashAndIndex", "eth_getTransactionByHash", "eth_getTransactionReceipt", "eth_getLogs",
        "eth_sendRawTransaction", "eth_sendTransaction", "eth_sign", "personal_sign", "eth_newFilter",
        "eth_newBlockFilter", "eth_getFilterChanges", "eth_getFilterLogs", "eth_uninstallFilter",
        "debug_traceTransaction", "debug_getRawHeader", "debug_getRawBlock", "debug_getRawReceipts",
        "debug_getRawTransaction", "debug_traceBlockByNumber", "debug_traceBlockByHash", "eth_getProof",
        "eth_getStorageValues", "eth_getBlockReceipts", "eth_baseFee", "eth_blobBaseFee", "eth_capabilities",
        "txpool_content", "txpool_contentFrom", "txpool_status", "testing_buildBlockV1", "evm_snapshot", "anvil_snapshot", "evm_revert", "anvil_revert", "evm_mine",
        "anvil_mine", "hardhat_mine", "evm_increaseTime", "anvil_increaseTime", "evm_setNextBlockTimestamp",
        "anvil_setNextBlockTimestamp", "evm_setAutomine", "anvil_setAutomine", "evm_setIntervalMining",
        "anvil_setIntervalMining", "anvil_setBalance", "hardhat_setBalance", "anvil_setCode", "hardhat_setCode",
        "anvil_setNonce", "hardhat_setNonce", "anvil_setStorageAt", "hardhat_setStorageAt", "eth_simulateV1",
        // h-dev (issue 18): DevNodeRequest.swift
        "anvil_impersonateAccount", "hardhat_impersonateAccount", "anvil_stopImpersonatingAccount",
        "hardhat_stopImpersonatingAccount", "anvil_autoImpersonateAccount", "anvil_reset", "hardhat_reset",
        "anvil_dumpState", "hardhat_dumpState", "anvil_loadState", "hardhat_loadState", "evm_setBlockGasLimit",
        "anvil_setBlockGasLimit", "anvil_setCoinbase", "hardhat_setCoinbase", "anvil_dropTransaction",
        "hardhat_dropTransaction", "anvil_setMinGasPrice", "hardhat_setMinGasPrice", "anvil_setNextBlockBaseFeePerGas",
        "hardhat_setNextBlockBaseFeePerGas", "anvil_nodeInfo", "anvil_metadata", "hardhat_metadata", "txpool_inspect",
        "eth_signTypedData_v4", "eth_signTypedData", "eth_signTransaction", "eth_newPendingTransactionFilter",
        // the tracers (issue 18)
        "debug_traceCall",
        // issue 31, the eth half: EthMethods.swift
        "eth_getHeaderByNumber", "eth_getHeaderByHash", "eth_getRawTransactionByHash",
        "eth_getRawTransactionByBlockNumberAndIndex", "eth_getRawTransactionByBlockHashAndIndex",
        "eth_getTransactionBySenderAndNonce", "eth_fillTransaction", "eth_sendTransactionSync", "eth_sendRawTransactionSync",
        "net_peerCount",
        // anvil's daily names (issue 31): DevNodeRequest.swift
        "anvil_dropAllTransactions", "hardhat_dropAllTransactions", "anvil_setChainId", "anvil_setTime", "evm_setTime",
        "anvil_getAutomine", "hardhat_getAutomine", "anvil_getIntervalMining", "anvil_addBalance", "hardhat_addBalance",
        "anvil_dealERC20", "hardhat_dealERC20", "anvil_setERC20Balance", "anvil_setERC20Allowance",
    ]

    /// The node methods with a known, still open crash class. With `CARCHAIN_FUZZ_AVOID_KNOWN=1` the node harness
    /// sends them only small numbers, so a campaign explores past them. Empty: issue 14's classes (`evm_mine`'s
    /// block count, `evm_increaseTime`, `evm_setNextBlockTimestamp`, `evm_setIntervalMining`) are fixed, and their
    /// reproducers under Fuzz/regressions pass.
    public static let nodeKnownCrashMethods: Set<String> = []

    /// The node's call limits in the harness: geth's gas cap, and a 1 s time limit (the node's default is 5 s) so
    /// an input that loops costs the campaign a second, well under libFuzzer's per-input timeout.
    /// Synchronous sends wait at most 50 ms for their block (with automine off nothing else would mine it).
    static let nodeLimits = NodeRPCHandler.Limits(
        calls: CallLimits(gasCap: 50_000_000, timeout: .seconds(1)), syncSendWait: .milliseconds(50),
        maxSyncSendWait: .milliseconds(50))

    static let avoidKnownCrashes = ProcessInfo.processInfo.environment["CARCHAIN_FUZZ_AVOID_KNOWN"] == "1"

    /// The whole JSON-RPC handler on a fresh deterministic in-memory chain, driven by a structured input: up to
    /// eight rounds, each one request or a batch; each request a method from ``nodeMethods`` (or a stray name)
    /// with parameters of the kinds it takes or of any kind, built from hostile numbers (0, 2^63, 2^64−1,
    /// 2^256−1, negative, fractional, huge hex, leading zeros), hex strings, hashes and ids seen in earlier
    /// answers, nested arrays and objects. Invariant: every answer is valid JSON-RPC 2.0 for what was sent.
    static func node(_ data: [UInt8]) async throws(FuzzInvariantFailure) {
        let chain: DevChain
        do { chain = try await DevChain(config: .deterministic()) } catch {
            throw FuzzInvariantFailure(.node, "cannot open an in-memory chain: \(error)")
        }
        let handler = NodeRPCHandler(chain: chain, limits: nodeLimits)
        var generator = NodeCallGenerator(input: FuzzInput(data), avoidKnownCrashes: avoidKnownCrashes)
        defer { Task { await chain.close() } }
        let rounds = 1 + generator.input.index(8)
        for _ in 0..<rounds {
            let sent = generator.round()
            let body = Array(sent.body.description.utf8)
            let answer = await handler.handle(body)
            if let failure = JSONRPCResponseCheck.check(answer, for: sent.requests, batch: sent.isBatch) {
                throw FuzzInvariantFailure(.node, "\(failure)\nrequest: \(sent.body.description.prefix(2000))")
            }
            generator.remember(answer)
            if generator.input.isAtEnd { break }
        }
        await chain.close()
    }

    /// A chain shared by the `jsonrpc` harness's inputs (which rarely reach a method, so state matters little).
    private static let sharedNode = SharedNode()

    /// The request parser on raw bytes (`JSONParser`, then the handler's request checks): a parsed body
    /// prints to JSON that parses back equal, and the handler's answer is valid JSON-RPC 2.0.
    static func jsonrpc(_ data: [UInt8]) async throws(FuzzInvariantFailure) {
        if let document = try? JSONParser.parse(data) {
            let printed = Array(document.description.utf8)
            guard let reparsed = try? JSONParser.parse(printed), reparsed == document else {
                throw FuzzInvariantFailure(.jsonrpc, "parsed JSON does not parse back from its printed form")
            }
        }
        // With CARCHAIN_FUZZ_AVOID_KNOWN=1, bodies naming a method of an open crash class only go through the parser.
        if avoidKnownCrashes {
            let text = String(decoding: data, as: UTF8.self)
            if nodeKnownCrashMethods.contains(where: { text.contains(String($0.drop { $0 != "_" })) }) { return }
        }
        guard let handler = await sharedNode.handler() else {
            throw FuzzInvariantFailure(.jsonrpc, "cannot open an in-memory chain")
        }
        let answer = await handler.handle(data)
        if let failure = JSONRPCResponseCheck.check(answer, for: nil, batch: nil) {
            throw FuzzInvariantFailure(.jsonrpc, failure)
        }
    }
}

/// One lazily opened chain and handler.
actor SharedNode {
    private var cached: NodeRPCHandler?

    func handler() async -> NodeRPCHandler? {
        if let cached { return cached }
        guard let chain = try? await DevChain(config: .deterministic()) else { return nil }
        let handler = NodeRPCHandler(chain: chain)
        cached = handler
        return handler
    }
}
