import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// Issue 18's dev methods on an in-process handler: impersonation, reset, state dumps, block settings, pool
/// controls, node information, pending-transaction filters.
@Suite struct DevNodeMethodTests {
    /// An address no dev key covers (the mainnet deposit contract's).
    static let whale = "0x00000000219ab540356cbb839cbe05303d7705fa"
    static let other = "0x1111111111111111111111111111111111111111"

    func message(_ answer: JSONValue) -> String { answer["error"]?["message"]?.stringValue ?? "" }

    @Test func impersonatedSendIsMinedWithAStableHash() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.result("anvil_setBalance", "[\"\(Self.whale)\",\"0xde0b6b3a7640000\"]")
        let send = "[{\"from\":\"\(Self.whale)\",\"to\":\"\(Self.other)\",\"value\":\"0x5\"}]"
        #expect(try await h.errorCode("eth_sendTransaction", send) == -32000)
        #expect(try await h.result("anvil_impersonateAccount", "[\"\(Self.whale)\"]") == .null)
        let hash = try #require(try await h.result("eth_sendTransaction", send).stringValue)
        let tx = try await h.result("eth_getTransactionByHash", "[\"\(hash)\"]")
        #expect(tx["from"]?.stringValue == Self.whale)
        #expect(tx["blockNumber"]?.quantity == 1)
        #expect(tx["r"]?.stringValue == "0x1")
        // The hash is keccak256 of the stored encoding, so the raw bytes read back give the same hash.
        let raw = try #require(try await h.result("debug_getRawTransaction", "[\"\(hash)\"]").stringValue)
        #expect(Hex.encode(Keccak256.hash(try Hex.decode(raw)).bytes) == hash)
        let receipt = try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")
        #expect(receipt["status"]?.stringValue == "0x1")
        #expect(try await h.result("eth_getBalance", "[\"\(Self.other)\",\"latest\"]").quantity == 5)
        // Hardhat's spelling answers true; after stopping, the send is refused again.
        #expect(try await h.result("hardhat_stopImpersonatingAccount", "[\"\(Self.whale)\"]") == .bool(true))
        #expect(try await h.errorCode("eth_sendTransaction", send) == -32000)
        // Auto-impersonation covers every address.
        _ = try await h.result("anvil_autoImpersonateAccount", "[true]")
        _ = try await h.result("eth_sendTransaction", send)
        _ = try await h.result("anvil_autoImpersonateAccount", "[false]")
        #expect(try await h.errorCode("eth_sendTransaction", send) == -32000)
    }

    @Test func twoImpersonatedSendersOfTheSameFieldsGetDifferentHashes() async throws {
        let h = try await HandlerHarness.make()
        let a = "0x2222222222222222222222222222222222222222"
        let b = "0x3333333333333333333333333333333333333333"
        _ = try await h.result("evm_setAutomine", "[false]")
        _ = try await h.result("anvil_autoImpersonateAccount", "[true]")
        var hashes: Set<String> = []
        for sender in [a, b] {
            _ = try await h.result("anvil_setBalance", "[\"\(sender)\",\"0xde0b6b3a7640000\"]")
            let fields = "\"to\":\"\(Self.other)\",\"gas\":\"0x5208\",\"nonce\":\"0x0\",\"maxFeePerGas\":\"0x77359400\",\"maxPriorityFeePerGas\":\"0x1\""
            hashes.insert(try #require(try await h.result("eth_sendTransaction", "[{\"from\":\"\(sender)\",\(fields)}]").stringValue))
        }
        #expect(hashes.count == 2)
        _ = try await h.result("evm_mine")
        let block = try await h.result("eth_getBlockByNumber", "[\"latest\",false]")
        #expect(block["transactions"]?.arrayValue?.count == 2)
    }

    @Test func dumpResetLoadReproducesTheStateRoot() async throws {
        let h = try await HandlerHarness.make()
        // Some state: a contract with storage, a transfer, a dev change not yet mined.
        _ = try await h.send(data: "0x600160005560016001556000600255")  // SSTOREs in initcode, no runtime code
        _ = try await h.send(to: Self.other, value: "0x1234")
        _ = try await h.result("anvil_setStorageAt", "[\"\(Self.other)\",\"0x7\",\"0x00000000000000000000000000000000000000000000000000000000000000ff\"]")
        _ = try await h.result("anvil_setCode", "[\"\(Self.other)\",\"0x6001\"]")
        let root = await h.chain.liveStateRoot()
        let dump = try #require(try await h.result("anvil_dumpState").stringValue)
        let genesisRoot = try #require(try await h.result("eth_getBlockByNumber", "[\"0x0\",false]")["stateRoot"]?.stringValue)

        #expect(try await h.result("anvil_reset") == .null)
        #expect(try await h.result("eth_blockNumber").quantity == 0)
        #expect(Hex.encode(await h.chain.liveStateRoot().bytes) == genesisRoot)
        #expect(try await h.result("eth_getCode", "[\"\(Self.other)\",\"latest\"]") == .string("0x"))

        #expect(try await h.result("anvil_loadState", "[\"\(dump)\"]") == .bool(true))
        #expect(await h.chain.liveStateRoot() == root)
        #expect(try await h.result("eth_getCode", "[\"\(Self.other)\",\"latest\"]") == .string("0x6001"))
        #expect(try await h.result("eth_getBalance", "[\"\(Self.other)\",\"latest\"]").quantity == 0x1234)
        // A block mined on the loaded state commits it: later reads and a reopened trie agree.
        _ = try await h.result("evm_mine")
        #expect(try await h.result("eth_getStorageAt", "[\"\(Self.other)\",\"0x7\",\"latest\"]").stringValue?.hasSuffix("ff") == true)
    }

    @Test func corruptOrForeignDumpsAreRefused() async throws {
        let h = try await HandlerHarness.make()
        let dump = try Hex.decode(try #require(try await h.result("anvil_dumpState").stringValue))
        var flipped = dump
        flipped[flipped.count / 2] ^= 0x01
        var answer = try await h.answer("anvil_loadState", "[\"\(Hex.encode(flipped))\"]")
        #expect(answer["error"]?["code"] == .number("-32602"))
        #expect(message(answer).contains("checksum does not match"))
        answer = try await h.answer("anvil_loadState", "[\"\(Hex.encode(Array(dump.prefix(dump.count - 40))))\"]")
        #expect(message(answer).contains("checksum does not match"))
        // anvil's own dumps are gzip (1f 8b): not this format.
        answer = try await h.answer("anvil_loadState", "[\"0x1f8b0800000000000003\"]")
        #expect(message(answer).contains("not a carchain state dump"))
        var future = dump
        future[4] = 2
        answer = try await h.answer("anvil_loadState", "[\"\(Hex.encode(future))\"]")
        #expect(message(answer).contains("version 2 is not supported"))
        // A well-formed checksum over a body that is not the layout.
        var body = StateDump.magic + [StateDump.version] + RLP.encode(.list([]))
        body += Keccak256.hash(body).bytes
        answer = try await h.answer("anvil_loadState", "[\"\(Hex.encode(body))\"]")
        #expect(message(answer).contains("malformed"))
        // Nothing was changed by the refused loads.
        #expect(try await h.result("anvil_dumpState").stringValue == Hex.encode(dump))
    }

    @Test func stateDumpRoundTripsAndIsDeterministic() throws {
        var storage: [UInt256: UInt256] = [UInt256(1): UInt256(2), UInt256(3): .zero]
        var state = WorldState()
        state[Address(bytes: Array(repeating: 0xaa, count: 20))!] = Account(nonce: 7, balance: UInt256.max, code: [0x60, 0x00], storage: storage)
        state[Address(bytes: Array(repeating: 0x01, count: 20))!] = Account(nonce: 0, balance: UInt256(5))
        let dump = StateDump(blockNumber: 42, timestamp: 1_700_000_000, state: state)
        let decoded = try StateDump(encoded: dump.encoded)
        storage[UInt256(3)] = nil  // zero slots are left out
        #expect(decoded.blockNumber == 42 && decoded.timestamp == 1_700_000_000)
        #expect(decoded.state.stateRoot == state.stateRoot)
        #expect(decoded.state[Address(bytes: Array(repeating: 0xaa, count: 20))!]?.storage == storage)
        #expect(decoded.encoded == dump.encoded)
    }

    /// Forking parameters need a node started with --fork-url (ForkRemoteTests re-forks one); here they are refused,
    /// and parameters of the wrong shape are -32602 naming what is wrong.
    @Test func resetWithForkingOnANodeThatDoesNotForkIsRefused() async throws {
        let h = try await HandlerHarness.make()
        let answer = try await h.answer("anvil_reset", "[{\"forking\":{\"jsonRpcUrl\":\"http://localhost:1\",\"blockNumber\":1}}]")
        #expect(answer["error"]?["code"] == .number("-32602"))
        #expect(message(answer).contains("this node was not started with --fork-url"))
        for (params, expected) in [
            ("[{\"forking\":{\"blockNumber\":\"twelve\"}}]", "forking.blockNumber"),
            ("[{\"forking\":{\"jsonRpcUrl\":7}}]", "forking.jsonRpcUrl: expected a URL string"),
            ("[{\"forking\":{\"url\":\"http://x\"}}]", "unknown member \"url\""),
            ("[{\"forking\":5}]", "forking: expected an object"),
            ("[{\"forking\":{},\"extra\":1}]", "unknown member beside \"forking\""),
            ("[7]", "expected an object (forking options) or nothing"),
        ] {
            let refused = try await h.answer("hardhat_reset", params)
            #expect(refused["error"]?["code"] == .number("-32602"), "\(params)")
            #expect(message(refused).contains(expected), "\(params): \(message(refused))")
        }
        // No forking parameters: a plain reset, in either spelling.
        #expect(try await h.result("hardhat_reset", "[]") == .bool(true))
        #expect(try await h.result("anvil_reset", "[{}]") == .null)
        #expect(try await h.result("anvil_reset", "[{\"forking\":null}]") == .null)
    }

    @Test func blockSettingsApplyToTheNextBlocks() async throws {
        let h = try await HandlerHarness.make()
        let coinbase = "0x4444444444444444444444444444444444444444"
        #expect(try await h.result("evm_setBlockGasLimit", "[\"0x1c9c381\"]") == .bool(true))
        #expect(try await h.result("anvil_setCoinbase", "[\"\(coinbase)\"]") == .null)
        #expect(try await h.result("anvil_setNextBlockBaseFeePerGas", "[\"0x3b9aca07\"]") == .null)
        _ = try await h.send(to: Self.other, value: "0x1")
        let block = try await h.result("eth_getBlockByNumber", "[\"latest\",false]")
        #expect(block["gasLimit"]?.quantity == 0x1c9c381)
        #expect(block["miner"]?.stringValue == coinbase)
        #expect(block["baseFeePerGas"]?.quantity == 0x3b9aca07)
        #expect(try await h.result("eth_getBalance", "[\"\(coinbase)\",\"latest\"]").quantity ?? 0 > 0)
        // The base fee override names one block: the next follows EIP-1559 from it (an almost empty block: lower).
        _ = try await h.result("evm_mine")
        let next = try await h.result("eth_getBlockByNumber", "[\"latest\",false]")
        #expect(try #require(next["baseFeePerGas"]?.quantity) < 0x3b9aca07)
        #expect(try await h.errorCode("evm_setBlockGasLimit", "[\"0x10\"]") == -32602)
        #expect(try await h.errorCode("evm_setBlockGasLimit", "[\"0xffffffffffffffff\"]") == -32602)
        #expect(try await h.errorCode("anvil_setNextBlockBaseFeePerGas", "[\"0x\(String(repeating: "f", count: 64))\"]") == -32602)
    }

    @Test func minGasPriceFollowsAnvil() async throws {
        let h = try await HandlerHarness.make()
        let answer = try await h.answer("anvil_setMinGasPrice", "[\"0x1\"]")
        #expect(message(answer).contains("anvil_setMinGasPrice is not supported when EIP-1559 is active"))
        let berlin = try await HandlerHarness.make(hardfork: .berlin)
        #expect(try await berlin.result("hardhat_setMinGasPrice", "[\"0x77359400\"]") == .bool(true))
        let low = "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(Self.other)\",\"gasPrice\":\"0x3b9aca00\"}]"
        #expect(try await berlin.answer("eth_sendTransaction", low)["error"]?["message"]?.stringValue?.contains("underpriced") == true)
        #expect(try await berlin.errorCode("anvil_setNextBlockBaseFeePerGas", "[\"0x1\"]") == -32602)
    }

    @Test func poolControlsAndPendingFilter() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.result("evm_setAutomine", "[false]")
        let filter = try #require(try await h.result("eth_newPendingTransactionFilter").stringValue)
        let first = try await h.send(to: Self.other, value: "0x1")
        let second = try await h.send(to: nil, data: "0x00")
        #expect(try await h.result("eth_getFilterChanges", "[\"\(filter)\"]") == .array([.string(first), .string(second)]))
        #expect(try await h.result("eth_getFilterChanges", "[\"\(filter)\"]") == .array([]))
        let inspect = try await h.result("txpool_inspect")
        let sender = try #require(inspect["pending"]?.objectValue?.first?.value)
        let line0 = try #require(sender["0"]?.stringValue)
        #expect(line0.hasPrefix("0x1111111111111111111111111111111111111111: 1 wei + 21000 gas × "))
        #expect(line0.hasSuffix(" wei"))
        #expect(sender["1"]?.stringValue?.hasPrefix("contract creation: 0 wei + ") == true)
        #expect(try await h.result("anvil_dropTransaction", "[\"\(second)\"]") == .string(second))
        #expect(try await h.result("anvil_dropTransaction", "[\"\(second)\"]") == .null)
        #expect(try await h.result("hardhat_dropTransaction", "[\"\(first)\"]") == .bool(true))
        #expect(try await h.result("txpool_status")["pending"]?.quantity == 0)
        #expect(try await h.errorCode("eth_newPendingTransactionFilter", "[true]") == -32602)
    }

    @Test func nodeInfoAndMetadata() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.result("evm_mine")
        let snapshot = try #require(try await h.result("evm_snapshot").quantity)
        let info = try await h.result("anvil_nodeInfo")
        #expect(info["currentBlockNumber"] == .number("1"))
        #expect(info["hardFork"]?.stringValue == h.chain.hardfork.name.lowercased())
        #expect(info["environment"]?["chainId"] == .number(String(h.chain.chainId)))
        #expect(info["environment"]?["gasLimit"] == .number(String(h.chain.config.gasLimit)))
        let head = try await h.result("eth_getBlockByNumber", "[\"latest\",false]")
        #expect(info["currentBlockHash"] == head["hash"])
        let metadata = try await h.result("anvil_metadata")
        #expect(metadata["latestBlockHash"] == head["hash"])
        #expect(metadata["snapshots"]?[String(snapshot)]?.arrayValue?.first == .number("1"))
        let instance = metadata["instanceId"]
        _ = try await h.result("anvil_reset")
        #expect(try await h.result("anvil_metadata")["instanceId"] != instance)
        #expect(try await h.result("hardhat_metadata")["snapshots"] == nil)
    }

    @Test func callAndEstimateGasTakeStateOverrides() async throws {
        let h = try await HandlerHarness.make()
        let target = "0x5555555555555555555555555555555555555555"
        // Returns BALANCE(CALLER) + SLOAD(7): 60 07 54 33 31 01 60 00 52 60 20 60 00 f3
        let code = "0x600754333101600052602060 00f3".replacingOccurrences(of: " ", with: "")
        let poor = "0x6666666666666666666666666666666666666666"
        let overrides = """
            {"\(target)":{"code":"\(code)","stateDiff":{"0x0000000000000000000000000000000000000000000000000000000000000007":"0x0000000000000000000000000000000000000000000000000000000000000002"}},"\(poor)":{"balance":"0x28"}}
            """
        let call = "{\"from\":\"\(poor)\",\"to\":\"\(target)\"}"
        let result = try #require(try await h.result("eth_call", "[\(call),\"latest\",\(overrides)]").stringValue)
        #expect(result == "0x" + String(repeating: "0", count: 62) + "2a")  // 40 + 2
        // The same overrides through eth_simulateV1 (the shared code) give the same return data.
        let simulated = try await h.result(
            "eth_simulateV1", "[{\"blockStateCalls\":[{\"stateOverrides\":\(overrides),\"calls\":[\(call)]}]},\"latest\"]")
        #expect(simulated.arrayValue?.first?["calls"]?.arrayValue?.first?["returnData"]?.stringValue == result)
        // Nothing stays: without overrides the target has no code.
        #expect(try await h.result("eth_call", "[\(call),\"latest\"]") == .string("0x"))
        #expect(try await h.result("eth_getCode", "[\"\(target)\",\"latest\"]") == .string("0x"))
        // eth_estimateGas: a priced call from an empty account fails; with a balance override it is estimated.
        let priced = "{\"from\":\"\(poor)\",\"to\":\"\(target)\",\"gasPrice\":\"0x3b9aca00\",\"value\":\"0x1\"}"
        #expect(try await h.errorCode("eth_estimateGas", "[\(priced)]") != nil)
        let rich = "{\"\(poor)\":{\"balance\":\"0xde0b6b3a7640000\"}}"
        #expect(try await h.result("eth_estimateGas", "[\(priced),\"latest\",\(rich)]").quantity == 21000)
        // A bad override set is -32602.
        #expect(try await h.errorCode("eth_call", "[\(call),\"latest\",{\"0x12\":{}}]") == -32602)
        #expect(try await h.errorCode("eth_call", "[\(call),\"latest\",{\"\(target)\":{\"state\":{},\"stateDiff\":{}}}]") == -32602)
    }
}
