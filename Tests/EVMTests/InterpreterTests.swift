import EVM
import EthereumPrimitives
import Testing

/// Control flow, calls, creates, the static flag, return data and call depth.
@Suite struct InterpreterTests {
    let other = Address(bytes: [UInt8](repeating: 0, count: 18) + [0xbe, 0xef]) ?? .zero

    @Test func pushReadsImmediatesAndPadsPastTheEnd() {
        #expect(EVMTest.word("0x61abcd60005260206000f3") == UInt256(0xabcd))
        #expect(EVMTest.word("0x7f" + String(repeating: "11", count: 32) + "60005260206000f3")
            == UInt256(bigEndianBytes: [UInt8](repeating: 0x11, count: 32)))
        // PUSH2 with one byte of code left: the missing byte reads as zero; then the code ends (STOP).
        let (result, _) = EVMTest.run([0x61, 0xaa])
        #expect(result.status == .stop)
    }

    @Test func jumpsOnlyToJumpdestOutsidePushData() {
        // JUMP to 4 (a JUMPDEST) then STOP.
        #expect(EVMTest.run(EVMTest.hex("0x6004565b5b00")).result.status == .stop)
        // JUMP to 3, which is inside PUSH1's immediate (0x5b as data).
        #expect(EVMTest.run(EVMTest.hex("0x600356605b00")).result.status == .invalidJump)
        // JUMPI not taken with a bad destination is fine.
        #expect(EVMTest.run(EVMTest.hex("0x6000600357")).result.status == .stop)
        // A jump past the end of the code.
        #expect(EVMTest.run(EVMTest.hex("0x60ff56")).result.status == .invalidJump)
    }

    @Test func stackLimits() {
        #expect(EVMTest.run([0x01]).result.status == .stackUnderflow)
        let overflow = [UInt8](repeating: 0x5f, count: 1025)  // PUSH0 × 1025
        #expect(EVMTest.run(overflow, gas: 10_000).result.status == .stackOverflow)
        #expect(EVMTest.run([UInt8](repeating: 0x5f, count: 1024), gas: 10_000).result.status == .stop)
    }

    @Test func revertKeepsGasAndReturnsData() {
        // MSTORE(0, 42), REVERT(0, 32).
        let (result, host) = EVMTest.run(EVMTest.hex("0x602a60005260206000fd"), storage: [:])
        #expect(result.status == .reverted)
        #expect(UInt256(bigEndianBytes: result.output) == UInt256(42))
        #expect(result.gasLeft == 1_000_000 - (3 + 3 + 3 + 3 + 3 + 3))
        #expect(host.accounts[EVMTest.contract]?.storage.isEmpty == true)
    }

    @Test func failedChildIsUndoneAndReturnDataIsVisible() {
        // The callee stores 1 then reverts with 0x2a; the caller stores the CALL result and RETURNDATASIZE.
        let callee = EVMTest.hex("0x600160005560206000fd")
        let caller = EVMTest.hex("0x6000600060006000600061beef5af16000553d60015500")
        let (result, host) = EVMTest.run(caller) { host in
            host.accounts[other] = TestHost.Account(code: callee)
        }
        #expect(result.status == .stop)
        #expect(host.accounts[other]?.storage.isEmpty == true)
        #expect(host.accounts[EVMTest.contract]?.storage[.zero] == nil)  // CALL pushed 0
        #expect(host.accounts[EVMTest.contract]?.storage[.one] == UInt256(32))
    }

    @Test func staticCallForbidsStateChanges() {
        // The callee does SSTORE; called with STATICCALL it fails, so the caller stores 0 (absent).
        let callee = EVMTest.hex("0x6001600055")
        let caller = EVMTest.hex("0x6000600060006000" + "61beef" + "5afa" + "600155" + "00")
        let (result, host) = EVMTest.run(caller) { host in
            host.accounts[other] = TestHost.Account(code: callee)
        }
        #expect(result.status == .stop)
        #expect(host.accounts[EVMTest.contract]?.storage[.one] == nil)
        #expect(host.accounts[other]?.storage.isEmpty == true)
    }

    /// A CALL with value inside a static frame is an exceptional halt; the same call made with
    /// CALL (not static) succeeds.
    @Test func valueCallInStaticFrameFails() {
        let sender = Address(bytes: [UInt8](repeating: 0, count: 18) + [0xbe, 0xe2]) ?? .zero
        let valueCall = EVMTest.hex("0x6000600060006000600161beef6000f100")  // CALL(0, 0xbeef, value 1, …)
        for (opcode, expected) in [("fa", UInt256?.none), ("f1", UInt256.one)] {
            let extra = opcode == "f1" ? "6000" : ""  // CALL has a value operand; STATICCALL does not
            let caller = EVMTest.hex("0x6000600060006000" + extra + "61bee25a" + opcode + "60015500")
            let (_, host) = EVMTest.run(caller) { host in
                host.accounts[sender] = TestHost.Account(balance: UInt256(5), code: valueCall)
            }
            #expect(host.accounts[EVMTest.contract]?.storage[.one] == expected)
        }
    }

    /// A contract that counts its depth in storage and calls itself with all its gas: 1,025 frames
    /// (depths 0…1024) run, the 1,026th call fails, and the Swift stack is not involved.
    @Test func callDepthLimit() {
        // SLOAD(0)+1 → SSTORE(0); CALL(GAS, ADDRESS, 0, 0, 0, 0, 0); STOP
        let code = EVMTest.hex("0x60005460010160005560006000600060006000305af100")
        // With all but one 64th handed down at each level, depth 1024 needs about 64/63^1024 ≈ 10^7
        // times the gas of the deepest frame.
        let (result, host) = EVMTest.run(code, gas: 1_000_000_000_000_000)
        #expect(result.status == .stop)
        #expect(host.accounts[EVMTest.contract]?.storage[.zero] == UInt256(1025))
    }

    @Test func createAndCreate2Addresses() {
        // EIP-1014's first example.
        #expect(
            ContractAddress.create2(sender: .zero, salt: .zero, initCodeHash: Keccak256.hash([0x00] as [UInt8]))
                == (try? Address("0x4D1A2e2bB4F88F0250f26Ffff098B0b30B26BF38")))
        let sender = try? Address("0x6ac7ea33f8831ea9dcc53393aaa88b25a785dbf0")
        #expect(ContractAddress.create(sender: sender ?? .zero, nonce: 0) == (try? Address("0xcd234a471b72ba2f1ccf0a70fcaba648a5eecd8d")))
        #expect(ContractAddress.create(sender: sender ?? .zero, nonce: 1) == (try? Address("0x343c43a37d37dff08ae8c4a11544c718abb4fcf8")))
    }

    @Test func createDeploysReturnedCode() {
        // Init code returns the single byte 0x00 (STOP): PUSH1 1 PUSH1 31 RETURN after MSTORE(0, 0).
        // Outer: MSTORE the init code at 0, CREATE(0, 32 − len, len), store the address.
        let initCode = "60006000526001601ff3"
        let code = EVMTest.hex("0x69" + initCode + "600052" + "600a6016" + "6000f0" + "600055")
        let (result, host) = EVMTest.run(code)
        #expect(result.status == .stop)
        let expected = ContractAddress.create(sender: EVMTest.contract, nonce: 1)
        #expect(host.accounts[EVMTest.contract]?.storage[.zero] == UInt256(expected.bytes32))
        #expect(host.accounts[expected]?.code == [0x00])
        #expect(host.accounts[expected]?.nonce == 1)
        #expect(host.accounts[EVMTest.contract]?.nonce == 2)
    }

    @Test func transientStorageIsPerTransaction() {
        // TSTORE(1, 7); TLOAD(1) → return.
        #expect(EVMTest.word("0x600760015d60015c60005260206000f3") == UInt256(7))
    }

    @Test func structLogTrace() {
        var interpreter = Interpreter(
            host: TestHost(), rules: ForkRules(.cancun), block: BlockEnvironment(),
            transaction: TransactionEnvironment(origin: EVMTest.caller), tracer: StructLogTracer())
        var host = TestHost()
        host.accounts[EVMTest.contract] = TestHost.Account(code: EVMTest.hex("0x6001600201600055"))
        interpreter.host = host
        let result = interpreter.execute(.call(from: EVMTest.caller, to: EVMTest.contract, gas: 100_000))
        let logs = interpreter.tracer.logs
        #expect(result.status == .stop)
        #expect(logs.map(\.opName) == ["PUSH1", "PUSH1", "ADD", "PUSH1", "SSTORE", "STOP"])
        #expect(logs.map(\.gasCost) == [3, 3, 3, 3, 22_100, 0])
        #expect(logs[2].stack == [UInt256(1), UInt256(2)])
        #expect(logs[3].stack == [UInt256(3)])
        #expect(logs.allSatisfy { $0.depth == 1 })
    }
}
