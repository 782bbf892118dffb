import EthereumPrimitives

// The interpreter loop: for each opcode, one table lookup does the generic work (undefined opcode,
// stack underflow/overflow, static gas); then a switch over the byte runs the instruction, which
// does only its semantics and dynamic gas. Everything is inlined into one function so the frame's
// pc, gas and stack pointer stay in registers.
extension Interpreter {
    /// Runs `f` until it halts or asks for a child frame.
    @inlinable
    mutating func run(_ f: inout Frame) -> Status {
        let entries = costs.entries
        return entries.withUnsafeBufferPointer { table in
            // The buffer of a non-empty array always has a base address.
            runLoop(&f, table.baseAddress.unsafelyUnwrapped)
        }
    }

    @inlinable
    mutating func runLoop(_ f: inout Frame, _ table: UnsafePointer<InstructionCost>) -> Status {
        var gasBefore: Int64 = 0
        while true {
            let pc = f.pc
            let op = f.codeBytes[pc]
            let cost = table[Int(op)]
            let size = Int32(truncatingIfNeeded: f.stackSize)
            if T.isEnabled {
                gasBefore = f.gas
                tracer.willExecute(
                    pc: pc, opcode: op, gas: f.gas, depth: f.message.depth, refund: refund,
                    stack: UnsafeBufferPointer(start: f.stack, count: f.stackSize), memorySize: f.memory.size)
            }
            if size < cost.minStack || size > cost.maxStack {
                let status: Status =
                    !cost.isDefined ? .undefinedInstruction : size < cost.minStack ? .stackUnderflow : .stackOverflow
                if T.isEnabled { tracer.didExecute(gasCost: 0, error: status) }
                return status
            }
            f.gas &-= cost.staticGas
            if f.gas < 0 {
                if T.isEnabled { tracer.didExecute(gasCost: cost.staticGas, error: .outOfGas) }
                return .outOfGas
            }
            f.pc = pc &+ 1
            let status: Status
            switch op {
            case 0x00: status = opStop(&f)
            case 0x01: status = opAdd(&f)
            case 0x02: status = opMul(&f)
            case 0x03: status = opSub(&f)
            case 0x04: status = opDiv(&f)
            case 0x05: status = opSdiv(&f)
            case 0x06: status = opMod(&f)
            case 0x07: status = opSmod(&f)
            case 0x08: status = opAddmod(&f)
            case 0x09: status = opMulmod(&f)
            case 0x0a: status = opExp(&f)
            case 0x0b: status = opSignextend(&f)
            case 0x10: status = opLt(&f)
            case 0x11: status = opGt(&f)
            case 0x12: status = opSlt(&f)
            case 0x13: status = opSgt(&f)
            case 0x14: status = opEq(&f)
            case 0x15: status = opIszero(&f)
            case 0x16: status = opAnd(&f)
            case 0x17: status = opOr(&f)
            case 0x18: status = opXor(&f)
            case 0x19: status = opNot(&f)
            case 0x1a: status = opByte(&f)
            case 0x1b: status = opShl(&f)
            case 0x1c: status = opShr(&f)
            case 0x1d: status = opSar(&f)
            case 0x1e: status = opClz(&f)
            case 0x20: status = opKeccak256(&f)
            case 0x30: status = opAddress(&f)
            case 0x31: status = opBalance(&f)
            case 0x32: status = opOrigin(&f)
            case 0x33: status = opCaller(&f)
            case 0x34: status = opCallvalue(&f)
            case 0x35: status = opCalldataload(&f)
            case 0x36: status = opCalldatasize(&f)
            case 0x37: status = opCalldatacopy(&f)
            case 0x38: status = opCodesize(&f)
            case 0x39: status = opCodecopy(&f)
            case 0x3a: status = opGasprice(&f)
            case 0x3b: status = opExtcodesize(&f)
            case 0x3c: status = opExtcodecopy(&f)
            case 0x3d: status = opReturndatasize(&f)
            case 0x3e: status = opReturndatacopy(&f)
            case 0x3f: status = opExtcodehash(&f)
            case 0x40: status = opBlockhash(&f)
            case 0x41: status = opCoinbase(&f)
            case 0x42: status = opTimestamp(&f)
            case 0x43: status = opNumber(&f)
            case 0x44: status = opPrevrandao(&f)
            case 0x45: status = opGaslimit(&f)
            case 0x46: status = opChainid(&f)
            case 0x47: status = opSelfbalance(&f)
            case 0x48: status = opBasefee(&f)
            case 0x49: status = opBlobhash(&f)
            case 0x4a: status = opBlobbasefee(&f)
            case 0x50: status = opPop(&f)
            case 0x51: status = opMload(&f)
            case 0x52: status = opMstore(&f)
            case 0x53: status = opMstore8(&f)
            case 0x54: status = opSload(&f)
            case 0x55: status = opSstore(&f)
            case 0x56: status = opJump(&f)
            case 0x57: status = opJumpi(&f)
            case 0x58: status = opPc(&f)
            case 0x59: status = opMsize(&f)
            case 0x5a: status = opGas(&f)
            case 0x5b: status = opJumpdest(&f)
            case 0x5c: status = opTload(&f)
            case 0x5d: status = opTstore(&f)
            case 0x5e: status = opMcopy(&f)
            case 0x5f: status = opPush0(&f)
            case 0x60: status = opPush1(&f)
            case 0x61: status = opPush(&f, 2)
            case 0x62: status = opPush(&f, 3)
            case 0x63: status = opPush(&f, 4)
            case 0x64: status = opPush(&f, 5)
            case 0x65: status = opPush(&f, 6)
            case 0x66: status = opPush(&f, 7)
            case 0x67: status = opPush(&f, 8)
            case 0x68: status = opPush(&f, 9)
            case 0x69: status = opPush(&f, 10)
            case 0x6a: status = opPush(&f, 11)
            case 0x6b: status = opPush(&f, 12)
            case 0x6c: status = opPush(&f, 13)
            case 0x6d: status = opPush(&f, 14)
            case 0x6e: status = opPush(&f, 15)
            case 0x6f: status = opPush(&f, 16)
            case 0x70: status = opPush(&f, 17)
            case 0x71: status = opPush(&f, 18)
            case 0x72: status = opPush(&f, 19)
            case 0x73: status = opPush(&f, 20)
            case 0x74: status = opPush(&f, 21)
            case 0x75: status = opPush(&f, 22)
            case 0x76: status = opPush(&f, 23)
            case 0x77: status = opPush(&f, 24)
            case 0x78: status = opPush(&f, 25)
            case 0x79: status = opPush(&f, 26)
            case 0x7a: status = opPush(&f, 27)
            case 0x7b: status = opPush(&f, 28)
            case 0x7c: status = opPush(&f, 29)
            case 0x7d: status = opPush(&f, 30)
            case 0x7e: status = opPush(&f, 31)
            case 0x7f: status = opPush(&f, 32)
            case 0x80: status = opDup(&f, 1)
            case 0x81: status = opDup(&f, 2)
            case 0x82: status = opDup(&f, 3)
            case 0x83: status = opDup(&f, 4)
            case 0x84: status = opDup(&f, 5)
            case 0x85: status = opDup(&f, 6)
            case 0x86: status = opDup(&f, 7)
            case 0x87: status = opDup(&f, 8)
            case 0x88: status = opDup(&f, 9)
            case 0x89: status = opDup(&f, 10)
            case 0x8a: status = opDup(&f, 11)
            case 0x8b: status = opDup(&f, 12)
            case 0x8c: status = opDup(&f, 13)
            case 0x8d: status = opDup(&f, 14)
            case 0x8e: status = opDup(&f, 15)
            case 0x8f: status = opDup(&f, 16)
            case 0x90: status = opSwap(&f, 1)
            case 0x91: status = opSwap(&f, 2)
            case 0x92: status = opSwap(&f, 3)
            case 0x93: status = opSwap(&f, 4)
            case 0x94: status = opSwap(&f, 5)
            case 0x95: status = opSwap(&f, 6)
            case 0x96: status = opSwap(&f, 7)
            case 0x97: status = opSwap(&f, 8)
            case 0x98: status = opSwap(&f, 9)
            case 0x99: status = opSwap(&f, 10)
            case 0x9a: status = opSwap(&f, 11)
            case 0x9b: status = opSwap(&f, 12)
            case 0x9c: status = opSwap(&f, 13)
            case 0x9d: status = opSwap(&f, 14)
            case 0x9e: status = opSwap(&f, 15)
            case 0x9f: status = opSwap(&f, 16)
            case 0xa0: status = opLog(&f, topics: 0)
            case 0xa1: status = opLog(&f, topics: 1)
            case 0xa2: status = opLog(&f, topics: 2)
            case 0xa3: status = opLog(&f, topics: 3)
            case 0xa4: status = opLog(&f, topics: 4)
            case 0xf0: status = opCreate(&f, kind: .create)
            case 0xf1: status = opCall(&f, kind: .call)
            case 0xf2: status = opCall(&f, kind: .callCode)
            case 0xf3: status = opReturn(&f)
            case 0xf4: status = opCall(&f, kind: .delegateCall)
            case 0xf5: status = opCreate(&f, kind: .create2)
            case 0xfa: status = opCall(&f, kind: .staticCall)
            case 0xfd: status = opRevert(&f)
            case 0xff: status = opSelfdestruct(&f)
            default: status = .undefinedInstruction
            }
            if T.isEnabled {
                tracer.didExecute(gasCost: gasBefore &- f.gas, error: status.isExceptional ? status : nil)
            }
            if status != .running { return status }
        }
    }
}
