import EVM
import EthereumPrimitives
import Testing

/// Memory expansion, copy, SSTORE (EIP-2200/2929/3529) and CALL gas, checked against the formulas
/// and the example tables in the EIPs.
@Suite struct GasTests {
    /// gas used by `code` (hex) under `fork`.
    func gasUsed(_ code: String, fork: Hardfork = .cancun, storage: [UInt256: UInt256] = [:], warm: Bool = true) -> Int64 {
        1_000_000 - EVMTest.run(EVMTest.hex(code), fork: fork, storage: storage, warm: warm).result.gasLeft
    }

    @Test func memoryExpansionCost() {
        // PUSH1 1, PUSH1 0, MSTORE: 3 + 3 + 3 + C_mem(1 word) = 3.
        #expect(gasUsed("0x6001600052") == 12)
        // MSTORE at 4096: 129 words, 3·129 + 129²/512 = 387 + 32 = 419.
        #expect(gasUsed("0x600161100052") == 3 + 3 + 3 + 419)
        // A second MSTORE in already active memory pays no expansion.
        #expect(gasUsed("0x60016000526002600052") == 12 + 9)
        // MSTORE8 at 31 needs one word; MLOAD at 1 needs two.
        #expect(gasUsed("0x6001601f53") == 12)
        #expect(gasUsed("0x60015150") == 3 + 3 + 6 + 2)
    }

    @Test func memoryOffsetBeyondAnyGasIsOutOfGas() {
        // MLOAD at 2^64: out of gas, not a crash.
        let (result, _) = EVMTest.run(EVMTest.hex("0x680100000000000000005100"))
        #expect(result.status == .outOfGas && result.gasLeft == 0)
        // A zero-size RETURN at a huge offset needs no memory.
        let (ok, _) = EVMTest.run(EVMTest.hex("0x60007f" + String(repeating: "ff", count: 32) + "f3"))
        #expect(ok.status == .returned)
    }

    @Test func copyCostPerWord() {
        // CALLDATACOPY(0, 0, 33): 3·3 (pushes) + 3 + 3·2 words + C_mem(2 words) = 6.
        #expect(gasUsed("0x60216000600037") == 9 + 3 + 6 + 6)
        // MCOPY (EIP-5656): 3 + 3 per word, expansion covers the destination.
        #expect(gasUsed("0x6020600060205e") == 9 + 3 + 3 + 6)
        // KECCAK256 of 64 bytes: 30 + 6·2 + C_mem(2 words).
        #expect(gasUsed("0x6040600020") == 6 + 30 + 12 + 6)
    }

    /// EIP-2200's test cases (Istanbul): code, gas used, refund, original value of slot 0.
    static let eip2200: [(String, Int64, Int64, UInt64)] = [
        ("0x60006000556000600055", 1612, 0, 0),
        ("0x60006000556001600055", 20812, 0, 0),
        ("0x60016000556000600055", 20812, 19200, 0),
        ("0x60016000556002600055", 20812, 0, 0),
        ("0x60016000556001600055", 20812, 0, 0),
        ("0x60006000556000600055", 5812, 15000, 1),
        ("0x60006000556001600055", 5812, 4200, 1),
        ("0x60006000556002600055", 5812, 0, 1),
        ("0x60026000556000600055", 5812, 15000, 1),
        ("0x60026000556003600055", 5812, 0, 1),
        ("0x60026000556001600055", 5812, 4200, 1),
        ("0x60026000556002600055", 5812, 0, 1),
        ("0x60016000556000600055", 5812, 15000, 1),
        ("0x60016000556002600055", 5812, 0, 1),
        ("0x60016000556001600055", 1612, 0, 1),
        ("0x600160005560006000556001600055", 40818, 19200, 0),
        ("0x600060005560016000556000600055", 10818, 19200, 1),
    ]

    @Test(arguments: eip2200)
    func sstoreEIP2200(code: String, used: Int64, refund: Int64, original: UInt64) {
        let storage: [UInt256: UInt256] = original == 0 ? [:] : [.zero: UInt256(original)]
        let (result, _) = EVMTest.run(EVMTest.hex(code), fork: .istanbul, storage: storage)
        #expect(1_000_000 - result.gasLeft == used)
        #expect(result.gasRefund == refund)
    }

    /// The same sequences under Berlin (EIP-2929, slot 0 cold) and London (EIP-3529's 4,800 clear
    /// refund): the first access adds 2,100; no-op and dirty writes cost 100; a reset costs 2,900.
    @Test func sstoreBerlinAndLondon() {
        func run(_ code: String, _ fork: Hardfork, original: UInt64) -> (Int64, Int64) {
            let storage: [UInt256: UInt256] = original == 0 ? [:] : [.zero: UInt256(original)]
            let (result, _) = EVMTest.run(EVMTest.hex(code), fork: fork, storage: storage)
            return (1_000_000 - result.gasLeft, result.gasRefund)
        }
        #expect(run("0x60006000556000600055", .berlin, original: 0) == (2312, 0))
        #expect(run("0x60006000556001600055", .berlin, original: 0) == (22212, 0))
        #expect(run("0x60016000556000600055", .berlin, original: 0) == (22212, 19900))
        #expect(run("0x60006000556000600055", .berlin, original: 1) == (5112, 15000))
        #expect(run("0x60006000556001600055", .berlin, original: 1) == (5112, 2800))
        #expect(run("0x60006000556000600055", .london, original: 1) == (5112, 4800))
        #expect(run("0x600060005560016000556000600055", .london, original: 1) == (8018, 7600))
    }

    /// Constantinople's EIP-1283 (SLOAD_GAS 200, no stipend sentry) and the legacy rule.
    @Test func sstoreConstantinopleAndLegacy() {
        let (c, _) = EVMTest.run(EVMTest.hex("0x60016000556000600055"), fork: .constantinople)
        #expect(1_000_000 - c.gasLeft == 12 + 20000 + 200)
        #expect(c.gasRefund == 19800)
        let (p, _) = EVMTest.run(EVMTest.hex("0x60016000556000600055"), fork: .petersburg)
        #expect(1_000_000 - p.gasLeft == 12 + 20000 + 5000)
        #expect(p.gasRefund == 15000)
    }

    /// EIP-2200: SSTORE with no more than the 2,300 stipend left fails.
    @Test func sstoreStipendSentry() {
        let code = EVMTest.hex("0x6001600055")
        #expect(EVMTest.run(code, fork: .istanbul, gas: 2306).result.status == .outOfGas)
        #expect(EVMTest.run(code, fork: .istanbul, gas: 2307, storage: [.zero: .one]).result.status == .stop)
    }

    @Test func coldAndWarmAccountAccess() {
        // BALANCE of a cold address: 100 + 2,500; again: 100.
        #expect(gasUsed("0x61aaaa3150") == 3 + 2600 + 2)
        #expect(gasUsed("0x61aaaa315061aaaa3150") == 3 + 2600 + 2 + 3 + 100 + 2)
        #expect(gasUsed("0x61aaaa3150", fork: .istanbul) == 3 + 700 + 2)
    }

    /// CALL with value to a new account: 9,000 + 25,000 (+ 2,600 cold); the callee gets the 2,300
    /// stipend on top of the gas asked for, and unused gas comes back.
    @Test func callValueToNewAccount() {
        // CALL(gas 0, to 0xbeef, value 1, no input/output): 7 pushes.
        let code = "0x6000600060006000600161beef6000f1"
        // The callee has no code, so its 2,300 stipend comes back unused: the caller ends up 2,300
        // better off than it paid (geth and the Yellow Paper agree on this quirk).
        let used = gasUsed(code)
        #expect(used == 7 * 3 + 100 + 2500 + 9000 + 25000 - 2300)
        // Without value: no transfer, no new-account cost.
        #expect(gasUsed("0x6000600060006000600061beef6000f1") == 7 * 3 + 2600)
    }

    /// EIP-150: a call gets at most all but one 64th of the gas left.
    @Test func allButOne64th() {
        // The callee returns GAS; the caller asks for 2^256−1 and returns the callee's word.
        let callee = EVMTest.hex("0x5a60005260206000f3")
        let caller = EVMTest.hex(
            "0x6020600060006000600061beef7f" + String(repeating: "ff", count: 32) + "f160206000f3")
        let target = Address(bytes: [UInt8](repeating: 0, count: 18) + [0xbe, 0xef]) ?? .zero
        let (result, _) = EVMTest.run(caller, gas: 100_000) { host in
            host.accounts[target] = TestHost.Account(code: callee)
            _ = host.warmAccount(target)
        }
        let available: Int64 = 100_000 - 7 * 3 - 100 - 3  // pushes, warm CALL, one word of output memory
        let given = available - available / 64
        #expect(UInt256(bigEndianBytes: result.output) == UInt256(UInt64(given - 2)))  // GAS costs 2
    }
}
