import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Testing

/// geth's own `eth_simulateV1` cases (internal/ethapi/api_test.go, `TestSimulateV1`, `TestSimulateV1ChainLinkage`,
/// `TestSimulateV1WithdrawalsByFork`) on a chain built as geth's test backend builds it: London rules before the
/// merge (`params.TestChainConfig`), the genesis gas limit 4,712,388, coinbase 0x…ffff, blocks 10 s apart from time 0,
/// ten blocks each with one legacy 1,000-wei transfer at the base fee, and geth's `cac` (self-destructs to 0x…dad) and
/// `bab` (returns slots 1 and 2 packed) contracts. The figures (gas, return data, log positions, base fees, errors'
/// codes) are geth's expectations, written down here from its test; the independent truth is geth.
@Suite struct SimulateGethCaseTests {
    typealias F = ChainFixtures

    static let coinbase = F.address("0x000000000000000000000000000000000000ffff")
    static let cac = F.address("0x0000000000000000000000000000000000000cac")
    static let bab = F.address("0x0000000000000000000000000000000000000bab")
    static let dad = F.address("0x0000000000000000000000000000000000000dad")
    /// geth's `fixedAccount`: the address of its test key (b71c71a6…), which `newTestBackend` funds with one ether for
    /// its account manager, so it exists before any call (a value transfer to it pays no new-account gas).
    static let fixedAccount = F.address("0x71562b71999873db5b286df957af199ec94617f7")
    /// geth's `randomAccounts`: addresses with nothing at them.
    static let random = (0..<4).map { F.address("0x00000000000000000000000000000000000a000\($0)") }
    static let babCode = hex("600154600254700100000000000000000000000000000000820291508082018060005260206000f3")
    /// NUMBER; MSTORE 0; RETURN 32.
    static let numberCode: [UInt8] = [0x43, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]
    /// GASPRICE, BASEFEE returned as two words.
    static let feesCode = hex("3a489060005260205260406000f3")

    static func hex(_ text: String) -> [UInt8] { (try? Hex.decode("0x" + text)) ?? [] }
    static func word(_ n: UInt64) -> [UInt8] { UInt256(n).bigEndianBytes }

    /// geth's test backend: ten blocks after genesis, the base at block 10 (time 100).
    static func backend() async throws -> DevChain {
        var config = ChainConfig.deterministic(genesisTimestamp: 0, blockInterval: 10)
        config.hardfork = .grayGlacier
        config.gasLimit = 4_712_388
        config.coinbase = coinbase
        let chain = try await DevChain(config: config)
        try await chain.setCode(cac, hex("610dad80ff"))
        try await chain.setBalance(cac, F.oneEther)
        try await chain.setCode(bab, babCode)
        try await chain.setBalance(bab, .one)
        try await chain.setStorage(bab, slot: UInt256(1), value: UInt256(10))
        try await chain.setStorage(bab, slot: UInt256(2), value: UInt256(12))
        try await chain.setBalance(fixedAccount, F.oneEther)
        for nonce in 0..<10 as Range<UInt64> {
            let baseFee = try #require(await chain.pendingBaseFee())
            try await chain.sendRawTransaction(
                F.legacy(F.key0, nonce: nonce, to: F.address1, value: UInt256(1_000), gasPrice: baseFee).encoded)
        }
        #expect(await chain.blockNumber() == 10)
        return chain
    }

    static func call(
        from: Address?, to: Address?, value: UInt64? = nil, data: [UInt8]? = nil, nonce: UInt64? = nil,
        maxFee: UInt64? = nil, tip: UInt64? = nil
    ) -> SimulatedCall {
        SimulatedCall(
            CallRequest(
                from: from, to: to, maxFeePerGas: maxFee.map { UInt256($0) }, maxPriorityFeePerGas: tip.map { UInt256($0) },
                value: value.map { UInt256($0) }, data: data, nonce: nonce))
    }

    static func simulate(
        _ chain: DevChain, _ blocks: [SimulatedBlockRequest], transfers: Bool = false, validation: Bool = false
    ) async throws -> [SimulatedBlock] {
        try await chain.simulate(SimulationRequest(blocks: blocks, traceTransfers: transfers, validation: validation))
    }

    static func failure(_ chain: DevChain, _ blocks: [SimulatedBlockRequest], validation: Bool = false) async -> SimulationError? {
        do {
            _ = try await chain.simulate(SimulationRequest(blocks: blocks, validation: validation))
            return nil
        } catch {
            return error
        }
    }

    /// A block's number, gas limit, gas used, miner and base fee, and each call's return data, gas used and status.
    static func summary(_ block: SimulatedBlock) -> [String] {
        let h = block.block.header
        var lines = [
            "number \(h.number) gasLimit \(h.gasLimit) gasUsed \(h.gasUsed) miner \(h.coinbase.lowercasedHex) baseFee \(h.baseFeePerGas?.description ?? "nil")"
        ]
        for call in block.calls {
            lines.append("call \(Hex.encode(call.returnData)) gas \(call.gasUsed) status \(call.status ? 1 : 0)")
        }
        return lines
    }

    static func expected(_ number: UInt64, gasUsed: UInt64, miner: Address = coinbase, baseFee: UInt64 = 0, calls: [(String, UInt64)]) -> [String] {
        ["number \(number) gasLimit 4712388 gasUsed \(gasUsed) miner \(miner.lowercasedHex) baseFee \(baseFee)"]
            + calls.map { "call \($0.0) gas \($0.1) status 1" }
    }

    @Test func simpleTransfersBuildUpState() async throws {
        let chain = try await Self.backend()
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                stateOverrides: [Self.random[0]: AccountOverride(balance: UInt256(1_000))],
                calls: [
                    Self.call(from: Self.random[0], to: Self.random[1], value: 1_000),
                    Self.call(from: Self.random[1], to: Self.random[2], value: 1_000),
                    Self.call(from: nil, to: Self.random[3]),
                ])
        ])
        #expect(Self.summary(blocks[0]) == Self.expected(11, gasUsed: 0xf618, calls: [("0x", 0x5208), ("0x", 0x5208), ("0x", 0x5208)]))
        #expect(blocks[0].block.header.timestamp == 0x70)
    }

    @Test func stateCarriesOverBlocks() async throws {
        let chain = try await Self.backend()
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                stateOverrides: [Self.random[0]: AccountOverride(balance: UInt256(2_000))],
                calls: [
                    Self.call(from: Self.random[0], to: Self.random[1], value: 1_000),
                    Self.call(from: Self.random[0], to: Self.random[3], value: 1_000),
                ]),
            SimulatedBlockRequest(
                stateOverrides: [Self.random[3]: AccountOverride(balance: .zero)],
                calls: [Self.call(from: Self.random[1], to: Self.random[2], value: 1_000)]),
        ])
        #expect(Self.summary(blocks[0]) == Self.expected(11, gasUsed: 0xa410, calls: [("0x", 0x5208), ("0x", 0x5208)]))
        #expect(Self.summary(blocks[1]) == Self.expected(12, gasUsed: 0x5208, calls: [("0x", 0x5208)]))
        #expect(blocks[1].block.header.parentHash == blocks[0].hash)
        #expect(blocks[0].block.header.parentHash == (try await chain.block(.latest))?.hash)
    }

    @Test func insufficientFundsFailsTheRequestWithItsCode() async throws {
        let chain = try await Self.backend()
        let error = await Self.failure(chain, [
            SimulatedBlockRequest(calls: [Self.call(from: Self.random[0], to: Self.random[1], value: 1_000)])
        ])
        #expect(error?.rpcCode == -38014)
        // geth's words exactly (api_test.go, "insufficient funds").
        #expect(error?.description == "err: insufficient funds for gas * price + value: address \(Self.random[0].checksummed) have 0 want 1000 (supplied gas 4712388)")
    }

    @Test func anEVMHaltIsACallResult() async throws {
        let chain = try await Self.backend()
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                stateOverrides: [Self.random[2]: AccountOverride(code: [0xf3])],
                calls: [Self.call(from: Self.random[0], to: Self.random[2])])
        ])
        let call = try #require(blocks.first?.calls.first)
        #expect(!call.status && call.gasUsed == 0x47e7c4 && call.returnData.isEmpty)
        // geth's message adds the stack sizes ("stack underflow (0 <=> 2)"); the EVM's status carries none.
        #expect(call.error?.code == -32015 && call.error?.message.hasPrefix("stack underflow") == true)
        #expect(blocks[0].block.header.gasUsed == 0x47e7c4)
    }

    @Test func blockOverridesAndTheFeeRecipientCarryOn() async throws {
        let chain = try await Self.backend()
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                overrides: BlockOverrides(number: 11, feeRecipient: Self.cac),
                calls: [Self.call(from: F.address0, to: nil, data: Self.numberCode)]),
            SimulatedBlockRequest(
                overrides: BlockOverrides(number: 12), calls: [Self.call(from: F.address1, to: nil, data: Self.numberCode)]),
        ])
        #expect(Self.summary(blocks[0]) == Self.expected(11, gasUsed: 0xe891, miner: Self.cac, calls: [(Hex.encode(Self.word(11)), 0xe891)]))
        #expect(Self.summary(blocks[1]) == Self.expected(12, gasUsed: 0xe891, miner: Self.cac, calls: [(Hex.encode(Self.word(12)), 0xe891)]))
        let order = await Self.failure(chain, [
            SimulatedBlockRequest(overrides: BlockOverrides(number: 12)), SimulatedBlockRequest(overrides: BlockOverrides(number: 11)),
        ])
        #expect(order?.rpcCode == -38020 && order?.description == "block numbers must be in order: 11 <= 12")
    }

    @Test func logsAndTransferLogs() async throws {
        let chain = try await Self.backend()
        let logger = Self.hex("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff80600080a1600080f3")
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                stateOverrides: [Self.random[2]: AccountOverride(code: logger)],
                calls: [Self.call(from: Self.random[0], to: Self.random[2])])
        ])
        let log = try #require(blocks.first?.calls.first?.logs.first)
        #expect(blocks[0].calls[0].gasUsed == 0x5508 && blocks[0].calls[0].logs.count == 1)
        let allOnes = try #require(Bytes32([UInt8](repeating: 0xff, count: 32)))
        #expect(log.address == Self.random[2] && log.topics == [allOnes] && log.data.isEmpty)
        #expect(log.blockNumber == 11 && log.blockTimestamp == 0x70 && log.transactionIndex == 0 && log.logIndex == 0)
        #expect(log.blockHash == blocks[0].hash)
        #expect(log.transactionHash == blocks[0].block.transactions[0].hash)

        // A contract forwarding 100 wei to the address in its calldata, called with 50 wei.
        let forwarder = Self.hex("60003560601c606460008060008084865af160008103601d57600080fd5b505050")
        let fixed = Self.fixedAccount
        let transfers = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                stateOverrides: [Self.random[0]: AccountOverride(code: forwarder, balance: UInt256(100))],
                calls: [Self.call(from: F.address0, to: Self.random[0], value: 50, data: fixed.bytes)])
        ], transfers: true)
        let call = try #require(transfers.first?.calls.first)
        #expect(call.gasUsed == 0x77dc && call.status)
        let erc7528 = F.address("0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee")
        let transferTopic = Keccak256.hash(Array("Transfer(address,address,uint256)".utf8))
        #expect(call.logs.map(\.address) == [erc7528, erc7528])
        #expect(call.logs.map(\.topics) == [
            [transferTopic, F.address0.bytes32, Self.random[0].bytes32], [transferTopic, Self.random[0].bytes32, fixed.bytes32],
        ])
        #expect(call.logs.map(\.data) == [Self.word(50), Self.word(100)])
        #expect(call.logs.map(\.logIndex) == [0, 1])
    }

    @Test func selfDestructAndItsEffectsLaterInTheBlockAndAfter() async throws {
        let chain = try await Self.backend()
        let check = Self.hex("610cac610dad600082311115601357600080fd5b6000823b1115602157600080fd5b6000813103602e57600080fd5b5050")
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(calls: [
                Self.call(from: F.address0, to: Self.cac), Self.call(from: F.address0, to: nil, data: check),
            ]),
            SimulatedBlockRequest(calls: [Self.call(from: F.address0, to: nil, data: check)]),
        ])
        #expect(Self.summary(blocks[0]) == Self.expected(11, gasUsed: 0x1b83f, calls: [("0x", 0xd166), ("0x", 0xe6d9)]))
        #expect(Self.summary(blocks[1]) == Self.expected(12, gasUsed: 0xe6d9, calls: [("0x", 0xe6d9)]))
    }

    @Test func validationChecksNoncesAndFeesFromTheParent() async throws {
        let chain = try await Self.backend()
        let nonce = await Self.failure(chain, [
            SimulatedBlockRequest(calls: [Self.call(from: F.accounts[2].address, to: Self.cac, nonce: 2)])
        ], validation: true)
        #expect(nonce?.rpcCode == -38011)
        #expect(nonce?.description == "err: nonce too high: address \(F.accounts[2].address.checksummed), tx: 2 state: 0 (supplied gas 4712388)")
        // A sender with code is accepted (geth skips the EOA check in simulations); the base fee follows EIP-1559 from
        // the parent: 0xde56ab3 after ten 21,000-gas blocks from 1 gwei.
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                stateOverrides: [Self.random[2]: AccountOverride(nonce: 1, code: [0x00], balance: UInt256(2_098_640_803_896_784 as UInt64))],
                calls: [Self.call(from: Self.random[2], to: Self.cac, nonce: 1, maxFee: 233_138_868, tip: 1)])
        ], validation: true)
        #expect(Self.summary(blocks[0]) == Self.expected(11, gasUsed: 0xd166, baseFee: 0xde56ab3, calls: [("0x", 0xd166)]))
        let success = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                overrides: BlockOverrides(baseFeePerGas: .one),
                stateOverrides: [Self.random[0]: AccountOverride(balance: UInt256(10_000_000))],
                calls: [Self.call(from: Self.random[0], to: Self.random[1], value: 1_000, maxFee: 2)])
        ], validation: true)
        #expect(Self.summary(success[0]) == Self.expected(11, gasUsed: 0x5208, baseFee: 1, calls: [("0x", 0x5208)]))
    }

    @Test func stateReplacesAndStateDiffWrites() async throws {
        let chain = try await Self.backend()
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                stateOverrides: [
                    Self.random[2]: AccountOverride(code: Self.babCode, stateDiff: [UInt256(1): UInt256(2), UInt256(2): UInt256(3)]),
                    Self.bab: AccountOverride(state: [UInt256(1): UInt256(1)]),
                ],
                calls: [Self.call(from: F.address0, to: Self.random[2]), Self.call(from: F.address0, to: Self.bab)]),
            SimulatedBlockRequest(
                stateOverrides: [Self.random[2]: AccountOverride(state: [UInt256(1): UInt256(5)])],
                calls: [Self.call(from: F.address0, to: Self.random[2])]),
        ])
        let packed = { (high: UInt64, low: UInt64) in Hex.encode(Array(UInt256(high).bigEndianBytes.suffix(16)) + Array(UInt256(low).bigEndianBytes.suffix(16))) }
        #expect(Self.summary(blocks[0]) == Self.expected(11, gasUsed: 0xc542, calls: [(packed(2, 3), 0x62a1), (packed(1, 0), 0x62a1)]))
        #expect(Self.summary(blocks[1]) == Self.expected(12, gasUsed: 0x62a1, calls: [(packed(5, 0), 0x62a1)]))
    }

    @Test func blockHashSeesPhantomSimulatedAndCanonicalBlocks() async throws {
        let chain = try await Self.backend()
        // Reverts unless BLOCKHASH(calldata word) is nonzero.
        let code = Self.hex("600035804060008103601057600080fd5b5050")
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                overrides: BlockOverrides(number: 12), stateOverrides: [Self.random[2]: AccountOverride(code: code)],
                calls: [11, 8, 10].map { Self.call(from: F.address0, to: Self.random[2], data: Self.word($0)) }),
            SimulatedBlockRequest(
                overrides: BlockOverrides(number: 16),
                calls: [12, 13].map { Self.call(from: F.address0, to: Self.random[2], data: Self.word($0)) }),
        ])
        #expect(blocks.map(\.block.number) == [11, 12, 13, 14, 15, 16])
        #expect(blocks.map(\.block.header.gasUsed) == [0, 0xf864, 0, 0, 0, 0xa598])
        #expect(blocks.flatMap(\.calls).allSatisfy { $0.status && $0.gasUsed == 0x52cc })
        #expect(blocks.map(\.block.header.timestamp) == [112, 124, 136, 148, 160, 172])
        for (child, parent) in zip(blocks.dropFirst(), blocks) { #expect(child.block.header.parentHash == parent.hash) }
    }

    @Test func baseFeeWithoutValidationIsZeroUnlessSet() async throws {
        let chain = try await Self.backend()
        let calls = [
            Self.call(from: F.address0, to: Self.random[2]), Self.call(from: F.address0, to: Self.random[2], maxFee: 2, tip: 1),
        ]
        let blocks = try await Self.simulate(chain, [
            SimulatedBlockRequest(stateOverrides: [Self.random[2]: AccountOverride(code: Self.feesCode)], calls: calls),
            SimulatedBlockRequest(overrides: BlockOverrides(baseFeePerGas: .one), calls: calls),
            SimulatedBlockRequest(calls: [calls[0]]),
        ])
        let fees = { (price: UInt64, baseFee: UInt64) in Hex.encode(Self.word(price) + Self.word(baseFee)) }
        #expect(Self.summary(blocks[0]) == Self.expected(11, gasUsed: 0xa44e, calls: [(fees(0, 0), 0x5227), (fees(1, 0), 0x5227)]))
        #expect(Self.summary(blocks[1]) == Self.expected(12, gasUsed: 0xa44e, baseFee: 1, calls: [(fees(0, 1), 0x5227), (fees(2, 1), 0x5227)]))
        #expect(Self.summary(blocks[2]) == Self.expected(13, gasUsed: 0x5227, calls: [(fees(0, 0), 0x5227)]))
        let validated = try await Self.simulate(chain, [
            SimulatedBlockRequest(
                stateOverrides: [Self.random[2]: AccountOverride(code: Self.feesCode)],
                calls: [Self.call(from: F.address0, to: Self.random[2], maxFee: 233_138_868, tip: 1)])
        ], validation: true)
        #expect(Self.summary(validated[0]) == Self.expected(11, gasUsed: 0x5227, baseFee: 0xde56ab3, calls: [(fees(0xde56ab4, 0xde56ab3), 0x5227)]))
    }

    @Test func preShanghaiBlocksHaveNoWithdrawals() async throws {
        let chain = try await Self.backend()
        let block = try #require(try await Self.simulate(chain, [SimulatedBlockRequest()]).first).block
        #expect(block.withdrawals == nil && block.header.withdrawalsRoot == nil)
    }

    @Test func sameRequestSameBlocks() async throws {
        // Nothing but the request and the base goes into a simulated block: two runs, and a run after the chain ran
        // calls and estimates on its live state, give the same hashes.
        let chain = try await Self.backend()
        let request = [
            SimulatedBlockRequest(
                stateOverrides: [Self.random[0]: AccountOverride(balance: UInt256(1_000_000))],
                calls: [Self.call(from: Self.random[0], to: Self.random[1], value: 7)]),
            SimulatedBlockRequest(overrides: BlockOverrides(number: 14)),
        ]
        let first = try await Self.simulate(chain, request).map(\.hash)
        _ = try await chain.call(CallRequest(from: Self.random[3], to: Self.random[2], value: .zero))
        _ = try await chain.estimateGas(CallRequest(from: F.address0, to: Self.random[1], value: .one))
        _ = try await chain.call(CallRequest(to: F.address("0x0000000000000000000000000000000000000004"), data: [1, 2, 3]))
        #expect(try await Self.simulate(chain, request).map(\.hash) == first)
        let other = try await Self.backend()
        #expect(try await Self.simulate(other, request).map(\.hash) == first)
    }
}
