import Chain
import DevNode
import Foundation
import FuzzHarnesses
import Testing
import TestSupport

/// docs/NODE.md's method table is rendered from the node's own method list (``FuzzHarness/nodeMethods``, which
/// NodeMethodListTests checks against the dispatcher, plus the subscription methods (WebSocket and IPC only), checked here
/// against the handler), next to anvil's and Hardhat's method names. The test fails when the table in the doc
/// differs from the rendering; `make method-table` (`CARCHAIN_WRITE_METHOD_TABLE=1`) rewrites it.
@Suite struct NodeMethodTableTests {
    static let begin = "<!-- BEGIN method table: `make method-table` writes it from the node's method list; do not edit by hand -->"
    static let end = "<!-- END method table -->"

    @Test func docsTableIsTheNodesMethodList() throws {
        let doc = TestPaths.packageRoot.appendingPathComponent("docs/NODE.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        let rendered = NodeMethodTable.render()
        guard let start = text.range(of: Self.begin), let stop = text.range(of: Self.end), start.upperBound <= stop.lowerBound else {
            Issue.record("docs/NODE.md has no method table between \(Self.begin) and \(Self.end)")
            return
        }
        let current = String(text[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["CARCHAIN_WRITE_METHOD_TABLE"] == "1" {
            if current != rendered {
                try (String(text[..<start.upperBound]) + rendered + String(text[stop.lowerBound...])).write(to: doc, atomically: true, encoding: .utf8)
                print("NodeMethodTableTests: rewrote the method table in docs/NODE.md")
            }
            return
        }
        #expect(current == rendered, "docs/NODE.md's method table is out of date: run `make method-table`")
    }

    /// The subscription methods the table lists as WebSocket and IPC only are answered on a connection with subscriptions.
    @Test func subscriptionMethodsAreServed() async throws {
        let chain = try await DevChain(config: .deterministic())
        defer { Task { await chain.close() } }
        let handler = NodeRPCHandler(chain: chain)
        let session = SubscriptionSession(chain: handler.chain)
        for method in NodeMethodTable.subscriptionMethods {
            let body = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":["newHeads"]}"#
            let answer = String(decoding: await handler.handle(Array(body.utf8), subscriptions: session), as: UTF8.self)
            #expect(!answer.contains("-32601"), "\(method): \(answer)")
        }
        await session.close()
    }
}

/// The rows of the method table: one per method (aliases of one dev method share a row), what carchain serves and
/// what anvil and Hardhat call it.
enum NodeMethodTable {
    /// Served on connections that carry notifications, WebSocket and IPC (over HTTP they answer -32001, as geth does).
    static let subscriptionMethods = ["eth_subscribe", "eth_unsubscribe"]

    /// anvil's methods: the `rename`/`alias` names of `EthRequest` in foundry-rs/foundry
    /// crates/anvil/core/src/eth/mod.rs at commit 2a5df2c4d8.
    static let anvil = """
        anvil_addBalance anvil_autoImpersonateAccount anvil_classifyTransaction anvil_dealERC20 anvil_dealTIP20 \
        anvil_dropAllTransactions anvil_dropTransaction anvil_dumpState anvil_getAutomine anvil_getBlobByHash \
        anvil_getBlobsByTransactionHash anvil_getGenesisTime anvil_getIntervalMining anvil_getLastBlockWallTime \
        anvil_impersonateAccount anvil_impersonateSignature anvil_increaseTime anvil_loadState anvil_metadata anvil_mine \
        anvil_mine_detailed anvil_nodeInfo anvil_removeBlockTimestampInterval anvil_removePoolTransactions anvil_reorg \
        anvil_reset anvil_revert anvil_rollback anvil_setAutomine anvil_setBalance anvil_setBlockGasLimit \
        anvil_setBlockTimestampInterval anvil_setChainId anvil_setCode anvil_setCoinbase anvil_setERC20Allowance \
        anvil_setERC20Balance anvil_setFeeAmmLiquidity anvil_setFeeToken anvil_setIntervalMining anvil_setLoggingEnabled \
        anvil_setMinGasPrice anvil_setNextBlockBaseFeePerGas anvil_setNextBlockPrevRandao anvil_setNextBlockTimestamp \
        anvil_setNonce anvil_setRpcUrl anvil_setStorageAt anvil_setTime anvil_setValidatorFeeToken anvil_snapshot \
        anvil_stopImpersonatingAccount debug_accountInfoAt debug_clearTxpool debug_codeByHash debug_dbGet \
        debug_executionWitness debug_freeOSMemory debug_getModifiedAccountsByNumber debug_getRawBlock debug_getRawHeader \
        debug_getRawReceipts debug_getRawTransaction debug_getRawTransactions debug_traceBlock debug_traceBlockByHash \
        debug_traceBlockByNumber debug_traceCall debug_traceTransaction erigon_getHeaderByNumber eth_accounts eth_baseFee \
        eth_blobBaseFee eth_blockNumber eth_call eth_callBundle eth_callMany eth_chainId eth_coinbase eth_config \
        eth_createAccessList eth_estimateGas eth_feeHistory eth_fillTransaction eth_gasPrice eth_getAccount \
        eth_getAccountInfo eth_getBalance eth_getBlockAccessList eth_getBlockAccessListByBlockHash \
        eth_getBlockAccessListByBlockNumber eth_getBlockAccessListRaw eth_getBlockByHash eth_getBlockByNumber \
        eth_getBlockReceipts eth_getBlockTransactionCountByHash eth_getBlockTransactionCountByNumber eth_getCode \
        eth_getFilterChanges eth_getFilterLogs eth_getHeaderByHash eth_getHeaderByNumber eth_getLogs eth_getProof \
        eth_getRawTransactionByBlockHashAndIndex eth_getRawTransactionByBlockNumberAndIndex eth_getRawTransactionByHash \
        eth_getStorageAt eth_getStorageValues eth_getTransactionByBlockHashAndIndex eth_getTransactionByBlockNumberAndIndex \
        eth_getTransactionByHash eth_getTransactionBySenderAndNonce eth_getTransactionCount eth_getTransactionReceipt \
        eth_getUncleByBlockHashAndIndex eth_getUncleByBlockNumberAndIndex eth_getUncleCountByBlockHash \
        eth_getUncleCountByBlockNumber eth_getWork eth_hashrate eth_maxPriorityFeePerGas eth_networkId eth_newBlockFilter \
        eth_newFilter eth_newPendingTransactionFilter eth_pendingTransactions eth_protocolVersion eth_requestAccounts \
        eth_resend eth_sendRawTransaction eth_sendRawTransactionConditional eth_sendRawTransactionSync eth_sendTransaction \
        eth_sendTransactionSync eth_sendUnsignedTransaction eth_sign eth_signRawTransaction eth_signTransaction \
        eth_signTypedData eth_signTypedData_v3 eth_signTypedData_v4 eth_simulateV1 eth_submitHashrate eth_submitWork \
        eth_subscribe eth_syncing eth_uninstallFilter eth_unsubscribe evm_increaseTime evm_mine evm_mine_detailed \
        evm_revert evm_setAccountNonce evm_setAutomine evm_setBlockGasLimit evm_setIntervalMining \
        evm_setNextBlockTimestamp evm_setTime evm_snapshot hardhat_addBalance hardhat_autoImpersonateAccount \
        hardhat_dealERC20 hardhat_dropAllTransactions hardhat_dropTransaction hardhat_dumpState hardhat_getAutomine \
        hardhat_impersonateAccount hardhat_loadState hardhat_metadata hardhat_mine hardhat_reset hardhat_setBalance \
        hardhat_setCode hardhat_setCoinbase hardhat_setLoggingEnabled hardhat_setMinGasPrice \
        hardhat_setNextBlockBaseFeePerGas hardhat_setNonce hardhat_setStorageAt hardhat_stopImpersonatingAccount \
        net_listening net_version ots_getApiLevel ots_getBlockDetails ots_getBlockDetailsByHash ots_getBlockTransactions \
        ots_getContractCreator ots_getInternalOperations ots_getTransactionBySenderAndNonce ots_getTransactionError \
        ots_hasCode ots_searchTransactionsAfter ots_searchTransactionsBefore ots_traceTransaction personal_sign \
        tenderly_addBalance tenderly_setBalance trace_block trace_blockOpcodeGas trace_call trace_callMany trace_filter \
        trace_get trace_rawTransaction trace_replayBlockTransactions trace_replayTransaction trace_transaction \
        trace_transactionOpcodeGas txpool_content txpool_contentFrom txpool_inspect txpool_status web3_clientVersion \
        web3_sha3
        """.split(separator: " ").map(String.init)

    /// Hardhat's methods: the `rename` names of `MethodInvocation` in NomicFoundation/edr
    /// crates/edr_provider/src/requests/methods.rs at commit a81dc2858 (EDR 0.18.0, Hardhat's node).
    static let hardhat = """
        debug_traceCall debug_traceTransaction eth_accounts eth_blobBaseFee eth_blockNumber eth_call eth_chainId \
        eth_coinbase eth_estimateGas eth_feeHistory eth_gasPrice eth_getBalance eth_getBlockByHash eth_getBlockByNumber \
        eth_getBlockTransactionCountByHash eth_getBlockTransactionCountByNumber eth_getCode eth_getFilterChanges \
        eth_getFilterLogs eth_getLogs eth_getProof eth_getStorageAt eth_getTransactionByBlockHashAndIndex \
        eth_getTransactionByBlockNumberAndIndex eth_getTransactionByHash eth_getTransactionCount eth_getTransactionReceipt \
        eth_maxPriorityFeePerGas eth_newBlockFilter eth_newFilter eth_newPendingTransactionFilter eth_pendingTransactions \
        eth_sendRawTransaction eth_sendTransaction eth_sign eth_signTypedData_v4 eth_subscribe eth_syncing \
        eth_uninstallFilter eth_unsubscribe evm_increaseTime evm_mine evm_revert evm_setAutomine evm_setBlockGasLimit \
        evm_setIntervalMining evm_setNextBlockTimestamp evm_snapshot hardhat_dropTransaction hardhat_getAutomine \
        hardhat_impersonateAccount hardhat_metadata hardhat_mine hardhat_setBalance hardhat_setCode hardhat_setCoinbase \
        hardhat_setLoggingEnabled hardhat_setMinGasPrice hardhat_setNextBlockBaseFeePerGas hardhat_setNonce \
        hardhat_setPrevRandao hardhat_setStorageAt hardhat_stopImpersonatingAccount net_version personal_sign \
        web3_clientVersion web3_sha3
        """.split(separator: " ").map(String.init)

    /// Namespaces whose methods are the same dev operation under each tool's prefix.
    static let devPrefixes = ["evm_", "anvil_", "hardhat_", "tenderly_"]

    /// The row a name belongs to: a dev method's operation (`dev setBalance` for `anvil_setBalance`,
    /// `hardhat_setBalance`, `tenderly_setBalance`), any other method's own name.
    static func row(of name: String) -> String {
        guard let prefix = devPrefixes.first(where: name.hasPrefix) else { return name }
        let operation = String(name.dropFirst(prefix.count))
        let same = ["setAccountNonce": "setNonce", "setNextBlockPrevRandao": "setPrevRandao"]
        return "dev " + (same[operation] ?? operation)
    }

    /// The table, between the doc's markers (a leading and trailing newline included).
    static func render() -> String {
        let served = FuzzHarness.nodeMethods + subscriptionMethods
        var rows: [String: (carchain: [String], anvil: [String], hardhat: [String])] = [:]
        for name in served { rows[row(of: name), default: ([], [], [])].carchain.append(name) }
        for name in anvil { rows[row(of: name), default: ([], [], [])].anvil.append(name) }
        for name in hardhat { rows[row(of: name), default: ([], [], [])].hardhat.append(name) }
        func cell(_ names: [String]) -> String {
            names.isEmpty ? "—" : Array(Set(names)).sorted().map { name in
                subscriptionMethods.contains(name) ? "`\(name)` (WebSocket, IPC)" : "`\(name)`"
            }.joined(separator: ", ")
        }
        let servedRows = rows.values.filter { !$0.carchain.isEmpty }.count
        var lines = [
            "",
            "\(Set(served).count) method names served (\(servedRows) methods, aliases counted once); "
                + "\(rows.count - servedRows) of anvil's and Hardhat's are not. anvil: foundry 2a5df2c4d8; Hardhat: EDR 0.18.0.",
            "",
            "| Method | carchain | anvil | Hardhat |",
            "|---|---|---|---|",
        ]
        for (key, r) in rows.sorted(by: { ($0.key.hasPrefix("dev ") ? 1 : 0, $0.key) < ($1.key.hasPrefix("dev ") ? 1 : 0, $1.key) }) {
            if key.hasPrefix("dev ") {
                // The names differ between the tools: each column lists its own.
                lines.append("| \(key) | \(r.carchain.isEmpty ? "not served" : cell(r.carchain)) | \(cell(r.anvil)) | \(cell(r.hardhat)) |")
            } else {
                let here = r.carchain.isEmpty ? "not served" : subscriptionMethods.contains(key) ? "yes (WebSocket, IPC)" : "yes"
                lines.append("| `\(key)` | \(here) | \(r.anvil.isEmpty ? "—" : "yes") | \(r.hardhat.isEmpty ? "—" : "yes") |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
