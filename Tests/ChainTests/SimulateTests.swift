import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Testing

/// `DevChain.simulate` (eth_simulateV1) on a dev chain. Independent truth: a simulated block equals the block the
/// chain really mines for the same transaction (state, receipts, gas), and a simulated call equals `eth_call`.
@Suite struct SimulateTests {
    typealias F = ChainFixtures

    static let coinbase = F.address("0x00000000000000000000000000000000c0ffee00")
    static let target = F.address("0xc100000000000000000000000000000000000000")
    static let empty = F.address("0xc000000000000000000000000000000000000000")

    static func chain() async throws -> DevChain {
        var config = ChainConfig.deterministic()
        config.coinbase = coinbase
        return try await DevChain(config: config)
    }

    static func call(
        from: Address? = nil, to: Address?, value: UInt256? = nil, data: [UInt8]? = nil, gas: UInt64? = nil,
        nonce: UInt64? = nil, maxFee: UInt256? = nil, tip: UInt256? = nil
    ) -> SimulatedCall {
        SimulatedCall(
            CallRequest(
                from: from, to: to, gas: gas, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, value: value, data: data,
                nonce: nonce))
    }

    /// Runtime returning SLOAD(calldata word 0).
    static let readSlot: [UInt8] = [0x60, 0x00, 0x35, 0x54, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]

    /// The error a simulation throws.
    static func failure(_ body: () async throws(SimulationError) -> Void) async -> SimulationError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func simulatedBlockEqualsTheMinedBlock() async throws {
        let chain = try await Self.chain()
        let tx = F.dynamicFee(F.key0, nonce: 0, to: Self.target, value: F.oneEther, gas: 21_000)
        try await chain.sendRawTransaction(tx.encoded)
        let mined = try #require(try await chain.block(.latest))
        let header = mined.header
        // The same transaction, unsigned, on the block before, with the mined block's time and coinbase.
        let request = SimulationRequest(
            blocks: [
                SimulatedBlockRequest(
                    overrides: BlockOverrides(time: header.timestamp, feeRecipient: header.coinbase),
                    calls: [
                        Self.call(
                            from: F.address0, to: Self.target, value: F.oneEther, gas: 21_000, nonce: 0,
                            maxFee: UInt256(100_000_000_000 as UInt64), tip: F.oneGwei)
                    ])
            ], validation: true)
        let blocks = try await chain.simulate(request, at: .number(header.number - 1))
        let simulated = try #require(blocks.first).block.header
        #expect(blocks.count == 1)
        #expect(simulated.number == header.number)
        #expect(simulated.parentHash == header.parentHash)
        #expect(simulated.baseFeePerGas == header.baseFeePerGas)
        #expect(simulated.gasUsed == header.gasUsed)
        #expect(simulated.stateRoot == header.stateRoot)
        #expect(simulated.receiptsRoot == header.receiptsRoot)
        #expect(simulated.logsBloom == header.logsBloom)
        #expect(simulated.requestsHash == header.requestsHash)
        #expect(simulated.excessBlobGas == header.excessBlobGas)
        // Nothing changed on the chain.
        #expect(try await chain.block(.latest)?.hash == mined.hash)
    }

    @Test func simulatedCallEqualsEthCallAndStateCarriesAcrossBlocks() async throws {
        let chain = try await Self.chain()
        let deploy = F.legacy(F.key0, nonce: 0, to: nil, data: CallTests.counterInitCode, gas: 200_000)
        let hash = try await chain.sendRawTransaction(deploy.encoded)
        let counter = try #require(try await chain.receipt(hash: hash)?.contractAddress)
        let ethCall = try await chain.call(CallRequest(from: F.address1, to: counter, data: F.word(UInt256(5))))

        let add5 = Self.call(from: F.address1, to: counter, data: F.word(UInt256(5)))
        let add1 = Self.call(from: F.address1, to: counter, data: F.word(UInt256(1)))
        let blocks = try await chain.simulate(
            SimulationRequest(blocks: [SimulatedBlockRequest(calls: [add5]), SimulatedBlockRequest(calls: [add1])]))
        #expect(blocks.count == 2)
        let first = try #require(blocks.first?.calls.first)
        #expect(first.status && first.error == nil)
        #expect(first.returnData == ethCall.output)
        #expect(first.gasUsed == ethCall.gasUsed)
        #expect(first.maxUsedGas >= first.gasUsed)
        // The second block sees the first block's write; the chain itself does not.
        #expect(blocks[1].calls.first?.returnData == F.word(UInt256(6)))
        #expect(blocks[1].block.header.parentHash == blocks[0].hash)
        #expect(try await chain.storage(counter, slot: .zero) == .zero)
        // A revert is a result with the revert data, code 3.
        let revert = try await chain.simulate(
            SimulationRequest(blocks: [SimulatedBlockRequest(calls: [Self.call(to: counter, data: F.word(UInt256(200)))])]))
        let failed = try #require(revert.first?.calls.first)
        #expect(!failed.status)
        #expect(failed.error?.code == 3)
        #expect(failed.error?.data == CallTests.revertPayload)
        #expect(failed.error?.message == "execution reverted: too big")
    }

    @Test func stateOverridesReplaceAndPatchStorage() async throws {
        let chain = try await Self.chain()
        let contract = F.address("0xc200000000000000000000000000000000000000")
        func read(_ slot: UInt64) -> SimulatedCall { Self.call(to: contract, data: F.word(UInt256(slot))) }
        let request = SimulationRequest(blocks: [
            SimulatedBlockRequest(
                stateOverrides: [contract: AccountOverride(code: Self.readSlot, state: [.zero: UInt256(7), .one: UInt256(8)])],
                calls: [read(0), read(1)]),
            SimulatedBlockRequest(
                stateOverrides: [contract: AccountOverride(stateDiff: [.one: UInt256(9)])], calls: [read(0), read(1)]),
            SimulatedBlockRequest(
                stateOverrides: [contract: AccountOverride(state: [UInt256(2): UInt256(3)])], calls: [read(0), read(2)]),
            SimulatedBlockRequest(
                stateOverrides: [Self.empty: AccountOverride(nonce: 5, balance: F.oneEther)],
                calls: [Self.call(from: Self.empty, to: Self.target, value: UInt256(1000), nonce: 5)]),
        ])
        let blocks = try await chain.simulate(request)
        let returned = blocks.map { $0.calls.map { UInt256(truncatingBigEndian: $0.returnData) } }
        #expect(returned[0] == [UInt256(7), UInt256(8)])
        #expect(returned[1] == [UInt256(7), UInt256(9)])
        #expect(returned[2] == [.zero, UInt256(3)])
        #expect(blocks[3].calls.first?.status == true)
        #expect(blocks[3].block.transactions.first?.transaction.nonce == 5)
    }

    @Test func numberGapsAreFilledAndBlockhashSeesSimulatedBlocks() async throws {
        let chain = try await Self.chain()
        let head = try #require(try await chain.block(.latest)).header
        // BLOCKHASH(head + 1), returned as a word.
        let blockhash: [UInt8] = [0x60, 0x00, 0x35, 0x40, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]
        let probe = F.address("0xc300000000000000000000000000000000000000")
        let request = SimulationRequest(blocks: [
            SimulatedBlockRequest(
                overrides: BlockOverrides(number: head.number + 3),
                stateOverrides: [probe: AccountOverride(code: blockhash)],
                calls: [Self.call(to: probe, data: F.word(UInt256(head.number + 1)))])
        ])
        let blocks = try await chain.simulate(request)
        #expect(blocks.map(\.block.header.number) == [head.number + 1, head.number + 2, head.number + 3])
        #expect(blocks.map(\.block.header.timestamp) == [1, 2, 3].map { head.timestamp + 12 * $0 })
        #expect(blocks[0].calls.isEmpty && blocks[1].calls.isEmpty)
        #expect(blocks[1].block.header.parentHash == blocks[0].hash)
        #expect(blocks[2].calls.first?.returnData == blocks[0].hash.bytes)
    }

    @Test func validationChecksNoncesAndFeesOnlyWhenAsked() async throws {
        let chain = try await Self.chain()
        let free = Self.call(from: F.address0, to: Self.target, value: UInt256(1))
        let wrongNonce = Self.call(from: F.address0, to: Self.target, nonce: 3)
        // Without validation a free call and any nonce run (base fee zero).
        let lenient = try await chain.simulate(SimulationRequest(blocks: [SimulatedBlockRequest(calls: [free, wrongNonce])]))
        #expect(lenient.first?.calls.map(\.status) == [true, true])
        #expect(lenient.first?.block.header.baseFeePerGas == .zero)
        // With validation: the base fee follows EIP-1559, a free call is below it, and nonces must match.
        let feeError = await Self.failure { () async throws(SimulationError) in
            _ = try await chain.simulate(SimulationRequest(blocks: [SimulatedBlockRequest(calls: [free])], validation: true))
        }
        #expect(feeError?.rpcCode == -38012)
        let priced = { (nonce: UInt64) in
            Self.call(from: F.address0, to: Self.target, nonce: nonce, maxFee: UInt256(100_000_000_000 as UInt64))
        }
        let high = await Self.failure { () async throws(SimulationError) in
            _ = try await chain.simulate(SimulationRequest(blocks: [SimulatedBlockRequest(calls: [priced(3)])], validation: true))
        }
        #expect(high?.rpcCode == -38011)
        let valid = try await chain.simulate(
            SimulationRequest(blocks: [SimulatedBlockRequest(calls: [priced(0), priced(1)])], validation: true))
        #expect(valid.first?.calls.map(\.status) == [true, true])
        let low = await Self.failure { () async throws(SimulationError) in
            _ = try await chain.simulate(
                SimulationRequest(blocks: [SimulatedBlockRequest(calls: [priced(0), priced(0)])], validation: true))
        }
        #expect(low?.rpcCode == -38010)
        // No funds: refused in both modes.
        let poor = Self.call(from: Self.empty, to: Self.target, value: UInt256(1000))
        for validation in [false, true] {
            let error = await Self.failure { () async throws(SimulationError) in
                _ = try await chain.simulate(SimulationRequest(blocks: [SimulatedBlockRequest(calls: [poor])], validation: validation))
            }
            #expect(error?.rpcCode == (validation ? -38012 : -38014))
        }
    }

    @Test func transfersAreTracedAndDroppedWithTheirFrame() async throws {
        let chain = try await Self.chain()
        let forwarder = F.address("0xc400000000000000000000000000000000000000")
        // CALL(gas, calldata word 0 as the recipient, value 1000, no input, no output); revert when word 1 is set.
        let code: [UInt8] = [
            0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0x61, 0x03, 0xe8, 0x60, 0x00, 0x35, 0x5a, 0xf1, 0x50,
            0x60, 0x20, 0x35, 0x15, 0x60, 0x1d, 0x57, 0x60, 0x00, 0x60, 0x00, 0xfd, 0x5b, 0x00,
        ]
        let funded = [
            forwarder: AccountOverride(code: code, balance: F.oneEther), Self.empty: AccountOverride(balance: F.oneEther),
        ]
        let outer = Self.call(from: Self.empty, to: forwarder, value: UInt256(5), data: F.word(UInt256(Self.target.bytes32)))
        let reverting = Self.call(
            from: Self.empty, to: forwarder, value: UInt256(5), data: F.word(UInt256(Self.target.bytes32)) + F.word(.one))
        let blocks = try await chain.simulate(
            SimulationRequest(
                blocks: [SimulatedBlockRequest(stateOverrides: funded, calls: [outer, reverting])], traceTransfers: true))
        let calls = try #require(blocks.first?.calls)
        let transfers = calls[0].logs
        #expect(transfers.count == 2)
        #expect(transfers.allSatisfy { $0.address == F.address("0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee") })
        #expect(transfers.map(\.topics[1]) == [Self.empty.bytes32, forwarder.bytes32])
        #expect(transfers.map(\.topics[2]) == [forwarder.bytes32, Self.target.bytes32])
        #expect(transfers.map { UInt256(truncatingBigEndian: $0.data) } == [UInt256(5), UInt256(1000)])
        #expect(transfers.map(\.logIndex) == [0, 1])
        #expect(transfers.allSatisfy { $0.blockHash == blocks[0].hash })
        // The reverted call reports no transfer, and its receipt no log either.
        #expect(!calls[1].status && calls[1].logs.isEmpty)
        #expect(blocks[0].block.header.logsBloom == Bloom())
        // Without traceTransfers there are no transfer logs.
        let plain = try await chain.simulate(SimulationRequest(blocks: [SimulatedBlockRequest(stateOverrides: funded, calls: [outer])]))
        #expect(plain.first?.calls.first?.logs.isEmpty == true)
    }

    @Test func movedPrecompileAnswersAtItsNewAddress() async throws {
        let chain = try await Self.chain()
        let ecrecover = F.address("0x0000000000000000000000000000000000000001")
        let moved = F.address("0x0000000000000000000000000000000000123456")
        let hash = Keccak256.hash(Array("simulate".utf8))
        let signature = F.key0.sign(hash: hash)
        let input =
            hash.bytes + F.word(UInt256(27 + UInt64(signature.recoveryID))) + signature.r.bytes + signature.s.bytes
        let request = SimulationRequest(blocks: [
            SimulatedBlockRequest(
                stateOverrides: [ecrecover: AccountOverride(movePrecompileToAddress: moved)],
                calls: [Self.call(to: moved, data: input), Self.call(to: ecrecover, data: input)])
        ])
        let calls = try #require(try await chain.simulate(request).first?.calls)
        #expect(calls[0].returnData == F.address0.bytes32.bytes)
        #expect(calls[1].returnData.isEmpty)  // no precompile, no code there any more
    }

    @Test func requestsThatCannotRunFailWithTheSpecsCodes() async throws {
        let chain = try await Self.chain()
        let head = try #require(try await chain.block(.latest)).header
        func code(_ request: SimulationRequest, at id: BlockID = .latest) async -> Int? {
            await Self.failure { () async throws(SimulationError) in _ = try await chain.simulate(request, at: id) }?.rpcCode
        }
        let one = SimulatedBlockRequest(calls: [Self.call(to: Self.target)])
        #expect(await code(SimulationRequest(blocks: [])) == -32602)
        #expect(await code(SimulationRequest(blocks: Array(repeating: SimulatedBlockRequest(), count: 257))) == -38026)
        #expect(await code(SimulationRequest(blocks: [SimulatedBlockRequest(overrides: BlockOverrides(number: head.number + 257))])) == -38026)
        #expect(
            await code(
                SimulationRequest(blocks: [
                    SimulatedBlockRequest(overrides: BlockOverrides(number: head.number + 2)),
                    SimulatedBlockRequest(overrides: BlockOverrides(number: head.number + 2)),
                ])) == -38020)
        #expect(
            await code(SimulationRequest(blocks: [SimulatedBlockRequest(overrides: BlockOverrides(time: head.timestamp))]))
                == -38021)
        #expect(
            await code(
                SimulationRequest(blocks: [
                    SimulatedBlockRequest(overrides: BlockOverrides(gasLimit: 30_000), calls: [Self.call(to: Self.target, gas: 40_000)])
                ])) == -38015)
        #expect(await code(SimulationRequest(blocks: [SimulatedBlockRequest(calls: [Self.call(to: Self.target, gas: 20_000)])])) == -38013)
        #expect(await code(SimulationRequest(blocks: [one]), at: .number(head.number + 1)) == -32000)
        #expect(
            await code(
                SimulationRequest(blocks: [
                    SimulatedBlockRequest(stateOverrides: [Self.target: AccountOverride(state: [:], stateDiff: [:])])
                ])) == -32000)
        #expect(
            await code(
                SimulationRequest(blocks: [
                    SimulatedBlockRequest(stateOverrides: [Self.target: AccountOverride(movePrecompileToAddress: Self.empty)])
                ])) == -32000)
    }

    @Test func theGasCapIsSharedByTheRequestsCalls() async throws {
        let chain = try await Self.chain()
        let limits = CallLimits(gasCap: 100_000, timeout: .seconds(5))
        let blocks = try await chain.simulate(
            SimulationRequest(blocks: [
                SimulatedBlockRequest(calls: [Self.call(to: Self.target), Self.call(to: Self.target)]),
                SimulatedBlockRequest(calls: [Self.call(to: Self.target)]),
            ]), limits: limits)
        let gas = blocks.flatMap { $0.block.transactions.map(\.transaction.gasLimit) }
        #expect(gas == [100_000, 79_000, 58_000])
    }
}
