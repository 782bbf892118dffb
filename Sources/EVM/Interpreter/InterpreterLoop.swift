import EthereumPrimitives

// The interpreter loop: for each opcode, one lookup in the fork's instruction table (derived from the
// opcode definitions, Opcodes.swift) does the generic work (undefined opcode, stack underflow/overflow,
// static gas) and names the operation; then an exhaustive switch over the operation runs the body,
// which does only its semantics and dynamic gas. Everything is inlined into one function.
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
            let size = f.stackSize
            if T.isEnabled {
                gasBefore = f.gas
                tracer.willExecute(
                    pc: pc, opcode: op, gas: f.gas, depth: f.message.depth, refund: refund,
                    stack: UnsafeBufferPointer(start: f.stack, count: f.stackSize), memorySize: f.memory.size)
            }
            if size < Int(cost.minStack) || size > Int(cost.maxStack) {
                let status: Status =
                    !cost.isDefined ? .undefinedInstruction : size < Int(cost.minStack) ? .stackUnderflow : .stackOverflow
                if T.isEnabled { tracer.didExecute(gasCost: 0, error: status) }
                return status
            }
            f.gas &-= Int64(cost.staticGas)
            if f.gas < 0 {
                if T.isEnabled { tracer.didExecute(gasCost: Int64(cost.staticGas), error: .outOfGas) }
                return .outOfGas
            }
            f.pc = pc &+ 1
            let status: Status
            switch cost.operation {
            case .stop: status = opStop(&f)
            case .add: status = opAdd(&f)
            case .mul: status = opMul(&f)
            case .sub: status = opSub(&f)
            case .div: status = opDiv(&f)
            case .sdiv: status = opSdiv(&f)
            case .mod: status = opMod(&f)
            case .smod: status = opSmod(&f)
            case .addmod: status = opAddmod(&f)
            case .mulmod: status = opMulmod(&f)
            case .exp: status = opExp(&f)
            case .signextend: status = opSignextend(&f)
            case .lt: status = opLt(&f)
            case .gt: status = opGt(&f)
            case .slt: status = opSlt(&f)
            case .sgt: status = opSgt(&f)
            case .eq: status = opEq(&f)
            case .iszero: status = opIszero(&f)
            case .and: status = opAnd(&f)
            case .or: status = opOr(&f)
            case .xor: status = opXor(&f)
            case .not: status = opNot(&f)
            case .byte: status = opByte(&f)
            case .shl: status = opShl(&f)
            case .shr: status = opShr(&f)
            case .sar: status = opSar(&f)
            case .clz: status = opClz(&f)
            case .keccak256: status = opKeccak256(&f)
            case .address: status = opAddress(&f)
            case .balance: status = opBalance(&f)
            case .origin: status = opOrigin(&f)
            case .caller: status = opCaller(&f)
            case .callvalue: status = opCallvalue(&f)
            case .calldataload: status = opCalldataload(&f)
            case .calldatasize: status = opCalldatasize(&f)
            case .calldatacopy: status = opCalldatacopy(&f)
            case .codesize: status = opCodesize(&f)
            case .codecopy: status = opCodecopy(&f)
            case .gasprice: status = opGasprice(&f)
            case .extcodesize: status = opExtcodesize(&f)
            case .extcodecopy: status = opExtcodecopy(&f)
            case .returndatasize: status = opReturndatasize(&f)
            case .returndatacopy: status = opReturndatacopy(&f)
            case .extcodehash: status = opExtcodehash(&f)
            case .blockhash: status = opBlockhash(&f)
            case .coinbase: status = opCoinbase(&f)
            case .timestamp: status = opTimestamp(&f)
            case .number: status = opNumber(&f)
            case .prevrandao: status = opPrevrandao(&f)
            case .gaslimit: status = opGaslimit(&f)
            case .chainid: status = opChainid(&f)
            case .selfbalance: status = opSelfbalance(&f)
            case .basefee: status = opBasefee(&f)
            case .blobhash: status = opBlobhash(&f)
            case .blobbasefee: status = opBlobbasefee(&f)
            case .pop: status = opPop(&f)
            case .mload: status = opMload(&f)
            case .mstore: status = opMstore(&f)
            case .mstore8: status = opMstore8(&f)
            case .sload: status = opSload(&f)
            case .sstore: status = opSstore(&f)
            case .jump: status = opJump(&f)
            case .jumpi: status = opJumpi(&f)
            case .pc: status = opPc(&f)
            case .msize: status = opMsize(&f)
            case .gas: status = opGas(&f)
            case .jumpdest: status = opJumpdest(&f)
            case .tload: status = opTload(&f)
            case .tstore: status = opTstore(&f)
            case .mcopy: status = opMcopy(&f)
            case .push0: status = opPush0(&f)
            case .push1: status = opPush1(&f)
            case .push2: status = opPush(&f, 2)
            case .push3: status = opPush(&f, 3)
            case .push4: status = opPush(&f, 4)
            case .push5: status = opPush(&f, 5)
            case .push6: status = opPush(&f, 6)
            case .push7: status = opPush(&f, 7)
            case .push8: status = opPush(&f, 8)
            case .push9: status = opPush(&f, 9)
            case .push10: status = opPush(&f, 10)
            case .push11: status = opPush(&f, 11)
            case .push12: status = opPush(&f, 12)
            case .push13: status = opPush(&f, 13)
            case .push14: status = opPush(&f, 14)
            case .push15: status = opPush(&f, 15)
            case .push16: status = opPush(&f, 16)
            case .push17: status = opPush(&f, 17)
            case .push18: status = opPush(&f, 18)
            case .push19: status = opPush(&f, 19)
            case .push20: status = opPush(&f, 20)
            case .push21: status = opPush(&f, 21)
            case .push22: status = opPush(&f, 22)
            case .push23: status = opPush(&f, 23)
            case .push24: status = opPush(&f, 24)
            case .push25: status = opPush(&f, 25)
            case .push26: status = opPush(&f, 26)
            case .push27: status = opPush(&f, 27)
            case .push28: status = opPush(&f, 28)
            case .push29: status = opPush(&f, 29)
            case .push30: status = opPush(&f, 30)
            case .push31: status = opPush(&f, 31)
            case .push32: status = opPush(&f, 32)
            case .dup1: status = opDup(&f, 1)
            case .dup2: status = opDup(&f, 2)
            case .dup3: status = opDup(&f, 3)
            case .dup4: status = opDup(&f, 4)
            case .dup5: status = opDup(&f, 5)
            case .dup6: status = opDup(&f, 6)
            case .dup7: status = opDup(&f, 7)
            case .dup8: status = opDup(&f, 8)
            case .dup9: status = opDup(&f, 9)
            case .dup10: status = opDup(&f, 10)
            case .dup11: status = opDup(&f, 11)
            case .dup12: status = opDup(&f, 12)
            case .dup13: status = opDup(&f, 13)
            case .dup14: status = opDup(&f, 14)
            case .dup15: status = opDup(&f, 15)
            case .dup16: status = opDup(&f, 16)
            case .swap1: status = opSwap(&f, 1)
            case .swap2: status = opSwap(&f, 2)
            case .swap3: status = opSwap(&f, 3)
            case .swap4: status = opSwap(&f, 4)
            case .swap5: status = opSwap(&f, 5)
            case .swap6: status = opSwap(&f, 6)
            case .swap7: status = opSwap(&f, 7)
            case .swap8: status = opSwap(&f, 8)
            case .swap9: status = opSwap(&f, 9)
            case .swap10: status = opSwap(&f, 10)
            case .swap11: status = opSwap(&f, 11)
            case .swap12: status = opSwap(&f, 12)
            case .swap13: status = opSwap(&f, 13)
            case .swap14: status = opSwap(&f, 14)
            case .swap15: status = opSwap(&f, 15)
            case .swap16: status = opSwap(&f, 16)
            case .log0: status = opLog(&f, topics: 0)
            case .log1: status = opLog(&f, topics: 1)
            case .log2: status = opLog(&f, topics: 2)
            case .log3: status = opLog(&f, topics: 3)
            case .log4: status = opLog(&f, topics: 4)
            case .create: status = opCreate(&f, kind: .create)
            case .call: status = opCall(&f, kind: .call)
            case .callCode: status = opCall(&f, kind: .callCode)
            case .`return`: status = opReturn(&f)
            case .delegateCall: status = opCall(&f, kind: .delegateCall)
            case .create2: status = opCreate(&f, kind: .create2)
            case .staticCall: status = opCall(&f, kind: .staticCall)
            case .revert: status = opRevert(&f)
            case .selfdestruct: status = opSelfdestruct(&f)
            case .invalid: status = .undefinedInstruction
            }
            if T.isEnabled {
                tracer.didExecute(gasCost: gasBefore &- f.gas, error: status.isExceptional ? status : nil)
            }
            if status != .running { return status }
        }
    }
}
