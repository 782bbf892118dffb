import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Testing

/// EIP-7702 through the dev chain's pool and calls (type-4 envelopes, delegated senders, `authorizationList`
/// in calls), EIP-7825's cap in Osaka, and the EIP-7910 fork configuration. The gas figures are the EIPs'
/// constants; the node-level checks against eth-account and web3.py are NodeSetCodeTests.
@Suite struct SetCodeChainTests {
    /// SSTORE(0, 42); return ADDRESS as a word: through a delegation it writes the authority's storage and
    /// returns the authority's address.
    static let runtime: [UInt8] = [0x60, 0x2a, 0x60, 0x00, 0x55, 0x30, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]
    static let delegate = ChainFixtures.address("0x00000000000000000000000000000000000c0de0")

    func chain(_ fork: Hardfork) async throws -> DevChain {
        var config = ChainConfig.deterministic()
        config.hardfork = fork
        let chain = try await DevChain(config: config)
        try await chain.setCode(Self.delegate, Self.runtime)
        return chain
    }

    func setCode(
        _ key: PrivateKey, nonce: UInt64, to: Address, _ authorizations: [SignedAuthorization], gas: UInt64 = 200_000
    ) -> SignedTransaction {
        Transaction.setCode(
            SetCodeTransaction(
                chainId: 4, nonce: nonce, maxPriorityFeePerGas: ChainFixtures.oneGwei,
                maxFeePerGas: UInt256(100_000_000_000 as UInt64), gasLimit: gas, to: to, authorizationList: authorizations)
        ).sign(with: key)
    }

    func freshKey(_ byte: UInt8) throws -> PrivateKey { try PrivateKey(bytes: [UInt8](repeating: byte, count: 32)) }

    @Test func typeFourIsMinedAndTheDelegatedAccountCanSend() async throws {
        let chain = try await chain(.prague)
        let authority = try freshKey(0x71)
        let auth = Authorization(chainId: UInt256(4), address: Self.delegate, nonce: 0).sign(with: authority)
        let hash = try await chain.sendRawTransaction(setCode(ChainFixtures.key1, nonce: 0, to: authority.address, [auth]).encoded)
        let receipt = try #require(try await chain.receipt(hash: hash))
        #expect(receipt.status && receipt.type == .setCode)
        #expect(receipt.gasUsed == 21_000 + 25_000 + 22_100 + 5 * 3 + 2 + 6)
        #expect(try await chain.code(authority.address) == Delegation.designator(to: Self.delegate))
        #expect(try await chain.storage(authority.address, slot: .zero) == UInt256(42))
        #expect(try await chain.nonce(authority.address) == 1)

        // A call to the delegated account warms the delegate as the transaction does: its gas is the mined gas
        // without the authorization (25,000) and without the first write (now 2,100 + 100 for an unchanged slot).
        let again = try await chain.call(CallRequest(from: ChainFixtures.address1, to: authority.address))
        #expect(again.gasUsed == 21_000 + 2_100 + 100 + 5 * 3 + 2 + 6)

        // EIP-3607 as EIP-7702 relaxes it: the delegated account sends its own transaction.
        try await chain.setBalance(authority.address, ChainFixtures.oneEther)
        let own = try await chain.sendRawTransaction(
            ChainFixtures.dynamicFee(authority, nonce: 1, to: ChainFixtures.address0, value: UInt256(1)).encoded)
        #expect(try await chain.receipt(hash: own)?.status == true)
        // A real contract still cannot send.
        let contractKey = try freshKey(0x72)
        try await chain.setCode(contractKey.address, Self.runtime)
        try await chain.setBalance(contractKey.address, ChainFixtures.oneEther)
        await #expect(throws: ChainError.self) {
            try await chain.sendRawTransaction(ChainFixtures.dynamicFee(contractKey, nonce: 0, to: ChainFixtures.address0).encoded)
        }
    }

    @Test func cancunRefusesTypeFour() async throws {
        let chain = try await chain(.cancun)
        let auth = Authorization(chainId: UInt256(4), address: Self.delegate, nonce: 0).sign(with: try freshKey(0x73))
        do {
            try await chain.sendRawTransaction(setCode(ChainFixtures.key1, nonce: 0, to: Self.delegate, [auth]).encoded)
            Issue.record("a Cancun chain accepted a type-4 transaction")
        } catch {
            #expect(String(describing: error).contains("transaction type not supported"), "\(error)")
            #expect(String(describing: error).contains("Prague"), "\(error)")
        }
        var request = CallRequest(to: Self.delegate)
        request.authorizationList = [auth]
        await #expect(throws: ChainError.self) { try await chain.call(request) }
    }

    @Test func osakaCapsTransactionsAndCalls() async throws {
        let chain = try await chain(.osaka)
        let over = ChainFixtures.dynamicFee(ChainFixtures.key1, nonce: 0, to: ChainFixtures.address0, gas: (1 << 24) + 1)
        do {
            try await chain.sendRawTransaction(over.encoded)
            Issue.record("Osaka accepted a gas limit above 2^24")
        } catch {
            #expect(String(describing: error).contains("EIP-7825"), "\(error)")
        }
        let atCap = ChainFixtures.dynamicFee(ChainFixtures.key1, nonce: 0, to: ChainFixtures.address0, gas: 1 << 24)
        #expect(try await chain.receipt(hash: try await chain.sendRawTransaction(atCap.encoded))?.status == true)
        // Calls and estimates above the cap are lowered to it, as geth does.
        let big = CallRequest(from: ChainFixtures.address0, to: Self.delegate, gas: 25_000_000)
        #expect(try await chain.call(big).isSuccess)
        let estimate = try await chain.estimateGas(CallRequest(from: ChainFixtures.address0, to: ChainFixtures.address1, value: UInt256(1)))
        #expect(estimate == 21_000)
        let prague = try await self.chain(.prague)
        let overPrague = ChainFixtures.dynamicFee(ChainFixtures.key1, nonce: 0, to: ChainFixtures.address0, gas: (1 << 24) + 1)
        #expect(try await prague.receipt(hash: try await prague.sendRawTransaction(overPrague.encoded))?.status == true)
    }

    @Test func callsApplyAnAuthorizationList() async throws {
        let chain = try await chain(.osaka)
        let authority = try freshKey(0x74)
        let auth = Authorization(chainId: .zero, address: Self.delegate, nonce: 0).sign(with: authority)
        var request = CallRequest(from: ChainFixtures.address1, to: authority.address)
        #expect(try await chain.call(request).output.isEmpty)  // no code without the authorization
        request.authorizationList = [auth]
        let result = try await chain.call(request)
        #expect(result.isSuccess)
        #expect(result.output == [UInt8](repeating: 0, count: 12) + authority.address.bytes)
        #expect(try await chain.code(authority.address).isEmpty)  // nothing committed
        let estimate = try await chain.estimateGas(request)
        #expect(estimate >= 21_000 + 25_000 + 22_100 + 5 * 3 + 2 + 6)
        // The estimate is enough for the real transaction.
        let hash = try await chain.sendRawTransaction(setCode(ChainFixtures.key1, nonce: 0, to: authority.address, [auth], gas: estimate).encoded)
        #expect(try await chain.receipt(hash: hash)?.status == true)
        // As geth's tracer: the slot the delegate wrote on the authority is listed; no account of its own is added for
        // the warm authority.
        let list = try await chain.createAccessList(request)
        #expect(list.accessList == [AccessListEntry(address: authority.address, storageKeys: [Bytes32.zero])])
        // More authorizations than the gas pays for: refused before any signature is recovered.
        var many = request
        many.gas = 100_000
        many.authorizationList = Array(repeating: auth, count: 5)
        await #expect(throws: ChainError.executionFailed("insufficient gas to process all authorizations")) {
            try await chain.createAccessList(many)
        }
        request.authorizationList = []
        await #expect(throws: ChainError.self) { try await chain.call(request) }
        request.authorizationList = [auth]
        request.to = nil
        await #expect(throws: ChainError.self) { try await chain.call(request) }
    }

    @Test func sendTransactionWithAnAuthorizationListSendsTypeFour() async throws {
        let chain = try await chain(.prague)
        let authority = try freshKey(0x75)
        let auth = Authorization(chainId: UInt256(4), address: Self.delegate, nonce: 0).sign(with: authority)
        let hash = try await chain.sendTransaction(
            CallRequest(from: ChainFixtures.address0, to: authority.address, authorizationList: [auth]))
        #expect(try await chain.receipt(hash: hash)?.type == .setCode)
        #expect(try await chain.storage(authority.address, slot: .zero) == UInt256(42))
    }

    /// EIP-7910: a fork id is EIP-6122's CRC-32 over the genesis hash when every fork is at genesis; mainnet's
    /// (EIP-2124's "unsynced" example) is 0xfc64ec04.
    @Test func forkConfiguration() throws {
        let mainnetGenesis = try Bytes32(hex: "0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3")
        let osaka = ForkConfiguration(fork: .osaka, chainId: 1, genesisHash: mainnetGenesis)
        #expect(osaka.forkId == 0xfc64_ec04)
        #expect(osaka.precompiles.count == 18)
        #expect(osaka.precompiles.first { $0.name == "P256VERIFY" }?.address == ChainFixtures.address("0x0000000000000000000000000000000000000100"))
        #expect(osaka.precompiles.map(\.name) == osaka.precompiles.map(\.name).sorted())
        #expect(osaka.systemContracts.count == 5)
        #expect(osaka.blobSchedule == BlobSchedule(target: 6, max: 9, baseFeeUpdateFraction: 5_007_716))
        let cancun = ForkConfiguration(fork: .cancun, chainId: 1, genesisHash: mainnetGenesis)
        #expect(cancun.precompiles.count == 10 && cancun.systemContracts.map(\.name) == ["BEACON_ROOTS_ADDRESS"])
        #expect(cancun.blobSchedule == BlobSchedule(target: 3, max: 6, baseFeeUpdateFraction: 3_338_477))
        let shanghai = ForkConfiguration(fork: .shanghai, chainId: 1, genesisHash: mainnetGenesis)
        #expect(shanghai.blobSchedule == nil && shanghai.systemContracts.isEmpty && shanghai.precompiles.count == 9)
    }
}
