import Chain
import EVM
import EthereumPrimitives
import Testing

/// JournaledState's storage path through its per-transaction slot cache: warm flags and original values
/// (EIP-2929, EIP-2200) across reverts, write-back to the world state, and wholesale storage changes.
@Suite struct SlotCacheTests {
    let a = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xaa]) ?? .zero
    let b = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xbb]) ?? .zero
    let k = UInt256(7)

    @Test func writesReachTheWorldStateWhenFlushed() {
        // A nonce, so that EIP-161 does not delete the account (storage does not count against emptiness).
        var state = JournaledState(state: WorldState(accounts: [a: Account(nonce: 1, storage: [k: UInt256(1)])]))
        state.setStorage(a, k, UInt256(2))
        state.setStorage(a, .one, UInt256(3))
        #expect(state.storage(a, k) == UInt256(2))
        #expect(state.state[a]?.storage[k] == UInt256(1))  // not yet written back
        state.flushStorage()
        #expect(state.state[a]?.storage == [k: UInt256(2), .one: UInt256(3)])
        state.setStorage(a, k, .zero)
        state.finalize(rules: ForkRules(.cancun))
        #expect(state.state[a]?.storage == [.one: UInt256(3)])  // zero slots are absent
    }

    @Test func warmFlagsAndOriginalValuesFollowTheJournal() {
        var state = JournaledState(state: WorldState(accounts: [a: Account(storage: [k: UInt256(10)])]))
        let start = state.checkpoint()
        let first = state.loadSlot(a, k, warm: true)
        #expect(first.value == UInt256(10) && first.wasCold)
        let second = state.loadSlot(a, k, warm: true)
        #expect(!second.wasCold)
        state.setStorage(a, k, UInt256(11))
        let inner = state.checkpoint()
        state.setStorage(a, k, UInt256(12))
        let write = state.slotForWrite(a, k, warm: true)
        #expect(write.current == UInt256(12) && write.original == UInt256(10) && !write.wasCold)
        state.revert(to: inner)
        #expect(state.storage(a, k) == UInt256(11))
        state.revert(to: start)
        #expect(state.storage(a, k) == UInt256(10))
        let again = state.loadSlot(a, k, warm: true)
        #expect(again.wasCold)  // the warming was undone too
        #expect(state.originalStorage(a, k) == UInt256(10))
        state.finalize(rules: ForkRules(.cancun))
        #expect(state.state[a]?.storage[k] == UInt256(10))
        let next = state.loadSlot(a, k, warm: true)
        #expect(next.wasCold)  // a new transaction starts cold
    }

    @Test func prewarmedSlotsAndPreBerlinAccessesAreNotCold() {
        var state = JournaledState(state: WorldState())
        state.prewarm(a, k)
        let prewarmed = state.loadSlot(a, k, warm: true)
        #expect(!prewarmed.wasCold)
        let unwarmed = state.loadSlot(b, k, warm: false)
        #expect(!unwarmed.wasCold)  // no EIP-2929: nothing is cold
        let cold = state.loadSlot(b, k, warm: true)
        #expect(cold.wasCold)
    }

    @Test func hasStorageSeesUnflushedWrites() {
        var state = JournaledState(state: WorldState(accounts: [a: Account(balance: UInt256(1))]))
        #expect(!state.hasStorage(a))
        let checkpoint = state.checkpoint()
        state.setStorage(a, k, UInt256(5))
        #expect(state.hasStorage(a))
        state.revert(to: checkpoint)
        #expect(!state.hasStorage(a))
    }

    @Test func contractCreationOverAnAccountClearsItsSlotsUntilReverted() {
        var state = JournaledState(state: WorldState(accounts: [a: Account(balance: UInt256(1))]))
        state.setStorage(a, k, UInt256(5))
        let checkpoint = state.checkpoint()
        state.createContractAccount(a)
        #expect(state.storage(a, k) == .zero)
        #expect(!state.hasStorage(a))
        state.revert(to: checkpoint)
        #expect(state.storage(a, k) == UInt256(5))
        state.finalize(rules: ForkRules(.cancun))
        #expect(state.state[a]?.storage == [k: UInt256(5)])
    }

    @Test func manySlotsInOneTransaction() {
        var state = JournaledState(state: WorldState(accounts: [a: Account(nonce: 1), b: Account(nonce: 1)]))
        for i in 0..<5_000 as Range<UInt64> {
            state.setStorage(i % 2 == 0 ? a : b, UInt256(i), UInt256(i + 1))
        }
        for i in 0..<5_000 as Range<UInt64> {
            #expect(state.storage(i % 2 == 0 ? a : b, UInt256(i)) == UInt256(i + 1))
        }
        state.finalize(rules: ForkRules(.cancun))
        #expect(state.state[a]?.storage.count == 2_500 && state.state[b]?.storage.count == 2_500)
        #expect(state.state[b]?.storage[UInt256(4_999)] == UInt256(5_000))
        let next = state.slotForWrite(a, UInt256(4_998), warm: true)
        #expect(next.current == UInt256(4_999) && next.original == UInt256(4_999) && next.wasCold)
    }

    /// The warm-account set (EIP-2929) under many insertions and a revert that removes half of them in
    /// reverse order (removals shift later entries back into the probe chains).
    @Test func warmAccountsSurviveRemovalInReverseOrder() {
        var state = JournaledState(state: WorldState())
        let addresses = (0..<2_000 as Range<UInt32>).map { Address(uint32: $0 &* 2_654_435_761) }
        func warm(_ address: Address) -> Bool { state.warmAccount(address) }
        #expect(addresses.prefix(1_000).allSatisfy(warm))
        let checkpoint = state.checkpoint()
        #expect(addresses.suffix(1_000).allSatisfy(warm))
        #expect(!addresses.contains(where: warm))  // all warm now
        state.revert(to: checkpoint)
        #expect(!addresses.prefix(1_000).contains(where: warm))
        #expect(addresses.suffix(1_000).allSatisfy(warm))
        state.finalize(rules: ForkRules(.cancun))
        #expect(warm(addresses[0]))  // a new transaction starts cold
    }
}
