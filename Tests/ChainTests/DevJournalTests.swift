import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation
import TestSupport
import Testing

/// The dev-state journal (issue 31): a chain on disk closed and reopened at any point between requests continues
/// exactly as one that never stopped. Each seed runs the same random sequence of dev methods and transactions on two
/// deterministic chains — one on disk, closed and reopened at random points, and an in-memory twin that never stops —
/// and after every step compares head hash, live state root, chain id and the next block's timestamp; at the end
/// both mine a block, which must come out with the same hash. (The node-process version, with kill -9, is
/// `Tests/DevNodeTests/RestartPropertyTests`.)
@Suite struct DevJournalTests {
    typealias F = ChainFixtures

    /// One step of a sequence.
    enum Step {
        case setBalance(Int, UInt256), addBalance(Int, UInt256), setNonce(Int, UInt64), setCode(Int, [UInt8])
        case setStorage(Int, UInt256, UInt256), send(from: Int, to: Int, value: UInt64), mine(Int, interval: UInt64?)
        case snapshot, revert(Int), reset, setChainId(UInt64), increaseTime(UInt64), setNextTimestamp(UInt64)
        case setTime(UInt64), setCoinbase(Int), setBaseFee(UInt64), setGasLimit(UInt64), loadDump, reopen
    }

    /// Accounts the steps touch: dev accounts 0–2, CarChain's usual address, a stranger, a system contract.
    static let targets: [Address] = [
        F.accounts[0].address, F.accounts[1].address, F.accounts[2].address, F.address("0x5fbdb2315678afecb367f032d93f642f64180aa3"),
        F.address("0x000000000000000000000000000000000000beef"), F.address("0x0000f90827f1c53a10cb7a02335b175320002935"),
    ]

    static func steps(seed: UInt64) -> [Step] {
        var random = SplitMix64(seed: seed)
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let count = 6 + pick(14)
        return (0..<count).map { _ in
            switch pick(21) {
            case 0, 1: return .setBalance(pick(targets.count), UInt256(random.next()))
            case 2: return .addBalance(pick(targets.count), pick(4) == 0 ? .max : UInt256(random.next()))
            case 3: return .setNonce(pick(targets.count), UInt64(pick(5)))
            case 4: return .setCode(pick(targets.count), pick(3) == 0 ? [] : [0x60, UInt8(pick(256)), 0x60, 0x00, 0x55, 0x00])
            case 5, 6: return .setStorage(pick(targets.count), UInt256(UInt64(pick(4))), pick(3) == 0 ? .zero : UInt256(random.next()))
            case 7, 8: return .send(from: pick(3), to: pick(targets.count), value: UInt64(pick(1000)))
            case 9: return .mine(1 + pick(3), interval: pick(2) == 0 ? nil : UInt64(1 + pick(30)))
            case 10: return .snapshot
            case 11: return .revert(pick(4))
            case 12: return pick(3) == 0 ? .reset : .setChainId(1 + UInt64(pick(100_000)))
            case 13: return .increaseTime(UInt64(pick(10_000)))
            case 14: return .setNextTimestamp(UInt64(pick(100)))
            case 15: return .setTime(1_700_000_000 + UInt64(pick(1_000_000)))
            case 16: return .setCoinbase(pick(targets.count))
            case 17: return .setBaseFee(UInt64(pick(5_000_000_000)))
            case 18: return .setGasLimit(30_000_000 + UInt64(pick(1_000_000)))
            case 19: return .loadDump
            default: return .reopen
            }
        }
    }

    /// One chain of the pair, with the snapshot ids it handed out (by their order among the steps).
    final class Side {
        var chain: DevChain
        var snapshots: [UInt64] = []
        var dump: StateDump?
        init(_ chain: DevChain) { self.chain = chain }
    }

    /// Runs `step` on `side`; errors (a timestamp not after the head, a revert of an unknown id) are part of the
    /// sequence: both sides must fail alike, so the error's description is returned.
    func run(_ step: Step, on side: Side) async -> String {
        let chain = side.chain
        do {
            switch step {
            case .setBalance(let i, let value): try await chain.setBalance(Self.targets[i], value)
            case .addBalance(let i, let value): try await chain.addBalance(Self.targets[i], value)
            case .setNonce(let i, let nonce): try await chain.setNonce(Self.targets[i], nonce)
            case .setCode(let i, let code): try await chain.setCode(Self.targets[i], code)
            case .setStorage(let i, let slot, let value): try await chain.setStorage(Self.targets[i], slot: slot, value: value)
            case .send(let from, let to, let value):
                _ = try await chain.sendTransaction(
                    CallRequest(from: F.accounts[from].address, to: Self.targets[to], gas: 100_000, value: UInt256(value)))
            case .mine(let blocks, let interval): try await chain.mine(blocks: blocks, interval: interval)
            case .snapshot: side.snapshots.append(try await chain.snapshot())
            case .revert(let index):
                guard index < side.snapshots.count else { return "no snapshot" }
                let reverted = try await chain.revert(to: side.snapshots[index])
                return "revert \(reverted)"
            case .reset: try await chain.reset()
            case .setChainId(let id): try await chain.setChainId(id)
            case .increaseTime(let seconds):
                let offset = try await chain.increaseTime(seconds)
                return "offset \(offset)"
            case .setNextTimestamp(let ahead):
                let head = await chain.latestHeader().timestamp
                try await chain.setNextBlockTimestamp(head + ahead)
            case .setTime(let time):
                let ahead = try await chain.setTime(time)
                return "ahead \(ahead)"
            case .setCoinbase(let i): try await chain.setCoinbase(Self.targets[i])
            case .setBaseFee(let fee): try await chain.setNextBlockBaseFee(UInt256(fee))
            case .setGasLimit(let limit): try await chain.setBlockGasLimit(limit)
            case .loadDump:
                if let dump = side.dump { try await chain.loadState(dump) } else { side.dump = await chain.dumpState() }
            case .reopen: break
            }
            return "ok"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func aChainReopenedAnywhereContinuesAsOneThatNeverStopped(seed: UInt64) async throws {
        let directory = F.temporaryDirectory("journal-\(seed)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = ChainConfig.deterministic()
        let disk = Side(try await DevChain(config: config, storage: .directory(directory)))
        let twin = Side(try await DevChain(config: config))
        for (index, step) in Self.steps(seed: seed).enumerated() {
            if case .reopen = step {
                // What a restart does not keep: the pool and the snapshots (the twin forgets them too).
                await disk.chain.close()
                disk.chain = try await DevChain(config: config, storage: .directory(directory))
                await twin.chain.dropAllTransactions()
                disk.snapshots = []
                twin.snapshots = []
            } else {
                let a = await run(step, on: disk)
                let b = await run(step, on: twin)
                #expect(a == b, "seed \(seed) step \(index) \(step)")
            }
            let context = "seed \(seed) after step \(index) (\(step))"
            #expect(try await disk.chain.block(.latest)?.hash == twin.chain.block(.latest)?.hash, "\(context)")
            #expect(await disk.chain.liveStateRoot() == twin.chain.liveStateRoot(), "\(context)")
            #expect(disk.chain.chainId == twin.chain.chainId, "\(context)")
        }
        // The next block, made from everything kept, is the same block.
        let a = try await disk.chain.mine().first?.hash
        let b = try await twin.chain.mine().first?.hash
        #expect(a != nil)
        #expect(a == b, "seed \(seed): the block after the sequence differs")
        await disk.chain.close()
        await twin.chain.close()
    }

    @Test func settingsAndPendingChangesSurviveAReopen() async throws {
        let directory = F.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = ChainConfig.deterministic()
        let stranger = Self.targets[4]
        var chain = try await DevChain(config: config, storage: .directory(directory))
        try await chain.setStorage(stranger, slot: .one, value: UInt256(7))
        try await chain.setChainId(31_337)
        try await chain.setCoinbase(stranger)
        try await chain.setBlockGasLimit(12_345_678)
        try await chain.setNextBlockBaseFee(UInt256(77))
        let live = await chain.liveStateRoot()
        await chain.close()

        chain = try await DevChain(config: config, storage: .directory(directory))
        #expect(await chain.liveStateRoot() == live)
        #expect(try await chain.storage(stranger, slot: .one) == UInt256(7))
        #expect(chain.chainId == 31_337)
        #expect(await chain.pendingCoinbase() == stranger)
        #expect(await chain.pendingGasLimit() == 12_345_678)
        #expect(await chain.pendingBaseFee() == UInt256(77))
        let block = try #require(try await chain.mine().first)
        #expect(block.header.coinbase == stranger)
        #expect(block.header.gasLimit == 12_345_678)
        #expect(block.header.baseFeePerGas == UInt256(77))
        await chain.close()

        // The base fee named one block; the rest stays. The chain opens with its original id or the one it was given.
        var asked = config
        asked.chainId = 31_337
        chain = try await DevChain(config: asked, storage: .directory(directory))
        #expect(await chain.pendingBaseFee() != UInt256(77))
        #expect(chain.chainId == 31_337)
        #expect(await chain.pendingCoinbase() == stranger)
        try await chain.reset()
        #expect(await chain.pendingCoinbase() == config.coinbase)
        #expect(chain.chainId == 31_337)
        await chain.close()
        asked.chainId = 5
        await #expect(throws: ChainError.configMismatch("chain id 31337 on disk, 5 requested")) {
            try await DevChain(config: asked, storage: .directory(directory))
        }
    }
}
