import Chain
import EVM
import EthereumPrimitives
import TestSupport
import Testing

/// The system calls run without the interpreter where a system contract holds its EIP's code (SystemCalls.swift).
/// The interpreter is the oracle: the same contracts with one unreachable byte appended to their code (so their hash
/// differs and the calls go through the EVM, doing exactly what the EIP's code does) must end every block with the
/// same storage and the same recorded slots, and the request queues must return the same requests.
@Suite struct SystemCallTests {
    static let contracts = [
        SystemCalls.beaconRoots, SystemCalls.historyStorage, SystemCalls.withdrawalRequests, SystemCalls.consolidationRequests,
    ]

    /// The four contracts with their EIP code (`padded` false) or that code and a trailing STOP, and `storage`.
    static func state(padded: Bool, storage: [Address: [UInt256: UInt256]]) -> JournaledState {
        var accounts = SystemContracts.genesisAccounts(fork: .prague)
        for address in contracts {
            guard var account = accounts[address] else { continue }
            if padded { account.setCode(account.code + [0x00]) }
            account.storage = storage[address] ?? [:]
            accounts[address] = account
        }
        var journaled = JournaledState(state: WorldState(accounts: accounts))
        journaled.recordsChanges = true
        return journaled
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func bothPathsGiveTheSameState(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var storage: [Address: [UInt256: UInt256]] = [:]
        // Rings partly filled, as on a chain that has run for a while.
        for _ in 0..<40 {
            storage[SystemCalls.beaconRoots, default: [:]][UInt256(generator.next() % 16382)] = UInt256(generator.next())
            storage[SystemCalls.historyStorage, default: [:]][UInt256(generator.next() % 8191)] = UInt256(generator.next())
        }
        var fast = Self.state(padded: false, storage: storage)
        var interpreted = Self.state(padded: true, storage: storage)
        var timestamp = generator.next() % 1_000_000
        var number = generator.next() % 100_000 + 1
        for block in 0..<150 {
            // Now and then a queue with requests in it (excess, count, head, tail not all zero), which the fast path
            // must leave to the interpreter; and timestamps that wrap around the ring.
            if block % 25 == 7 {
                let queue = block % 2 == 0 ? SystemCalls.withdrawalRequests : SystemCalls.consolidationRequests
                let slot = UInt256(generator.next() % 2)
                let value = UInt256(generator.next() % 5 + 1)
                fast.setStorage(queue, slot, value)
                interpreted.setStorage(queue, slot, value)
                fast.finalize(rules: ForkRules(.prague))
                interpreted.finalize(rules: ForkRules(.prague))
            }
            timestamp += generator.next() % 20_000 + 1
            number += 1
            let env = BlockEnvironment(number: number, timestamp: timestamp)
            let parent = Bytes32(generator.bytes(32)) ?? .zero
            let root: Bytes32 = block % 3 == 0 ? .zero : Bytes32(generator.bytes(32)) ?? .zero
            let fork: Hardfork = block % 2 == 0 ? .prague : .osaka
            SystemCalls.beginBlock(parentHash: parent, parentBeaconBlockRoot: root, in: &fast, block: env, fork: fork)
            SystemCalls.beginBlock(parentHash: parent, parentBeaconBlockRoot: root, in: &interpreted, block: env, fork: fork)
            let fastRequests = try ExecutionRequests.collect(
                logs: [], depositContract: ExecutionRequests.mainnetDepositContract, in: &fast, block: env, fork: fork)
            let interpretedRequests = try ExecutionRequests.collect(
                logs: [], depositContract: ExecutionRequests.mainnetDepositContract, in: &interpreted, block: env, fork: fork)
            #expect(fastRequests == interpretedRequests, "seed \(seed) block \(block)")
            let fastChanges = fast.takeChanges()
            let interpretedChanges = interpreted.takeChanges()
            for address in Self.contracts {
                #expect(
                    fast.state.accounts[address]?.storage == interpreted.state.accounts[address]?.storage,
                    "seed \(seed) block \(block): storage of \(address)")
                // The interpreter also records slots it wrote back unchanged; every slot whose value changed must
                // be recorded by both.
                let changed = (fastChanges.slots[address] ?? []).union(interpretedChanges.slots[address] ?? [])
                for slot in changed where storage[address]?[slot] != fast.state.accounts[address]?.storage[slot] {
                    #expect(fastChanges.slots[address]?.contains(slot) == true, "seed \(seed) block \(block): \(slot)")
                }
                storage[address] = fast.state.accounts[address]?.storage
            }
        }
        // The fast path did run: the beacon ring holds this run's last timestamp.
        #expect(fast.state.accounts[SystemCalls.beaconRoots]?.storage[UInt256(timestamp % 8191)] == UInt256(timestamp))
    }
}
