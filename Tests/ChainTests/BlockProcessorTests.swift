import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumTrie
import Testing

/// The block processor against the dev chain's own Prague blocks: every mined block must validate when
/// re-imported through ``BlockProcessor`` from the genesis state (the miner and the importer share the system
/// calls and request collection, and here they must agree on every header commitment), and a tampered header
/// must be rejected naming its rule. The EEST fixtures are run in ConformanceTests (BlockTestsSubsetTests).
@Suite struct BlockProcessorTests {
    typealias F = ChainFixtures

    /// A Prague dev chain with a transfer, a contract call to the EIP-7002 queue (one withdrawal request) and an
    /// empty block; returns the chain and its blocks 0...n.
    static func pragueChain(_ fork: Hardfork = .prague) async throws -> (DevChain, [Block]) {
        var config = ChainConfig.deterministic()
        config.hardfork = fork
        let chain = try await DevChain(config: config)
        _ = try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: F.address1, value: F.oneEther).encoded)
        // EIP-7002: 48-byte validator pubkey ‖ 8-byte amount, paying at least the current fee (1 wei when idle).
        let request = [UInt8](repeating: 0xab, count: 48) + [0, 0, 0, 0, 0, 0, 0, 7]
        _ = try await chain.sendRawTransaction(
            F.dynamicFee(F.key1, nonce: 0, to: SystemCalls.withdrawalRequests, value: UInt256(10), data: request, gas: 200_000)
                .encoded)
        try await chain.mine(blocks: 1)
        var blocks: [Block] = []
        for n in 0...(await chain.blockNumber()) { blocks.append(try #require(try await chain.block(.number(n)))) }
        return (chain, blocks)
    }

    static func genesisState(_ fork: Hardfork) -> WorldState {
        var state = WorldState(accounts: SystemContracts.genesisAccounts(fork: fork))
        for account in DevAccounts.standard { state.accounts[account.address, default: Account()].balance = account.balance }
        return state
    }

    static func decoded(_ block: Block) -> DecodedBlock {
        DecodedBlock(header: block.header, transactions: block.transactions, withdrawals: [])
    }

    @Test(arguments: [Hardfork.prague, .osaka])
    func minedBlocksValidateThroughTheProcessor(fork: Hardfork) async throws {
        let (chain, blocks) = try await Self.pragueChain(fork)
        #expect(blocks.count == 4)
        let processor = BlockProcessor(chainID: 4)
        var state = Self.genesisState(fork)
        #expect(state.stateRoot == blocks[0].header.stateRoot)
        let hashes = blocks.map(\.hash)
        for n in 1..<blocks.count {
            let (next, processed) = try processor.process(
                Self.decoded(blocks[n]), parent: blocks[n - 1].header, parentHash: blocks[n - 1].hash, fork: fork,
                state: state, blockHashes: { i in i < UInt64(hashes.count) ? hashes[Int(i)] : .zero })
            state = next
            let requests = try #require(processed.requests)
            // Block 2 holds the withdrawal request: the queue dequeues it in the same block (type 1, 76 bytes:
            // source address ‖ pubkey ‖ amount).
            if n == 2 {
                #expect(requests.count == 1)
                #expect(requests.first?.first == ExecutionRequests.withdrawalType)
                #expect(requests.first?.count == 1 + 76)
                #expect(Array(requests.first?[1..<21] ?? []) == F.address1.bytes)
                #expect(blocks[n].header.requestsHash != BlockHeader.emptyRequestsHash)
            } else {
                #expect(requests.isEmpty)
                #expect(blocks[n].header.requestsHash == BlockHeader.emptyRequestsHash)
            }
            // EIP-2935: the parent's hash at slot (n − 1) mod 8191 of the history contract.
            let slot = UInt256(UInt64(n - 1) % 8191)
            #expect(try await chain.storage(SystemCalls.historyStorage, slot: slot) == UInt256(blocks[n - 1].hash))
        }
        #expect(state == (await chain.currentState()))
    }

    @Test func tamperedHeadersAreRejectedNamingTheRule() async throws {
        let (_, blocks) = try await Self.pragueChain()
        let processor = BlockProcessor(chainID: 4)
        let state = Self.genesisState(.prague)
        let hashes = blocks.map(\.hash)
        func reject(_ change: (inout BlockHeader) -> Void) -> BlockValidationError? {
            var header = blocks[1].header
            change(&header)
            let block = DecodedBlock(header: header, transactions: blocks[1].transactions, withdrawals: [])
            do {
                _ = try processor.process(
                    block, parent: blocks[0].header, parentHash: blocks[0].hash, fork: .prague, state: state,
                    blockHashes: { i in i < UInt64(hashes.count) ? hashes[Int(i)] : .zero })
                return nil
            } catch { return error }
        }
        #expect(reject { _ in } == nil)
        #expect(reject { $0.baseFeePerGas = ($0.baseFeePerGas ?? .zero) + .one }?.eestName == "BlockException.INVALID_BASEFEE_PER_GAS")
        #expect(reject { $0.excessBlobGas = BlobGas.perBlob }?.eestName == "BlockException.INCORRECT_EXCESS_BLOB_GAS")
        #expect(reject { $0.blobGasUsed = BlobGas.perBlob }?.eestName == "BlockException.INCORRECT_BLOB_GAS_USED")
        #expect(reject { $0.blobGasUsed = 10 * BlobGas.perBlob }?.eestName == "BlockException.BLOB_GAS_USED_ABOVE_LIMIT")
        #expect(reject { $0.requestsHash = .zero }?.eestName == "BlockException.INVALID_REQUESTS")
        #expect(reject { $0.requestsHash = nil }?.eestName == "BlockException.INCORRECT_BLOCK_FORMAT")
        #expect(reject { $0.stateRoot = .zero }?.eestName == "BlockException.INVALID_STATE_ROOT")
        #expect(reject { $0.gasUsed += 1 }?.eestName == "BlockException.INVALID_GAS_USED")
        #expect(reject { $0.receiptsRoot = .zero }?.eestName == "BlockException.INVALID_RECEIPTS_ROOT")
        #expect(reject { $0.transactionsRoot = .zero }?.eestName == "BlockException.INVALID_TRANSACTIONS_ROOT")
        #expect(reject { $0.timestamp = blocks[0].header.timestamp }?.eestName
            == "BlockException.INVALID_BLOCK_TIMESTAMP_OLDER_THAN_PARENT")
        #expect(reject { $0.number = 2 }?.eestName == "BlockException.INVALID_BLOCK_NUMBER")
        #expect(reject { $0.gasLimit = $0.gasLimit + $0.gasLimit / 1024 }?.eestName == "BlockException.INVALID_GASLIMIT")
        #expect(reject { $0.extraData = [UInt8](repeating: 1, count: 33) }?.eestName == "BlockException.EXTRA_DATA_TOO_BIG")
        #expect(reject { $0.parentHash = .zero }?.eestName == "BlockException.UNKNOWN_PARENT")
    }

    @Test func blockRLPRoundTripsThroughTheDecoder() async throws {
        let (_, blocks) = try await Self.pragueChain()
        let block = Self.decoded(blocks[2])
        var items: [RLPItem] = [block.header.rlp, .list(block.transactions.map(\.blockBodyItem)), .list([])]
        items.append(.list([]))
        let encoded = RLP.encode(.list(items))
        let back = try DecodedBlock(encoded: encoded)
        #expect(back.hash == blocks[2].hash)
        #expect(back.transactions == blocks[2].transactions)
        #expect(back.withdrawals == [])
        #expect(back.encodedSize == encoded.count && back.encodedSize == block.encodedSize)
        #expect(back.transactionsRoot == blocks[2].header.transactionsRoot)
        #expect(throws: BlockValidationError.self) { try DecodedBlock(encoded: Array(encoded.dropLast())) }
    }

    @Test func requestsHashIsSHA256OfTheRequestHashes() {
        // sha256("") (FIPS 180-4 test value) for no requests.
        #expect(ExecutionRequests.hash([]) == BlockHeader.emptyRequestsHash)
        // sha256(sha256("abc")): the FIPS 180-4 "abc" digest, hashed once more.
        let abc = Array("abc".utf8)
        let once = (try? Hex.decode("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")) ?? []
        let twice = (try? Hex.decode("4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358")) ?? []
        #expect(once.count == 32 && twice.count == 32)
        #expect(ExecutionRequests.hash([abc]) == Bytes32(twice))
    }

    @Test func depositEventLayoutIsEnforced() throws {
        // The ABI encoding of DepositEvent(bytes pubkey, bytes creds, bytes amount, bytes signature, bytes index).
        func word(_ n: Int) -> [UInt8] { [UInt8](repeating: 0, count: 24) + (0..<8).map { UInt8(truncatingIfNeeded: n >> (56 - 8 * $0)) } }
        func field(_ bytes: [UInt8]) -> [UInt8] {
            word(bytes.count) + bytes + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
        }
        let pubkey = [UInt8](repeating: 1, count: 48), creds = [UInt8](repeating: 2, count: 32)
        let amount = [UInt8](repeating: 3, count: 8), signature = [UInt8](repeating: 4, count: 96)
        let index = [UInt8](repeating: 5, count: 8)
        let data = word(160) + word(256) + word(320) + word(384) + word(512) + field(pubkey) + field(creds) + field(amount)
            + field(signature) + field(index)
        #expect(data.count == 576)
        #expect(try ExecutionRequests.depositData(data) == pubkey + creds + amount + signature + index)
        var badOffset = data
        badOffset[31] = 0xa1
        #expect(throws: BlockValidationError.self) { try ExecutionRequests.depositData(badOffset) }
        var badSize = data
        badSize[160 + 31] = 47
        #expect(throws: BlockValidationError.self) { try ExecutionRequests.depositData(badSize) }
        #expect(throws: BlockValidationError.self) { try ExecutionRequests.depositData(Array(data.dropLast())) }
    }

    @Test func osakaExcessBlobGasFollowsEIP7918() {
        let perBlob = BlobGas.perBlob
        // Execution base fee far above the blob fee: the excess grows by used × (max − target) / max.
        let dear = BlockHeader(
            parentHash: .zero, coinbase: .zero, stateRoot: .zero, number: 1, gasLimit: 30_000_000, timestamp: 1,
            baseFeePerGas: UInt256(1_000_000_000 as UInt64), withdrawalsRoot: MerklePatriciaTrie.emptyRoot,
            blobGasUsed: 6 * perBlob, excessBlobGas: 0, parentBeaconBlockRoot: .zero)
        #expect(FeeMarket.nextExcessBlobGas(parent: dear, schedule: .prague, fork: .osaka) == 6 * perBlob * 3 / 9)
        #expect(FeeMarket.nextExcessBlobGas(parent: dear, schedule: .prague, fork: .prague) == 0)
        // A base fee of 1 wei: the blob fee is not bounded, EIP-4844's rule applies.
        var cheap = dear
        cheap.baseFeePerGas = .one
        cheap.blobGasUsed = 9 * perBlob
        #expect(FeeMarket.nextExcessBlobGas(parent: cheap, schedule: .prague, fork: .osaka) == 3 * perBlob)
    }
}
