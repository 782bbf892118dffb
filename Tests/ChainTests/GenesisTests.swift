import Chain
import EVM
import EthereumPrimitives
import EthereumTrie
import Testing

@Suite struct GenesisTests {
    @Test func devAccountsAreTheTestMnemonicAccounts() throws {
        let accounts = DevAccounts.standard
        #expect(accounts.count == 10)
        #expect(accounts[0].address.checksummed == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        #expect(accounts[1].address.checksummed == "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
        #expect(accounts[9].address.checksummed == "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720")
        #expect(accounts.allSatisfy { $0.balance == DevAccounts.defaultBalance && $0.privateKey != nil })
    }

    @Test func genesisFundsTheDevAccounts() async throws {
        let chain = try await DevChain()
        #expect(await chain.blockNumber() == 0)
        for account in DevAccounts.standard {
            #expect(try await chain.balance(account.address) == UInt256(10_000) * ChainFixtures.oneEther)
            #expect(try await chain.nonce(account.address) == 0)
        }
        #expect(chain.chainId == 4)
        #expect(chain.hardfork == .osaka)  // the default: mainnet's fork
        let genesis = try #require(try await chain.block(.earliest))
        let header = genesis.header
        #expect(header.number == 0)
        #expect(header.gasLimit == 30_000_000)
        #expect(header.baseFeePerGas == ChainFixtures.oneGwei)
        #expect(header.withdrawalsRoot == MerklePatriciaTrie.emptyRoot)
        #expect(header.blobGasUsed == 0 && header.excessBlobGas == 0 && header.parentBeaconBlockRoot == .zero)
        // EIP-7685 (Prague): a block without requests commits to sha256 of nothing.
        #expect(header.requestsHash == (try Bytes32(hex: "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")))
        #expect(header.transactionsRoot == MerklePatriciaTrie.emptyRoot)
        #expect(header.difficulty == .zero)
        #expect(genesis.hash == header.hash)
        #expect(try BlockHeader(encoded: header.encoded) == header)
        let state = await chain.currentState()
        #expect(state.stateRoot == header.stateRoot)
    }

    /// With a fixed genesis timestamp the genesis hash does not depend on when or where it runs.
    @Test func genesisHashIsStable() async throws {
        let a = try await DevChain(config: .deterministic())
        let b = try await DevChain(config: .deterministic())
        let hashA = try #require(try await a.block(.earliest)).hash
        let hashB = try #require(try await b.block(.earliest)).hash
        #expect(hashA == hashB)
        var other = ChainConfig.deterministic()
        other.chainId = 1337
        let c = try await DevChain(config: other)
        // The chain id is not in the header: the genesis is the same block.
        #expect(try #require(try await c.block(.earliest)).hash == hashA)
        other.gasLimit = 60_000_000
        let d = try await DevChain(config: other)
        #expect(try #require(try await d.block(.earliest)).hash != hashA)
    }

    @Test func headerFieldsFollowTheFork() async throws {
        for (fork, fields) in [(Hardfork.london, 16), (.shanghai, 17), (.cancun, 20), (.prague, 21), (.byzantium, 15)] {
            var config = ChainConfig.deterministic()
            config.hardfork = fork
            let chain = try await DevChain(config: config)
            _ = try await chain.sendRawTransaction(
                ChainFixtures.legacy(ChainFixtures.key0, nonce: 0, to: ChainFixtures.address1, value: .one).encoded)
            let block = try #require(try await chain.block(.latest))
            guard case .list(let items) = block.header.rlp else { Issue.record("header is not a list"); continue }
            #expect(items.count == fields, "\(fork)")
            #expect(try BlockHeader(encoded: block.header.encoded) == block.header, "\(fork)")
            let receipt = try #require(try await chain.receipt(hash: block.transactions[0].hash))
            #expect(receipt.status, "\(fork)")
        }
        var config = ChainConfig()
        config.hardfork = .homestead
        await #expect(throws: ChainError.self) { try await DevChain(config: config) }
    }

    /// Chains made from one genesis share its tries (the last genesis built is kept); each changes only its own copy,
    /// also while they mine at the same time. The independent check: each chain's state root recomputed from its
    /// accounts (WorldState.stateRoot, no tries kept) equals its head's, and the balances are each chain's own.
    @Test func chainsFromOneGenesisKeepTheirOwnState() async throws {
        var chains: [DevChain] = []
        for _ in 0..<4 { chains.append(try await DevChain(config: .deterministic())) }
        let genesis = try #require(try await chains[0].block(.earliest))
        let recipient = ChainFixtures.address("0x00000000000000000000000000000000000c0ffe")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, chain) in chains.enumerated() {
                group.addTask {
                    for nonce in 0...UInt64(i) {
                        let tx = ChainFixtures.dynamicFee(ChainFixtures.key0, nonce: nonce, to: recipient, value: UInt256(UInt64(i + 1)))
                        _ = try await chain.sendRawTransaction(tx.encoded)
                    }
                }
            }
            try await group.waitForAll()
        }
        for (i, chain) in chains.enumerated() {
            let head = try #require(try await chain.block(.latest))
            #expect(head.header.number == UInt64(i + 1))
            #expect(await chain.currentState().stateRoot == head.header.stateRoot)
            #expect(try await chain.balance(recipient) == UInt256(UInt64((i + 1) * (i + 1))))
            #expect(try #require(try await chain.block(.earliest)).hash == genesis.hash)
        }
        // A chain made after the others mined starts from the untouched genesis.
        let fresh = try await DevChain(config: .deterministic())
        #expect(try #require(try await fresh.block(.latest)).hash == genesis.hash)
        #expect(await fresh.currentState().stateRoot == genesis.header.stateRoot)
        #expect(try await fresh.balance(recipient) == .zero)
    }
}
