import EVM
import EthereumPrimitives
import TestSupport
import Testing

/// The block loop (gas and stack checked once per basic block, `BasicBlocks.swift`) against the checked
/// loop (every instruction checked, as the Yellow Paper states it), which runs whenever a tracer is on:
/// every program, at every gas limit that stops it part-way, must end the same (status, gas left, output,
/// storage, logs). Gas limits are swept so that running out of gas lands on every instruction, including
/// those in the middle of a block whose static gas the block loop charged up front. The Yellow Paper's own
/// figures are checked where they pin a case down (GAS inside a block, the failure a block reports).
@Suite struct BasicBlockTests {
    /// A tracer that observes nothing but turns the tracing hooks on, which selects the checked loop.
    struct CheckedLoop: Tracer {
        static var isEnabled: Bool { true }
        var steps = 0
        mutating func willExecute(
            pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
            memory: UnsafeRawBufferPointer, returnData: [UInt8], address: Address
        ) { steps += 1 }
        mutating func didExecute(gasCost: Int64, error: Status?) {}
        mutating func didFinish(result: ExecutionResult, gasUsed: Int64) {}
    }

    struct Outcome: Equatable, CustomStringConvertible {
        var status: Status
        var gasLeft: Int64
        var output: [UInt8]
        var storage: [UInt256: UInt256]
        var logs: Int
        var description: String { "\(status) gasLeft \(gasLeft) output \(Hex.encode(output)) storage \(storage) logs \(logs)" }
    }

    static let other = Address(bytes: [UInt8](repeating: 0, count: 18) + [0xbe, 0xef]) ?? .zero

    /// Runs `code` with the block loop and with the checked loop, sharing `buffers` on the block side.
    func both(
        _ code: [UInt8], gas: Int64, fork: Hardfork = .cancun, callee: [UInt8] = [], buffers: ExecutionBuffers = ExecutionBuffers()
    ) -> (blocks: Outcome, checked: Outcome) {
        func host() -> TestHost {
            var host = TestHost()
            host.accounts[EVMTest.contract] = TestHost.Account(nonce: 1, code: code, storage: [UInt256(7): UInt256(9)])
            host.accounts[EVMTest.caller] = TestHost.Account(balance: UInt256(1_000_000_000))
            host.accounts[Self.other] = TestHost.Account(nonce: 1, code: callee)
            _ = host.warmAccount(EVMTest.contract)
            _ = host.warmAccount(EVMTest.caller)
            return host
        }
        let block = BlockEnvironment(number: 10, timestamp: 1_000, chainID: UInt256(1))
        let transaction = TransactionEnvironment(origin: EVMTest.caller, gasPrice: UInt256(7))
        let message = Message.call(from: EVMTest.caller, to: EVMTest.contract, gas: gas)
        var fast = Interpreter(host: host(), rules: ForkRules(fork), block: block, transaction: transaction, buffers: buffers)
        let fastResult = fast.execute(message)
        var checked = Interpreter(
            host: host(), rules: ForkRules(fork), block: block, transaction: transaction, tracer: CheckedLoop())
        let checkedResult = checked.execute(message)
        func outcome(_ result: ExecutionResult, _ host: TestHost) -> Outcome {
            Outcome(
                status: result.status, gasLeft: result.gasLeft, output: result.output,
                storage: host.accounts[EVMTest.contract]?.storage ?? [:], logs: host.logs.count)
        }
        return (outcome(fastResult, fast.host), outcome(checkedResult, checked.host))
    }

    /// Gas the checked loop uses for `code` given `available` (all of it when the program loops forever).
    func gasNeeded(_ code: [UInt8], callee: [UInt8] = [], available: Int64 = 1_000_000) -> Int64 {
        let (_, checked) = both(code, gas: available, callee: callee)
        return available - checked.gasLeft
    }

    /// Gas limits that stop a program needing `needed` gas at every instruction of a short program, and
    /// for a long one at every instruction of its first and last stretch and at 200 points in between.
    static func limits(_ needed: Int64) -> [Int64] {
        if needed <= 400 { return Array(0...(needed + 40)) }
        let step = Swift.max(1, (needed - 200) / 200)
        return Array(0...200) + Array(stride(from: 201, to: needed - 200, by: Int(step))) + Array((needed - 200)...(needed + 40))
    }

    /// Every gas limit that matters (``limits(_:)``) gives the same outcome.
    func expectAgreement(_ code: [UInt8], callee: [UInt8] = [], _ comment: Comment? = nil) {
        let needed = gasNeeded(code, callee: callee)
        let buffers = ExecutionBuffers()  // shared, as a chain shares it: analysed code and block costs reused
        for gas in Self.limits(needed) {
            let (blocks, checked) = both(code, gas: gas, callee: callee, buffers: buffers)
            #expect(blocks == checked, "gas \(gas) of \(needed): \(Hex.encode(code)) \(comment?.rawValue ?? "")")
            if blocks != checked { return }
        }
    }

    @Test func handwrittenProgramsAgreeAtEveryGasLimit() {
        let programs: [(String, String)] = [
            ("0x6001600201600055", "one block: PUSH PUSH ADD PUSH SSTORE"),
            ("0x5b600160020160005500", "JUMPDEST as the first instruction"),
            ("0x6005565b005b6001600055600056", "jump over a JUMPDEST; a loop back to pc 0 needs a JUMPDEST there"),
            ("0x60016003575b6002600055", "JUMPI taken lands on the JUMPDEST right after it"),
            ("0x60006005575b6002600055", "JUMPI not taken falls through into a JUMPDEST"),
            ("0x5a5b5a600055", "GAS, then a JUMPDEST starts the next block"),
            ("0x60015a5a03600055", "GAS twice in one stretch: each sees the gas after itself"),
            ("0x61ffff600052", "memory expansion inside a block"),
            ("0x60ff60005261100051600155", "MLOAD expanding memory mid-block"),
            ("0x6001600155600154600255", "SSTORE ends a block; SLOAD after it"),
            ("0x600760005560006000a0", "LOG0 after an SSTORE"),
            ("0x6001", "runs off the end of the code"),
            ("0x600160010161aa", "runs off the end in the middle of a PUSH"),
            ("0x6000356006565b", "CALLDATALOAD then a jump to the last byte"),
            ("0x60015b6001018060641160025700", "a counting loop of 100 iterations"),
            ("0x60015b0101", "stack underflow in the block after a JUMPDEST"),
            ("0x0c", "an opcode Cancun does not define"),
            ("0x600160020c", "an undefined opcode after two pushes"),
            ("0x6001600203fe", "INVALID at the end of a block"),
            ("0x60206000600039600051600055", "CODECOPY and MLOAD"),
            ("0x60016000526020600060003e", "RETURNDATACOPY past empty return data"),
            ("0x6000600060006000600061beef5af1600055", "CALL, then SSTORE of its result"),
            ("0x6000600060006000600061beef5af15b3d600055", "CALL followed by a JUMPDEST"),
            ("0x600060006000600061beef5afa3d600055", "STATICCALL"),
            ("0x60006000f3", "RETURN"),
            ("0x602a60005260206000fd", "REVERT with data"),
        ]
        // The callee stores, logs and returns a word: its own blocks run inside the caller's.
        let callee = EVMTest.hex("0x6001600255602a60005260006000a060206000f3")
        for (code, comment) in programs {
            expectAgreement(EVMTest.hex(code), callee: callee, Comment(rawValue: comment))
        }
    }

    @Test func stackOverflowAgrees() {
        // 1,024 pushes fit; the 1,025th overflows, in the middle of one long block.
        expectAgreement([UInt8](repeating: 0x5f, count: 1025))
        expectAgreement([UInt8](repeating: 0x5f, count: 1024) + [0x80])  // then DUP1 overflows
        expectAgreement([UInt8](repeating: 0x5f, count: 1024) + [0x50, 0x80, 0x80])  // POP, DUP1, DUP1
    }

    /// Random programs (a fixed seed, so every run checks the same ones) with jumps to JUMPDESTs and to
    /// bytes that are not, GAS, memory, storage and halts.
    @Test func randomProgramsAgree() {
        var rng = SplitMix64(seed: 0x5eed_b10c)
        for _ in 0..<80 {
            let code = randomProgram(&rng)
            let needed = gasNeeded(code, available: 30_000)
            let buffers = ExecutionBuffers()
            // Every limit up to 60, then limits spread up to what the program needs.
            var limits = Array(0...Swift.min(needed, 60))
            for _ in 0..<25 { limits.append(Int64(rng.next() % UInt64(needed + 50))) }
            limits.append(needed)
            for gas in limits {
                let (blocks, checked) = both(code, gas: gas, buffers: buffers)
                #expect(blocks == checked, "gas \(gas) of \(needed): \(Hex.encode(code))")
                if blocks != checked { return }
            }
        }
    }

    /// GAS in the middle of a block pushes the gas left after its own cost, not after the block's
    /// (Yellow Paper: μ_g after the instruction's C): PUSH1 1 (3), POP (2), GAS (2) → G − 7.
    @Test func gasInsideABlockIsExact() {
        // PUSH1 1, POP, GAS, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN.
        let (result, _) = EVMTest.run(EVMTest.hex("0x6001505a60005260206000f3"), gas: 50_000)
        #expect(result.status == .returned)
        #expect(UInt256(bigEndianBytes: result.output) == UInt256(50_000 - 7))
    }

    /// A block that both underflows the stack and cannot pay its gas fails with the first failure an
    /// instruction meets: ADD's missing operand, before the gas of the SSTORE after it (geth checks the
    /// stack before the gas, as the checked loop does).
    @Test func failureOfTheFirstFailingInstruction() {
        // PUSH1 1, ADD (one operand), PUSH1 0, SSTORE — with gas for the PUSH only.
        #expect(EVMTest.run(EVMTest.hex("0x6001016000556000"), gas: 4).result.status == .stackUnderflow)
        // Enough gas for everything but the SSTORE: out of gas.
        #expect(EVMTest.run(EVMTest.hex("0x6001600201600055"), gas: 12).result.status == .outOfGas)
        // An opcode Cancun lacks, after instructions whose gas is not available either: invalid opcode, as
        // the PUSHes run first.
        #expect(EVMTest.run(EVMTest.hex("0x600160020c"), gas: 6).result.status == .undefinedInstruction)
        #expect(EVMTest.run(EVMTest.hex("0x600160020c"), gas: 5).result.status == .outOfGas)
    }

    /// A block whose static gas does not fit the 32 bits a block's cost keeps is charged instruction by
    /// instruction, not at a clamped figure: ADDRESS then 6,200,000 BALANCEs (EIP-1884: 700 each in
    /// Istanbul) cost 2 + 700 × 6,200,000 = 4,340,000,002 gas, more than 2^32 − 1, in one block.
    @Test func blockGasBeyond32BitsIsChargedInFull() {
        let count = 6_200_000
        let code = [0x30] + [UInt8](repeating: 0x31, count: count) + [0x00]
        let needed: Int64 = 2 + 700 * Int64(count)
        let short = EVMTest.run(code, fork: .istanbul, gas: needed - 1).result
        #expect(short.status == .outOfGas)
        let enough = EVMTest.run(code, fork: .istanbul, gas: needed + 1_000).result
        #expect(enough.status == .stop)
        #expect(enough.gasLeft == 1_000)
    }

    /// Block costs are per fork: the same code, with the same buffers, under Istanbul (SLOAD 800) and
    /// Berlin (SLOAD 100 warm + 2,100 cold), uses each fork's gas.
    @Test func blockCostsFollowTheFork() {
        let code = EVMTest.hex("0x600754600055")  // SLOAD(7), SSTORE(0)
        let buffers = ExecutionBuffers()
        for fork in [Hardfork.istanbul, .berlin, .istanbul, .cancun] {
            let (blocks, checked) = both(code, gas: 100_000, fork: fork, buffers: buffers)
            #expect(blocks == checked, "\(fork)")
        }
        let istanbul = both(code, gas: 100_000, fork: .istanbul, buffers: buffers).blocks
        let berlin = both(code, gas: 100_000, fork: .berlin, buffers: buffers).blocks
        // PUSH1 3 + SLOAD + PUSH1 3 + SSTORE of a new non-zero value (20,000; cold 2,100 from Berlin).
        #expect(100_000 - istanbul.gasLeft == 3 + 800 + 3 + 20_000)
        #expect(100_000 - berlin.gasLeft == 3 + 2_100 + 3 + 20_000 + 2_100)
    }

    // MARK: Random programs

    /// A program of up to 60 instructions, mostly stack-balanced, with JUMPDESTs and jumps whose targets
    /// are pushed just before them (in range, sometimes not a JUMPDEST).
    func randomProgram(_ rng: inout SplitMix64) -> [UInt8] {
        let simple: [UInt8] = [
            0x01, 0x02, 0x03, 0x04, 0x10, 0x11, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1b, 0x1c, 0x50, 0x80, 0x81,
            0x82, 0x90, 0x91, 0x5a, 0x58, 0x59, 0x3d, 0x36, 0x33, 0x30,
        ]
        var code: [UInt8] = []
        let length = 10 + rng.below(50)
        for _ in 0..<length {
            switch rng.below(16) {
            case 0, 1, 2, 3: code += [0x60, UInt8(rng.below(40))]  // PUSH1 small
            case 4: code.append(0x5b)  // JUMPDEST
            case 5: code += [0x60, UInt8(rng.below(length * 2)), 0x56]  // PUSH1 target, JUMP
            case 6: code += [0x60, UInt8(rng.below(length * 2)), 0x57]  // PUSH1 target, JUMPI
            case 7: code += [0x60, UInt8(rng.below(4) * 32), 0x52]  // MSTORE at a small offset
            case 8: code += [0x60, UInt8(rng.below(4)), 0x55]  // SSTORE to a small key
            case 9: code += [0x60, UInt8(rng.below(4)), 0x54]  // SLOAD
            case 10: code += [0x60, UInt8(rng.below(4) * 32), 0x51]  // MLOAD
            case 11: code += [0x60, 0x00, 0x60, 0x00, 0xa0]  // LOG0 of nothing
            case 12: code.append(0x5a)  // GAS
            default: code.append(simple[rng.below(simple.count)])
            }
        }
        code.append([0x00, 0xf3, 0xfd, 0xfe][rng.below(4)])  // STOP, RETURN, REVERT or INVALID
        return code
    }
}

extension SplitMix64 {
    /// A number in 0..<n (n small: the modulo bias is negligible for choosing instructions).
    fileprivate mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
