import EthereumPrimitives

// The interpreter loop. The analysed code holds each opcode's operation (AnalyzedCode.operations), so
// dispatch is one load and one exhaustive switch over ``Operation``; the fork's instruction table
// (derived from the opcode definitions, Opcodes.swift), indexed by the same operation, does the generic
// work in parallel: undefined opcode, stack underflow/overflow, static gas. Each body does only its
// semantics and dynamic gas.
//
// Two tiers keep pc, gas and the stack pointer (``Registers``) in CPU registers. Operations whose body
// makes no call (arithmetic without division, comparisons, bit operations, stack, jumps, environment
// reads, MLOAD/MSTORE inside active memory) are inlined into the loop. Every other one (host access,
// division, hashing, copies, memory expansion, calls, logs, halts with output) runs in
// ``runOutOfLine(_:_:_:)``, which takes the registers by value and returns them: the loop then holds
// them in no register across a call, so it needs no callee-saved register (and no spill) for them.
extension Interpreter {
    /// Runs `f` until it halts or asks for a child frame.
    @inlinable
    mutating func run(_ f: inout Frame) -> Status {
        let entries = costs.entries
        return entries.withUnsafeBufferPointer { table in
            var r = f.registers
            // The buffer of a non-empty array always has a base address.
            let status = runLoop(&r, &f, table.baseAddress.unsafelyUnwrapped)
            f.registers = r
            return status
        }
    }

    @inlinable @inline(__always)
    mutating func runLoop(_ r: inout Registers, _ f: inout Frame, _ table: UnsafePointer<InstructionCost>) -> Status {
        let operations = UnsafePointer(f.code.operations)
        let code = f.codeBytes
        let stackBase = f.stack
        var gasBefore: Int64 = 0
        while true {
            let operation = operations[r.pc]
            let cost = table[Int(operation.rawValue)]
            let size = r.sp - stackBase
            if T.isEnabled {
                gasBefore = r.gas
                tracer.willExecute(
                    pc: r.pc, opcode: code[r.pc], gas: r.gas, depth: f.message.depth, refund: refund,
                    stack: UnsafeBufferPointer(start: stackBase, count: size), memorySize: f.memory.size)
            }
            if size < Int(cost.minStack) || size > Int(cost.maxStack) {
                let status: Status =
                    !cost.isDefined ? .undefinedInstruction : size < Int(cost.minStack) ? .stackUnderflow : .stackOverflow
                if T.isEnabled { tracer.didExecute(gasCost: 0, error: status) }
                return status
            }
            r.gas &-= Int64(cost.staticGas)
            if r.gas < 0 {
                if T.isEnabled { tracer.didExecute(gasCost: Int64(cost.staticGas), error: .outOfGas) }
                return .outOfGas
            }
            r.pc &+= 1
            let status: Status
            switch operation {
            case .stop: status = opStop(&r, &f)
            case .add: status = opAdd(&r, &f)
            case .mul: status = opMul(&r, &f)
            case .sub: status = opSub(&r, &f)
            case .signextend: status = opSignextend(&r, &f)
            case .lt: status = opLt(&r, &f)
            case .gt: status = opGt(&r, &f)
            case .slt: status = opSlt(&r, &f)
            case .sgt: status = opSgt(&r, &f)
            case .eq: status = opEq(&r, &f)
            case .iszero: status = opIszero(&r, &f)
            case .and: status = opAnd(&r, &f)
            case .or: status = opOr(&r, &f)
            case .xor: status = opXor(&r, &f)
            case .not: status = opNot(&r, &f)
            case .byte: status = opByte(&r, &f)
            case .shl: status = opShl(&r, &f)
            case .shr: status = opShr(&r, &f)
            case .sar: status = opSar(&r, &f)
            case .clz: status = opClz(&r, &f)
            case .address: status = opAddress(&r, &f)
            case .origin: status = opOrigin(&r, &f)
            case .caller: status = opCaller(&r, &f)
            case .callvalue: status = opCallvalue(&r, &f)
            case .calldatasize: status = opCalldatasize(&r, &f)
            case .codesize: status = opCodesize(&r, &f)
            case .gasprice: status = opGasprice(&r, &f)
            case .returndatasize: status = opReturndatasize(&r, &f)
            case .coinbase: status = opCoinbase(&r, &f)
            case .timestamp: status = opTimestamp(&r, &f)
            case .number: status = opNumber(&r, &f)
            case .prevrandao: status = opPrevrandao(&r, &f)
            case .gaslimit: status = opGaslimit(&r, &f)
            case .chainid: status = opChainid(&r, &f)
            case .basefee: status = opBasefee(&r, &f)
            case .pop: status = opPop(&r)
            case .jump: status = opJump(&r, &f)
            case .jumpi: status = opJumpi(&r, &f)
            case .pc: status = opPc(&r, &f)
            case .msize: status = opMsize(&r, &f)
            case .gas: status = opGas(&r, &f)
            case .jumpdest: status = opJumpdest(&r, &f)
            case .push0: status = opPush0(&r)
            case .push1: status = opPush1(&r, code)
            case .push2: status = opPush(&r, code, 2)
            case .push3: status = opPush(&r, code, 3)
            case .push4: status = opPush(&r, code, 4)
            case .push5: status = opPush(&r, code, 5)
            case .push6: status = opPush(&r, code, 6)
            case .push7: status = opPush(&r, code, 7)
            case .push8: status = opPush(&r, code, 8)
            case .push9: status = opPush(&r, code, 9)
            case .push10: status = opPush(&r, code, 10)
            case .push11: status = opPush(&r, code, 11)
            case .push12: status = opPush(&r, code, 12)
            case .push13: status = opPush(&r, code, 13)
            case .push14: status = opPush(&r, code, 14)
            case .push15: status = opPush(&r, code, 15)
            case .push16: status = opPush(&r, code, 16)
            case .push17: status = opPush(&r, code, 17)
            case .push18: status = opPush(&r, code, 18)
            case .push19: status = opPush(&r, code, 19)
            case .push20: status = opPush(&r, code, 20)
            case .push21: status = opPush(&r, code, 21)
            case .push22: status = opPush(&r, code, 22)
            case .push23: status = opPush(&r, code, 23)
            case .push24: status = opPush(&r, code, 24)
            case .push25: status = opPush(&r, code, 25)
            case .push26: status = opPush(&r, code, 26)
            case .push27: status = opPush(&r, code, 27)
            case .push28: status = opPush(&r, code, 28)
            case .push29: status = opPush(&r, code, 29)
            case .push30: status = opPush(&r, code, 30)
            case .push31: status = opPush(&r, code, 31)
            case .push32: status = opPush(&r, code, 32)
            case .dup1: status = opDup(&r, 1)
            case .dup2: status = opDup(&r, 2)
            case .dup3: status = opDup(&r, 3)
            case .dup4: status = opDup(&r, 4)
            case .dup5: status = opDup(&r, 5)
            case .dup6: status = opDup(&r, 6)
            case .dup7: status = opDup(&r, 7)
            case .dup8: status = opDup(&r, 8)
            case .dup9: status = opDup(&r, 9)
            case .dup10: status = opDup(&r, 10)
            case .dup11: status = opDup(&r, 11)
            case .dup12: status = opDup(&r, 12)
            case .dup13: status = opDup(&r, 13)
            case .dup14: status = opDup(&r, 14)
            case .dup15: status = opDup(&r, 15)
            case .dup16: status = opDup(&r, 16)
            case .swap1: status = opSwap(&r, 1)
            case .swap2: status = opSwap(&r, 2)
            case .swap3: status = opSwap(&r, 3)
            case .swap4: status = opSwap(&r, 4)
            case .swap5: status = opSwap(&r, 5)
            case .swap6: status = opSwap(&r, 6)
            case .swap7: status = opSwap(&r, 7)
            case .swap8: status = opSwap(&r, 8)
            case .swap9: status = opSwap(&r, 9)
            case .swap10: status = opSwap(&r, 10)
            case .swap11: status = opSwap(&r, 11)
            case .swap12: status = opSwap(&r, 12)
            case .swap13: status = opSwap(&r, 13)
            case .swap14: status = opSwap(&r, 14)
            case .swap15: status = opSwap(&r, 15)
            case .swap16: status = opSwap(&r, 16)
            case .mload:
                if opMloadActive(&r, &f) { status = .running } else { (r, status) = runOutOfLine(operation, r, &f) }
            case .mstore:
                if opMstoreActive(&r, &f) { status = .running } else { (r, status) = runOutOfLine(operation, r, &f) }
            case .mstore8:
                if opMstore8Active(&r, &f) { status = .running } else { (r, status) = runOutOfLine(operation, r, &f) }
            case .div, .sdiv, .mod, .smod, .addmod, .mulmod, .exp, .keccak256, .balance, .calldataload,
                .calldatacopy, .codecopy, .extcodesize, .extcodecopy, .returndatacopy, .extcodehash, .blockhash,
                .selfbalance, .blobhash, .blobbasefee, .sload, .sstore, .tload, .tstore, .mcopy, .log0, .log1, .log2,
                .log3, .log4, .create, .call, .callCode, .`return`, .delegateCall, .create2, .staticCall, .revert,
                .selfdestruct, .invalid:
                (r, status) = runOutOfLine(operation, r, &f)
            }
            if T.isEnabled {
                tracer.didExecute(gasCost: gasBefore &- r.gas, error: status.isExceptional ? status : nil)
            }
            if status != .running { return status }
        }
    }

    /// The bodies that make calls, out of the loop (see the file comment): runs `operation` on
    /// `registers` and returns them with the status.
    @inlinable @inline(never)
    mutating func runOutOfLine(_ operation: Operation, _ registers: Registers, _ f: inout Frame) -> (Registers, Status) {
        var r = registers
        let status: Status
        switch operation {
        case .div: status = opDiv(&r, &f)
        case .sdiv: status = opSdiv(&r, &f)
        case .mod: status = opMod(&r, &f)
        case .smod: status = opSmod(&r, &f)
        case .addmod: status = opAddmod(&r, &f)
        case .mulmod: status = opMulmod(&r, &f)
        case .exp: status = opExp(&r, &f)
        case .keccak256: status = opKeccak256(&r, &f)
        case .balance: status = opBalance(&r, &f)
        case .calldataload: status = opCalldataload(&r, &f)
        case .calldatacopy: status = opCalldatacopy(&r, &f)
        case .codecopy: status = opCodecopy(&r, &f)
        case .extcodesize: status = opExtcodesize(&r, &f)
        case .extcodecopy: status = opExtcodecopy(&r, &f)
        case .returndatacopy: status = opReturndatacopy(&r, &f)
        case .extcodehash: status = opExtcodehash(&r, &f)
        case .blockhash: status = opBlockhash(&r, &f)
        case .selfbalance: status = opSelfbalance(&r, &f)
        case .blobhash: status = opBlobhash(&r, &f)
        case .blobbasefee: status = opBlobbasefee(&r, &f)
        case .mload: status = opMload(&r, &f)
        case .mstore: status = opMstore(&r, &f)
        case .mstore8: status = opMstore8(&r, &f)
        case .sload: status = opSload(&r, &f)
        case .sstore: status = opSstore(&r, &f)
        case .tload: status = opTload(&r, &f)
        case .tstore: status = opTstore(&r, &f)
        case .mcopy: status = opMcopy(&r, &f)
        case .log0: status = opLog(&r, &f, topics: 0)
        case .log1: status = opLog(&r, &f, topics: 1)
        case .log2: status = opLog(&r, &f, topics: 2)
        case .log3: status = opLog(&r, &f, topics: 3)
        case .log4: status = opLog(&r, &f, topics: 4)
        case .create: status = opCreate(&r, &f, kind: .create)
        case .call: status = opCall(&r, &f, kind: .call)
        case .callCode: status = opCall(&r, &f, kind: .callCode)
        case .`return`: status = opReturn(&r, &f)
        case .delegateCall: status = opCall(&r, &f, kind: .delegateCall)
        case .create2: status = opCreate(&r, &f, kind: .create2)
        case .staticCall: status = opCall(&r, &f, kind: .staticCall)
        case .revert: status = opRevert(&r, &f)
        case .selfdestruct: status = opSelfdestruct(&r, &f)
        default:
            // The loop runs every other operation inline; INVALID and bytes no fork defines never
            // pass its checks.
            status = .undefinedInstruction
        }
        return (r, status)
    }
}
