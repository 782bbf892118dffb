import CarChain
import Chain
import DevNode
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing

/// The handler's methods, group by group, on a fresh deterministic chain.
@Suite struct HandlerMethodTests {
    static let key0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

    @Test func netAndWeb3() async throws {
        let h = try await HandlerHarness.make()
        #expect(try await h.result("eth_chainId") == .string("0x4"))
        #expect(try await h.result("net_version") == .string("4"))
        let version = try #require(try await h.result("web3_clientVersion").stringValue)
        #expect(version.contains("carchain") && version.contains("dev"))
        #expect(try await h.result("net_listening") == .bool(true))
        #expect(try await h.result("web3_sha3", "[\"0x68656c6c6f\"]")
            == .string("0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8"))
        #expect(try await h.result("eth_syncing") == .bool(false))
        #expect(try await h.result("eth_mining") == .bool(true))
    }

    @Test func accountsAndReads() async throws {
        let h = try await HandlerHarness.make()
        let accounts = try #require(try await h.result("eth_accounts").arrayValue)
        #expect(accounts.count == 10)
        #expect(accounts.first == .string(HandlerHarness.account0))
        #expect(try await h.result("eth_getBalance", "[\"\(HandlerHarness.account0)\",\"latest\"]") == .string("0x21e19e0c9bab2400000"))
        #expect(try await h.result("eth_blockNumber") == .string("0x0"))
        #expect(try await h.result("eth_getTransactionCount", "[\"\(HandlerHarness.account0)\",\"pending\"]") == .string("0x0"))
        #expect(try await h.result("eth_getCode", "[\"\(HandlerHarness.account0)\"]") == .string("0x"))
        #expect(try await h.result("eth_maxPriorityFeePerGas") == .string("0x3b9aca00"))
        #expect(try await h.result("eth_gasPrice").quantity ?? 0 > 1_000_000_000)
        let genesis = try await h.result("eth_getBlockByNumber", "[\"0x0\",false]")
        #expect(genesis["number"] == .string("0x0"))
        #expect(genesis["baseFeePerGas"] == .string("0x3b9aca00"))
        #expect(try await h.result("eth_getBlockByNumber", "[\"0x5\",false]") == .null)
        #expect(try await h.result("eth_getTransactionReceipt", "[\"0x\(String(repeating: "ab", count: 32))\"]") == .null)
    }

    /// Deploys CarChain from dev account 0 and registers a car; returns the contract address.
    static func deployCarChain(_ h: HandlerHarness) async throws -> String {
        let hash = try await h.send(data: Hex.encode(CarChainArtifact.project.bytecode))
        let receipt = try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")
        #expect(receipt["status"] == .string("0x1"))
        return try #require(receipt["contractAddress"]?.stringValue)
    }

    @Test func transactionsReceiptsBlocksAndLogs() async throws {
        let h = try await HandlerHarness.make()
        let contract = try await Self.deployCarChain(h)
        #expect(try await h.result("eth_getCode", "[\"\(contract)\",\"latest\"]").stringValue?.count ?? 0 > 100)
        let register = try await h.send(to: contract, data: Hex.encode(CarChainOperation.registerNewCar(plate: "CAR1").calldata))
        let receipt = try await h.result("eth_getTransactionReceipt", "[\"\(register)\"]")
        #expect(receipt["status"] == .string("0x1"))
        #expect(receipt["blockNumber"] == .string("0x2"))
        #expect(receipt["to"] == .string(contract))
        #expect(receipt["type"] == .string("0x2"))
        let logs = try #require(receipt["logs"]?.arrayValue)
        #expect(logs.count == 1)
        #expect(logs.first?["address"] == .string(contract))

        let tx = try await h.result("eth_getTransactionByHash", "[\"\(register)\"]")
        #expect(tx["hash"] == .string(register))
        #expect(tx["from"] == .string(HandlerHarness.account0))
        #expect(tx["nonce"] == .string("0x1"))
        #expect(tx["blockNumber"] == .string("0x2"))

        let block = try await h.result("eth_getBlockByNumber", "[\"latest\",true]")
        #expect(block["number"] == .string("0x2"))
        #expect(block["transactions"]?.arrayValue?.first?["hash"] == .string(register))
        let blockHash = try #require(block["hash"]?.stringValue)
        let byHash = try await h.result("eth_getBlockByHash", "[\"\(blockHash)\",false]")
        #expect(byHash["transactions"] == .array([.string(register)]))
        #expect(try await h.result("eth_getBlockTransactionCountByNumber", "[\"0x2\"]") == .string("0x1"))
        #expect(try await h.result("eth_getBlockTransactionCountByHash", "[\"\(blockHash)\"]") == .string("0x1"))
        #expect(try await h.result("eth_getTransactionByBlockNumberAndIndex", "[\"0x2\",\"0x0\"]")["hash"] == .string(register))
        #expect(try await h.result("eth_getTransactionByBlockNumberAndIndex", "[\"0x2\",\"0x1\"]") == .null)

        let found = try #require(try await h.result("eth_getLogs", "[{\"fromBlock\":\"0x0\",\"toBlock\":\"latest\",\"address\":\"\(contract)\"}]").arrayValue)
        #expect(found.count == 1)
        #expect(found.first?["transactionHash"] == .string(register))
        let none = try await h.result("eth_getLogs", "[{\"fromBlock\":\"0x0\",\"address\":\"\(HandlerHarness.account1)\"}]")
        #expect(none == .array([]))

        // Reads at an earlier block see the earlier state; storage is a 32-byte word.
        #expect(try await h.result("eth_getTransactionCount", "[\"\(HandlerHarness.account0)\",\"0x1\"]") == .string("0x1"))
        #expect(try await h.result("eth_getStorageAt", "[\"\(contract)\",\"0x0\",\"latest\"]").stringValue?.count == 66)

        let history = try await h.result("eth_feeHistory", "[\"0x2\",\"latest\",[50]]")
        #expect(history["oldestBlock"] == .string("0x1"))
        #expect(history["baseFeePerGas"]?.arrayValue?.count == 3)
        #expect(history["reward"]?.arrayValue?.count == 2)

        let trace = try await h.result("debug_traceTransaction", "[\"\(register)\"]")
        #expect(trace["failed"] == .bool(false))
        #expect((trace["structLogs"]?.arrayValue?.count ?? 0) > 10)
        #expect(trace["structLogs"]?.arrayValue?.first?["op"] == .string("PUSH1") || trace["structLogs"]?.arrayValue?.first?["op"] != nil)
    }

    @Test func callsRevertsAndEstimates() async throws {
        let h = try await HandlerHarness.make()
        let contract = try await Self.deployCarChain(h)
        _ = try await h.send(to: contract, data: Hex.encode(CarChainOperation.registerNewCar(plate: "CAR1").calldata))
        let count = try await h.result("eth_call", "[{\"to\":\"\(contract)\",\"data\":\"\(Hex.encode(CarChainQuery.registeredCars.calldata))\"},\"latest\"]")
        #expect(count == .string("0x" + String(repeating: "0", count: 63) + "1"))
        // Renting an unknown car reverts: code 3 with the Error(string) data.
        let rent = Hex.encode(CarChainOperation.rentCar(plate: "NOPE", userId: "u").calldata)
        let answer = try await h.answer("eth_call", "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(contract)\",\"data\":\"\(rent)\"}]")
        #expect(answer["error"]?["code"] == .number("3"))
        #expect(answer["error"]?["data"]?.stringValue?.hasPrefix("0x08c379a0") == true)
        #expect(answer["error"]?["message"]?.stringValue?.hasPrefix("execution reverted") == true)
        let estimate = try await h.answer("eth_estimateGas", "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(contract)\",\"data\":\"\(rent)\"}]")
        #expect(estimate["error"]?["code"] == .number("3"))
        let gas = try await h.result("eth_estimateGas", "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(HandlerHarness.account1)\",\"value\":\"0x1\"}]")
        #expect(gas == .string("0x5208"))
        let list = try await h.result("eth_createAccessList", "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(contract)\",\"data\":\"\(Hex.encode(CarChainQuery.registeredCars.calldata))\"}]")
        #expect(list["accessList"] != nil && list["gasUsed"] != nil)
    }

    @Test func rawTransactionsAndRejections() async throws {
        let h = try await HandlerHarness.make()
        let key = try PrivateKey(hex: Self.key0)
        let to = try Address(HandlerHarness.account1)
        func raw(nonce: UInt64, value: UInt256 = UInt256(1), chainId: UInt64 = 4) -> String {
            let tx = Transaction.legacy(LegacyTransaction(
                nonce: nonce, gasPrice: UInt256(3_000_000_000 as UInt64), gasLimit: 21_000, to: to, value: value, data: [], chainId: chainId))
            return tx.sign(with: key).rawHex
        }
        let hash = try await h.result("eth_sendRawTransaction", "[\"\(raw(nonce: 0))\"]")
        #expect(try await h.result("eth_getTransactionReceipt", "[\(hash)]")["status"] == .string("0x1"))
        let low = try await h.answer("eth_sendRawTransaction", "[\"\(raw(nonce: 0, value: UInt256(2)))\"]")
        #expect(low["error"]?["code"] == .number("-32000"))
        #expect(low["error"]?["message"]?.stringValue?.contains("nonce too low") == true)
        let rich = try await h.answer("eth_sendRawTransaction", "[\"\(raw(nonce: 1, value: UInt256(10_001) * UInt256(1_000_000_000_000_000_000 as UInt64)))\"]")
        #expect(rich["error"]?["code"] == .number("-32000"))
        #expect(rich["error"]?["message"]?.stringValue?.contains("insufficient funds") == true)
        #expect(try await h.errorCode("eth_sendRawTransaction", "[\"\(raw(nonce: 1, chainId: 5))\"]") == -32000)
        #expect(try await h.errorCode("eth_sendRawTransaction", "[\"0xdeadbeef\"]") == -32000)
        #expect(try await h.errorCode("eth_sendTransaction", "[{\"from\":\"0x000000000000000000000000000000000000dEaD\",\"to\":\"\(HandlerHarness.account1)\"}]") == -32000)
    }

    @Test func signing() async throws {
        let h = try await HandlerHarness.make()
        let message: [UInt8] = Array("hello".utf8)
        let signature = try #require(try await h.result("eth_sign", "[\"\(HandlerHarness.account0)\",\"\(Hex.encode(message))\"]").stringValue)
        let recovered = try PersonalMessage.recoverSigner(message, signature: try Signature(rsv: try Hex.decode(signature)))
        #expect(recovered == (try Address(HandlerHarness.account0)))
        let personal = try await h.result("personal_sign", "[\"\(Hex.encode(message))\",\"\(HandlerHarness.account0)\"]")
        #expect(personal == .string(signature))
        #expect(try await h.errorCode("eth_sign", "[\"0x000000000000000000000000000000000000dEaD\",\"0x00\"]") == -32000)
    }

    @Test func filters() async throws {
        let h = try await HandlerHarness.make()
        let blocks = try #require(try await h.result("eth_newBlockFilter").stringValue)
        let logsFilter = try #require(try await h.result("eth_newFilter", "[{\"fromBlock\":\"latest\"}]").stringValue)
        #expect(try await h.result("eth_getFilterChanges", "[\"\(blocks)\"]") == .array([]))
        let contract = try await Self.deployCarChain(h)
        _ = try await h.send(to: contract, data: Hex.encode(CarChainOperation.registerNewCar(plate: "CAR1").calldata))
        let newBlocks = try #require(try await h.result("eth_getFilterChanges", "[\"\(blocks)\"]").arrayValue)
        #expect(newBlocks.count == 2)
        #expect(try await h.result("eth_getFilterChanges", "[\"\(blocks)\"]") == .array([]))
        let newLogs = try #require(try await h.result("eth_getFilterChanges", "[\"\(logsFilter)\"]").arrayValue)
        #expect(newLogs.count == 1)
        #expect(newLogs.first?["address"] == .string(contract))
        #expect(try await h.result("eth_getFilterLogs", "[\"\(logsFilter)\"]").arrayValue?.count == 1)
        #expect(try await h.result("eth_uninstallFilter", "[\"\(logsFilter)\"]") == .bool(true))
        #expect(try await h.result("eth_uninstallFilter", "[\"\(logsFilter)\"]") == .bool(false))
        #expect(try await h.errorCode("eth_getFilterChanges", "[\"\(logsFilter)\"]") == -32000)
    }

    @Test func devMethods() async throws {
        let h = try await HandlerHarness.make()
        let snapshot = try #require(try await h.result("evm_snapshot").stringValue)
        _ = try await h.send(to: HandlerHarness.account1, value: "0x1")
        #expect(try await h.result("eth_blockNumber") == .string("0x1"))
        #expect(try await h.result("evm_revert", "[\"\(snapshot)\"]") == .bool(true))
        #expect(try await h.result("eth_blockNumber") == .string("0x0"))
        #expect(try await h.result("evm_revert", "[\"\(snapshot)\"]") == .bool(false))

        #expect(try await h.result("evm_mine") == .string("0x0"))
        #expect(try await h.result("eth_blockNumber") == .string("0x1"))
        #expect(try await h.result("hardhat_mine", "[\"0x3\"]") == .string("0x0"))
        #expect(try await h.result("eth_blockNumber") == .string("0x4"))
        let before = try #require(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity)
        _ = try await h.result("evm_setNextBlockTimestamp", "[\(before + 1000)]")
        _ = try await h.result("evm_mine")
        #expect(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity == before + 1000)
        #expect(try await h.errorCode("evm_setNextBlockTimestamp", "[\"0x1\"]") == -32000)
        #expect(try await h.result("evm_increaseTime", "[60]") != .null)

        // Without automine a transaction waits for evm_mine.
        #expect(try await h.result("evm_setAutomine", "[false]") == .bool(true))
        let pending = try await h.send(to: HandlerHarness.account1, value: "0x1")
        #expect(try await h.result("eth_getTransactionReceipt", "[\"\(pending)\"]") == .null)
        #expect(try await h.result("eth_getTransactionByHash", "[\"\(pending)\"]")["blockHash"] == .null)
        _ = try await h.result("evm_mine")
        #expect(try await h.result("eth_getTransactionReceipt", "[\"\(pending)\"]")["status"] == .string("0x1"))
        _ = try await h.result("evm_setAutomine", "[true]")

        let dead = "0x000000000000000000000000000000000000dead"
        #expect(try await h.result("anvil_setBalance", "[\"\(dead)\",\"0x64\"]") == .null)
        #expect(try await h.result("eth_getBalance", "[\"\(dead)\"]") == .string("0x64"))
        #expect(try await h.result("hardhat_setBalance", "[\"\(dead)\",\"0x65\"]") == .bool(true))
        #expect(try await h.result("eth_getBalance", "[\"\(dead)\"]") == .string("0x65"))
        _ = try await h.result("anvil_setCode", "[\"\(dead)\",\"0x6001\"]")
        #expect(try await h.result("eth_getCode", "[\"\(dead)\"]") == .string("0x6001"))
        _ = try await h.result("hardhat_setNonce", "[\"\(dead)\",\"0x7\"]")
        #expect(try await h.result("eth_getTransactionCount", "[\"\(dead)\"]") == .string("0x7"))
        let slotValue = "0x" + String(repeating: "0", count: 62) + "2a"
        #expect(try await h.result("anvil_setStorageAt", "[\"\(dead)\",\"0x1\",\"\(slotValue)\"]") == .bool(true))
        #expect(try await h.result("eth_getStorageAt", "[\"\(dead)\",\"0x1\"]") == .string(slotValue))
        #expect(try await h.result("hardhat_setStorageAt", "[\"\(dead)\",\"0x2\",\"\(slotValue)\"]") == .bool(true))
    }
}
