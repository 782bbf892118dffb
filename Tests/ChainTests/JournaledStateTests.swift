import Chain
import EVM
import EthereumPrimitives
import Testing

/// The transaction-scoped state: journal reverts, EIP-161 clean-up, self-destructs, original values.
@Suite struct JournaledStateTests {
    let a = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xaa]) ?? .zero
    let b = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xbb]) ?? .zero
    let ripemd = Address(bytes: [UInt8](repeating: 0, count: 19) + [0x03]) ?? .zero

    @Test func revertUndoesEverythingAfterTheCheckpoint() {
        var state = JournaledState(state: WorldState(accounts: [a: Account(balance: UInt256(100))]))
        state.setStorage(a, .one, UInt256(5))
        let checkpoint = state.checkpoint()
        state.subtractBalance(a, UInt256(40))
        state.addBalance(b, UInt256(40))
        state.setStorage(a, .one, UInt256(6))
        state.setNonce(a, 3)
        state.setCode(b, [0x00])
        state.emitLog(Log(address: a, topics: [], data: [1]))
        let wasCold = state.warmAccount(b)
        #expect(wasCold)
        state.revert(to: checkpoint)
        #expect(state.balance(of: a) == UInt256(100))
        #expect(!state.accountExists(b))
        #expect(state.storage(a, .one) == UInt256(5))
        #expect(state.nonce(of: a) == 0)
        #expect(state.logs.isEmpty)
        let coldAgain = state.warmAccount(b)
        #expect(coldAgain)  // cold again after the revert
        #expect(state.originalStorage(a, .one) == .zero)  // the value at the start of the transaction
    }

    @Test func touchedEmptyAccountsAreDeletedFromSpuriousDragon() {
        for (fork, survives) in [(Hardfork.tangerineWhistle, true), (.spuriousDragon, false), (.cancun, false)] {
            var state = JournaledState(state: WorldState(accounts: [a: Account()]))
            state.addBalance(a, .zero)  // a touch
            state.addBalance(b, .zero)  // creates and touches
            state.finalize(rules: ForkRules(fork))
            #expect(state.accountExists(a) == survives, "\(fork)")
            #expect(state.accountExists(b) == survives, "\(fork)")
        }
    }

    @Test func revertedTouchIsForgottenExceptForRIPEMD() {
        var state = JournaledState(state: WorldState(accounts: [a: Account(), ripemd: Account()]))
        let checkpoint = state.checkpoint()
        state.touch(a)
        state.touch(ripemd)
        state.revert(to: checkpoint)
        state.finalize(rules: ForkRules(.byzantium))
        #expect(state.accountExists(a))  // the touch was undone, so the empty account stays
        #expect(!state.accountExists(ripemd))  // EIP-161's mainnet exception (block 2675119)
    }

    @Test func selfDestructedAccountsAreDeletedAtTheEnd() {
        var state = JournaledState(state: WorldState(accounts: [a: Account(balance: UInt256(9), code: [0x00])]))
        let first = state.markSelfDestructed(a)
        let second = state.markSelfDestructed(a)
        #expect(first && !second)
        #expect(state.balance(of: a) == .zero)
        #expect(state.accountExists(a))  // until the transaction ends
        state.finalize(rules: ForkRules(.cancun))
        #expect(!state.accountExists(a))
    }

    @Test func stateRootOfKnownStates() {
        #expect(WorldState().stateRoot.hexString == "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421")
        #expect(WorldState.storageRoot([:]) == WorldState().stateRoot)
        // One storage slot 1 → 1: the trie of keccak(slot) → rlp(0x01).
        let root = WorldState.storageRoot([.one: .one])
        #expect(root != WorldState().stateRoot)
    }
}
