import Chain
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing

/// The chain side of fork mode (Chain/Fork) with a remote answered from another ``DevChain`` in this process: the
/// fork reads the source's state at the fork block, forks again at another block (`anvil_reset` with forking
/// parameters), refuses a remote of another chain id, keeps mining on an interval when a block reads state not
/// fetched yet, and takes its fork rules from the fork block's header.
@Suite struct ForkChainTests {
    /// Runtime code that returns storage slot 0: PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN.
    static let readsSlot0: [UInt8] = [0x60, 0x00, 0x54, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]
    /// Runtime code that adds one to slot 0: PUSH1 1 PUSH1 0 SLOAD ADD PUSH1 0 SSTORE STOP.
    static let incrementsSlot0: [UInt8] = [0x60, 0x01, 0x60, 0x00, 0x54, 0x01, 0x60, 0x00, 0x55, 0x00]
    static let reader = Address(bytes: [UInt8](repeating: 0xaa, count: 20))!
    static let counter = Address(bytes: [UInt8](repeating: 0xbb, count: 20))!
    static let stranger = Address(bytes: [UInt8](repeating: 0xcc, count: 20))!

    /// A source chain where slot 0 of ``reader`` is 42 at the returned block and 43 one block later; ``stranger``
    /// holds 7 wei at the first and 9 at the second.
    func source() async throws -> (DevChain, UInt64) {
        let chain = try await DevChain(config: .deterministic())
        try await chain.setCode(Self.reader, Self.readsSlot0)
        try await chain.setCode(Self.counter, Self.incrementsSlot0)
        try await chain.setStorage(Self.reader, slot: .zero, value: UInt256(42))
        try await chain.setStorage(Self.counter, slot: .zero, value: UInt256(100))
        try await chain.setBalance(Self.stranger, UInt256(7))
        _ = try await chain.mine()
        let n = await chain.blockNumber()
        try await chain.setStorage(Self.reader, slot: .zero, value: UInt256(43))
        try await chain.setBalance(Self.stranger, UInt256(9))
        _ = try await chain.mine()
        return (chain, n)
    }

    /// Runs `body` until it reads only fetched state, fetching between runs (what the node's handler does): a read
    /// that missed is run again, a block the miner abandoned (it read unfetched state) is mined again.
    func settled<T>(_ cache: ForkCache, _ body: () async throws -> T) async throws -> T {
        for _ in 0..<DevChain.maxForkRounds {
            let mark = cache.missMark
            do {
                let value = try await body()
                if !cache.missed(since: mark) { return value }
            } catch ChainError.fork(.notFetched) {}
            try await cache.fetchMissing()
        }
        throw ForkError.notFetched
    }

    @Test func aForkReadsTheSourceAtTheForkBlockAndKeepsItsOwnWrites() async throws {
        let (source, n) = try await source()
        let cache = try await ChainBackedRemote.fork(source, at: n)
        let fork = try await DevChain(config: .deterministic(), fork: cache)
        #expect(await fork.blockNumber() == n)
        #expect(fork.chainId == source.chainId)
        let call = CallRequest(to: Self.reader, data: [])
        let output = try await settled(cache) { try await fork.call(call).output }
        #expect(UInt256(truncatingBigEndian: output) == UInt256(42))
        #expect(try await settled(cache) { try await fork.balance(Self.stranger) } == UInt256(7))

        // A local write stays local: the source still has 9 wei at its head, the fork 11 after its own block.
        try await fork.setBalance(Self.stranger, UInt256(11))
        _ = try await settled(cache) { try await fork.mine() }
        #expect(try await fork.balance(Self.stranger) == UInt256(11))
        #expect(try await source.balance(Self.stranger) == UInt256(9))
        #expect(try await fork.block(.latest)?.header.parentHash == (try await source.block(.number(n)))?.hash)
    }

    /// A call that writes a remote slot it read before the slot was fetched is run again, and its reverted writes
    /// leave nothing behind: the slot still reads the remote's value afterwards (a cleared-slot mark must not leak
    /// out of a reverted call), and a mined transaction builds on it.
    @Test func aCallOnUnfetchedStateLeavesTheRemoteValueVisible() async throws {
        let (source, n) = try await source()
        let cache = try await ChainBackedRemote.fork(source, at: n)
        let fork = try await DevChain(config: .deterministic(), fork: cache)
        let sender = try #require(fork.accounts.first)
        let probe = CallRequest(from: sender, to: Self.counter, gas: 100_000, data: [])
        _ = try await settled(cache) { try await fork.call(probe) }
        #expect(try await settled(cache) { try await fork.storage(Self.counter, slot: .zero) } == UInt256(100))
        _ = try await settled(cache) { try await fork.sendTransaction(probe) }
        #expect(try await fork.storage(Self.counter, slot: .zero) == UInt256(101))
    }

    /// geth's state override on a fork: `state` replaces the account's whole storage, so none of the fork block's
    /// slots show through; `stateDiff` writes some and leaves the others the fork block's.
    @Test func aStateOverrideReplacesTheForkBlocksStorage() async throws {
        let (source, n) = try await source()
        let cache = try await ChainBackedRemote.fork(source, at: n)
        let fork = try await DevChain(config: .deterministic(), fork: cache)
        let read = CallRequest(to: Self.reader, data: [])
        func slot0(_ overrides: StateOverrides) async throws -> UInt256 {
            UInt256(truncatingBigEndian: try await settled(cache) { try await fork.call(read, overrides: overrides).output })
        }
        #expect(try await slot0([:]) == UInt256(42))
        #expect(try await slot0([Self.reader: AccountOverride(state: [:])]) == .zero)
        #expect(try await slot0([Self.reader: AccountOverride(stateDiff: [UInt256(1): UInt256(5)])]) == UInt256(42))
        #expect(try await slot0([:]) == UInt256(42))  // the live state is untouched
    }

    @Test func forkingAgainMovesTheChainToTheNewBlock() async throws {
        let (source, n) = try await source()
        let cache = try await ChainBackedRemote.fork(source, at: n)
        let fork = try await DevChain(config: .deterministic(), fork: cache)
        for _ in 0..<3 { _ = try await settled(cache) { try await fork.mine() } }
        #expect(await fork.blockNumber() == n + 3)

        let later = try await cache.remote.reopen(url: nil, blockNumber: n + 1)
        try await fork.refork(later)
        #expect(await fork.blockNumber() == n + 1)
        #expect(fork.forkBlockNumber == n + 1)
        #expect(try await fork.block(.latest)?.hash == (try await source.block(.number(n + 1)))?.hash)
        let output = try await settled(later) { try await fork.call(CallRequest(to: Self.reader, data: [])).output }
        #expect(UInt256(truncatingBigEndian: output) == UInt256(43))
        #expect(try await settled(later) { try await fork.balance(Self.stranger) } == UInt256(9))
    }

    @Test func forkingARemoteOfAnotherChainIDIsRefused() async throws {
        let (source, n) = try await source()
        let fork = try await DevChain(config: .deterministic(), fork: try await ChainBackedRemote.fork(source, at: n))
        var config = ChainConfig.deterministic()
        config.chainId = 5
        let other = try await DevChain(config: config)
        _ = try await other.mine()
        await #expect(throws: ChainError.fork(.wrongChain(expected: 4, remote: 5))) {
            try await fork.refork(try await ChainBackedRemote.fork(other, at: 1))
        }
        #expect(fork.forkBlockNumber == n)
    }

    @Test func aChainOfItsOwnCannotFork() async throws {
        let (source, n) = try await source()
        let plain = try await DevChain(config: .deterministic())
        await #expect(throws: ChainError.self) { try await plain.refork(try await ChainBackedRemote.fork(source, at: n)) }
    }

    /// A block whose transaction reads remote storage is abandoned while the slot is missing; interval mining fetches
    /// it and mines the block (the transaction then sees the remote's 100 and leaves 101).
    @Test func intervalMiningFetchesWhatABlockReads() async throws {
        let (source, n) = try await source()
        var config = ChainConfig.deterministic()
        config.blockTime = .milliseconds(20)
        let fork = try await DevChain(config: config, fork: try await ChainBackedRemote.fork(source, at: n))
        defer { Task { await fork.close() } }
        let sender = try #require(fork.accounts.first)
        let hash = try await fork.sendTransaction(CallRequest(from: sender, to: Self.counter, gas: 100_000, data: []))
        var receipt: Receipt?
        for _ in 0..<1500 where receipt == nil {
            try await Task.sleep(for: .milliseconds(20))
            receipt = try await fork.receipt(hash: hash)
        }
        #expect(receipt?.status == true)
        #expect(try await fork.storage(Self.counter, slot: .zero) == UInt256(101))
        #expect(try await source.storage(Self.counter, slot: .zero) == UInt256(100))
    }

    @Test func theForkRulesFollowTheForkBlocksHeader() throws {
        func point(_ header: BlockHeader) -> ForkPoint { ForkPoint(chainId: 1, header: header, hash: header.hash) }
        var header = BlockHeader(
            parentHash: .zero, coinbase: .zero, stateRoot: .zero, difficulty: UInt256(1), number: 1, gasLimit: 30_000_000,
            timestamp: 1, extraData: [])
        #expect(point(header).impliedHardfork(atMost: .osaka) == .byzantium)
        header.baseFeePerGas = UInt256(7)
        #expect(point(header).impliedHardfork(atMost: .osaka) == .london)
        header.difficulty = .zero
        #expect(point(header).impliedHardfork(atMost: .osaka) == .paris)
        header.withdrawalsRoot = .zero
        #expect(point(header).impliedHardfork(atMost: .osaka) == .shanghai)
        header.blobGasUsed = 0
        header.excessBlobGas = 0
        header.parentBeaconBlockRoot = .zero
        #expect(point(header).impliedHardfork(atMost: .osaka) == .cancun)
        header.requestsHash = BlockHeader.emptyRequestsHash
        #expect(point(header).impliedHardfork(atMost: .osaka) == .osaka)
        #expect(point(header).impliedHardfork(atMost: .prague) == .prague)
        #expect(point(header).impliedHardfork(atMost: .shanghai) == .shanghai)
    }
}

/// A fork remote answered from a ``DevChain`` in this process, at one of its blocks.
struct ChainBackedRemote: ForkRemote {
    let source: DevChain
    let point: ForkPoint

    var endpoint: String { "in-process source chain" }

    /// A cache forking `source` at block `number`.
    static func fork(_ source: DevChain, at number: UInt64) async throws -> ForkCache {
        guard let block = try await source.block(.number(number)) else { throw ForkError.blockNotAvailable("no block \(number)") }
        let point = ForkPoint(chainId: source.chainId, header: block.header, hash: block.hash)
        return ForkCache(point: point, remote: ChainBackedRemote(source: source, point: point))
    }

    func fetch(_ request: ForkFetchRequest) async throws(ForkError) -> ForkFetchResult {
        let at = BlockID.number(point.number)
        var result = ForkFetchResult()
        do {
            for address in request.accounts {
                let (balance, nonce, code) = (
                    try await source.balance(address, at: at), try await source.nonce(address, at: at), try await source.code(address, at: at)
                )
                let empty = balance.isZero && nonce == 0 && code.isEmpty
                result.accounts[address] = empty ? .some(nil) : RemoteAccount(nonce: nonce, balance: balance, code: code)
            }
            for slot in request.slots { result.slots[slot] = try await source.storage(slot.address, slot: slot.key, at: at) }
            for number in request.blockHashes { result.blockHashes[number] = try await source.block(.number(number))?.hash ?? .zero }
        } catch {
            throw .refused(method: "read", reason: "\(error)")
        }
        return result
    }

    func accessList(for call: CallRequest) async throws(ForkError) -> [AccessListEntry]? { nil }

    func forward(method: String, params: [JSONValue]) async throws(ForkError) -> JSONValue {
        throw .refused(method: method, reason: "the in-process source answers state reads only")
    }

    func reopen(url: String?, blockNumber: UInt64?) async throws(ForkError) -> ForkCache {
        let number: UInt64
        if let blockNumber { number = blockNumber } else { number = await source.blockNumber() }
        do { return try await Self.fork(source, at: number) } catch {
            throw (error as? ForkError) ?? .refused(method: "reopen", reason: "\(error)")
        }
    }
}
