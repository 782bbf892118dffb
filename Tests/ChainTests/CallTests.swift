import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Testing

@Suite struct CallTests {
    typealias F = ChainFixtures

    /// Runtime: SLOAD(0), add calldata word 0, SSTORE(0), return the new value; reverts with
    /// Error("too big") when the word is ≥ 100.
    static let counterRuntime: [UInt8] = [
        0x60, 0x00, 0x35,  // PUSH1 0 CALLDATALOAD           [x]
        0x60, 0x64, 0x81, 0x10,  // PUSH1 100, DUP2, LT       [x, x<100]
        0x60, 0x1a, 0x57,  // PUSH1 ok, JUMPI                 [x]
        // revert Error("too big"): the 68-byte payload from code
        0x60, 0x64, 0x60, 0x2b, 0x60, 0x00, 0x39,  // CODECOPY(0, 0x2b, 100)
        0x60, 0x64, 0x60, 0x00, 0xfd,  // REVERT(0, 100)
        0x00, 0x00, 0x00, 0x00,  // padding to 0x1a
        0x5b,  // 0x1a JUMPDEST                               [x]
        0x60, 0x00, 0x54, 0x01,  // SLOAD(0) ADD              [x+s]
        0x80, 0x60, 0x00, 0x55,  // DUP1 SSTORE(0)            [v]
        0x60, 0x00, 0x52,  // MSTORE(0)
        0x60, 0x20, 0x60, 0x00, 0xf3,  // RETURN(0, 32)
    ]

    static var revertPayload: [UInt8] {
        [0x08, 0xc3, 0x79, 0xa0] + F.word(UInt256(32)) + F.word(UInt256(7)) + Array("too big".utf8)
            + [UInt8](repeating: 0, count: 25)
    }

    static var counterInitCode: [UInt8] {
        let runtime = counterRuntime + revertPayload
        let length = UInt8(runtime.count)
        // PUSH1 len DUP1 PUSH1 12 PUSH1 0 CODECOPY PUSH1 0 RETURN
        return [0x60, length, 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3] + runtime
    }

    private func deploy() async throws -> (DevChain, Address) {
        #expect(Self.counterRuntime.count == 0x2b)
        let chain = try await DevChain(config: .deterministic())
        let hash = try await chain.sendRawTransaction(
            F.legacy(F.key0, nonce: 0, to: nil, data: Self.counterInitCode, gas: 200_000).encoded)
        let receipt = try #require(try await chain.receipt(hash: hash))
        #expect(receipt.status)
        return (chain, try #require(receipt.contractAddress))
    }

    @Test func callReturnsDataAndChangesNothing() async throws {
        let (chain, counter) = try await deploy()
        let root = await chain.currentState().stateRoot
        let result = try await chain.call(CallRequest(from: F.address0, to: counter, data: F.word(UInt256(5))))
        #expect(result.isSuccess && result.error == nil)
        #expect(result.output == F.word(UInt256(5)))
        #expect(result.gasUsed > 21_000)
        #expect(await chain.currentState().stateRoot == root)
        #expect(try await chain.storage(counter, slot: .zero) == .zero)
        // A real transaction changes it; a later call sees it.
        try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 1, to: counter, data: F.word(UInt256(5)), gas: 100_000).encoded)
        #expect(try await chain.call(CallRequest(to: counter, data: F.word(UInt256(1)))).output == F.word(UInt256(6)))
        // At the earlier block the slot was still 0.
        #expect(try await chain.call(CallRequest(to: counter, data: F.word(UInt256(1))), at: .number(1)).output == F.word(.one))
    }

    @Test func revertDataAndReason() async throws {
        let (chain, counter) = try await deploy()
        let result = try await chain.call(CallRequest(to: counter, data: F.word(UInt256(100))))
        #expect(result.status == .reverted)
        #expect(result.output == Self.revertPayload)
        let error = try #require(result.error)
        #expect(error == .executionReverted(data: Self.revertPayload, reason: "too big"))
        #expect(error.rpcCode == 3 && error.rpcData == Self.revertPayload)
        #expect(error.description == "execution reverted: too big")
        await #expect(throws: ChainError.executionReverted(data: Self.revertPayload, reason: "too big")) {
            try await chain.estimateGas(CallRequest(to: counter, data: F.word(UInt256(100))))
        }
    }

    @Test func estimateGasIsTheSmallestLimitThatSucceeds() async throws {
        let (chain, counter) = try await deploy()
        let request = CallRequest(from: F.address0, to: counter, data: F.word(UInt256(5)))
        let estimate = try await chain.estimateGas(request)
        var ok = request
        ok.gas = estimate
        #expect(try await chain.call(ok).isSuccess)
        var short = request
        short.gas = estimate - 1
        #expect(!(try await chain.call(short).isSuccess))
        // SSTORE 0 → non-zero needs 22,100 + more than the 2,300 stipend: the estimate covers it.
        #expect(estimate > 21_000 + 22_100)
        #expect(try await chain.estimateGas(CallRequest(from: F.address0, to: F.address1, value: .one)) == 21_000)
        // The estimate works as a real gas limit.
        let hash = try await chain.sendRawTransaction(
            F.dynamicFee(F.key0, nonce: 1, to: counter, data: F.word(UInt256(5)), gas: estimate).encoded)
        #expect(try #require(try await chain.receipt(hash: hash)).status)
        await #expect(throws: ChainError.gasRequiredExceedsAllowance(21_500)) {
            try await chain.estimateGas(CallRequest(to: counter, gas: 21_500, data: F.word(UInt256(5))))
        }
    }

    @Test func callErrors() async throws {
        let (chain, counter) = try await deploy()
        let poor = F.address("0x00000000000000000000000000000000000000dd")
        await #expect(throws: ChainError.self) {
            try await chain.call(CallRequest(from: poor, to: counter, value: .one))
        }
        await #expect(throws: ChainError.self) { try await chain.call(CallRequest(to: counter, gas: 1_000)) }
        await #expect(throws: ChainError.self) { try await chain.call(CallRequest(to: counter), at: .number(50)) }
        // A paid call: fee fields are checked against the base fee.
        await #expect(throws: ChainError.self) {
            try await chain.call(CallRequest(from: F.address0, to: counter, maxFeePerGas: .one, maxPriorityFeePerGas: .one))
        }
        let paid = try await chain.call(
            CallRequest(from: F.address0, to: counter, gasPrice: F.oneGwei, data: F.word(.one)))
        #expect(paid.isSuccess)
    }

    @Test func accessListNamesTheSlots() async throws {
        let (chain, counter) = try await deploy()
        let result = try await chain.createAccessList(CallRequest(from: F.address0, to: counter, data: F.word(.one)))
        #expect(result.error == nil)
        #expect(result.accessList == [AccessListEntry(address: counter, storageKeys: [.zero])])
        var withList = CallRequest(from: F.address0, to: counter, data: F.word(.one))
        withList.accessList = result.accessList
        #expect(try await chain.call(withList).gasUsed == result.gasUsed)
    }

    @Test func traceOfAMinedTransaction() async throws {
        let (chain, counter) = try await deploy()
        let hash = try await chain.sendRawTransaction(
            F.dynamicFee(F.key0, nonce: 1, to: counter, data: F.word(UInt256(5)), gas: 100_000).encoded)
        let trace = try await chain.trace(transaction: hash)
        let receipt = try #require(try await chain.receipt(hash: hash))
        #expect(!trace.failed)
        #expect(trace.gas == receipt.gasUsed)
        #expect(trace.returnValue == F.word(UInt256(5)))
        #expect(trace.structLogs.first?.opName == "PUSH1")
        #expect(trace.structLogs.last?.opName == "RETURN")
        #expect(trace.structLogs.contains { $0.opName == "SSTORE" })
        #expect(trace.structLogs.allSatisfy { $0.depth == 1 })
        await #expect(throws: ChainError.self) { try await chain.trace(transaction: .zero) }
    }

    @Test func feeHistory() async throws {
        let chain = try await DevChain(config: .deterministic())
        for nonce in 0..<3 as Range<UInt64> {
            try await chain.sendRawTransaction(
                F.dynamicFee(F.key0, nonce: nonce, to: F.address1, tip: F.oneGwei * UInt256(nonce + 1)).encoded)
        }
        let history = try await chain.feeHistory(blockCount: 2, newest: .latest, rewardPercentiles: [10, 90])
        #expect(history.oldestBlock == 2)
        #expect(history.baseFeePerGas.count == 3 && history.gasUsedRatio.count == 2)
        #expect(history.baseFeePerGas[0] == (try #require(try await chain.block(.number(2)))).header.baseFeePerGas)
        #expect(history.reward == [[F.oneGwei * UInt256(2), F.oneGwei * UInt256(2)], [F.oneGwei * UInt256(3), F.oneGwei * UInt256(3)]])
        #expect(history.gasUsedRatio[0] == 21_000.0 / 30_000_000.0)
        #expect(history.baseFeePerBlobGas == [.one, .one, .one])
        #expect(await chain.gasPrice() == (await chain.pendingBaseFee() ?? .zero) + F.oneGwei)
        await #expect(throws: ChainError.self) {
            try await chain.feeHistory(blockCount: 1, newest: .latest, rewardPercentiles: [50, 10])
        }
    }
}
