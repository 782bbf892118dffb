import EthereumPrimitives

// The interpreter loop. The analysed code holds each opcode's operation (AnalyzedCode.operations), so
// dispatch is one load and one exhaustive switch over ``Operation``. Each body does only its semantics and
// dynamic gas; the generic work (undefined opcode, stack underflow/overflow, static gas) is done by the loop
// in one of two ways, from the same source:
// - the block loop (``runBlocks(_:_:_:)``, without a tracer) checks and charges a whole basic block when it
//   enters it (``BlockCost``, BasicBlocks.swift): at the frame's start or resumption, on a jump (which lands
//   on a JUMPDEST and goes straight past it), after a JUMPI not taken and after the few other instructions
//   that end a block; a JUMPDEST reached by falling through was paid for with the block before it. Most
//   instructions dispatch with no check.
// - the checked loop (``runChecked(_:_:_:)``) checks each instruction against the fork's instruction table
//   (derived from the opcode definitions, Opcodes.swift) before it runs. It runs frames under a tracer, and
//   a block whose check failed, from its first instruction: the frame then halts in that block exactly as
//   per-instruction checking makes it halt.
//
// Two tiers keep pc, gas and the stack pointer (``Registers``) in CPU registers. Operations whose body
// makes no call (arithmetic without division, comparisons, bit operations, stack, jumps, environment
// reads, MLOAD/MSTORE inside active memory or the zeroed bytes past it) are inlined into the loop. Every
// other one (host access, division, hashing, copies, memory expansion past the zeroed bytes, calls, logs,
// halts with output) runs in ``runOutOfLine(_:_:_:)``, which takes the registers by value and returns them:
// the loop then holds
// them in no register across a call, so it needs no callee-saved register (and no spill) for them.
extension Interpreter {
    /// Runs `f` until it halts or asks for a child frame.
    @inlinable
    mutating func run(_ f: inout Frame) -> Status {
        let entries = costs.entries
        return entries.withUnsafeBufferPointer { table in
            // The buffer of a non-empty array always has a base address.
            let base = table.baseAddress.unsafelyUnwrapped
            var r = f.registers
            var status = Status.running
            // `.running` from the block loop: a block's check failed, and the checked loop runs it.
            if !T.isEnabled { (r, status) = runBlocks(r, &f, base) }
            if status == .running { (r, status) = runChecked(r, &f, base) }
            f.registers = r
            return status
        }
    }

    /// The block loop: runs `f` from the start of a basic block until it halts, asks for a child frame, or
    /// enters a block whose check fails (then returns `.running`, with `pc` at that block's first instruction
    /// and nothing of it charged).
    @inlinable @inline(never)
    mutating func runBlocks(
        _ registers: Registers, _ f: inout Frame, _ table: UnsafePointer<InstructionCost>
    ) -> (Registers, Status) {
        var r = registers
        let status = runLoop(&r, &f, table, checked: false)
        return (r, status)
    }

    /// The checked loop: runs `f` instruction by instruction until it halts or asks for a child frame.
    @inlinable @inline(never)
    mutating func runChecked(
        _ registers: Registers, _ f: inout Frame, _ table: UnsafePointer<InstructionCost>
    ) -> (Registers, Status) {
        var r = registers
        let status = runLoop(&r, &f, table, checked: true)
        return (r, status)
    }

    /// Both loops; `checked` is a constant in each caller, so each gets its own copy with the other's code
    /// folded away.
    @inlinable @inline(__always)
    mutating func runLoop(
        _ r: inout Registers, _ f: inout Frame, _ table: UnsafePointer<InstructionCost>, checked: Bool
    ) -> Status {
        let operations = UnsafePointer(f.code.operations)
        let code = f.codeBytes
        let stackBase = f.stack
        let blocks = UnsafePointer(f.code.blocks)
        var gasBefore: Int64 = 0
        if !checked && !enterNextBlock(&r, &f, blocks, stackBase, operations) { return .running }
        while true {
            let operation = operations[r.pc]
            if checked {
                let cost = table[Int(operation.rawValue)]
                let size = (Int(bitPattern: r.sp) &- Int(bitPattern: stackBase)) &>> 5
                if T.isEnabled {
                    gasBefore = r.gas
                    tracer.willExecute(
                        pc: r.pc, opcode: code[r.pc], gas: r.gas, depth: f.message.depth, refund: refund,
                        stack: UnsafeBufferPointer(start: stackBase, count: size), memory: f.memory.activeBytes,
                        returnData: f.returnData, address: f.address)
                }
                if !cost.admits(stackSize: size) {
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
            }
            r.pc &+= 1
            switch operation {
            case .stop: if let s = halting(opStop(&r, &f), gasBefore &- r.gas) { return s }
            case .add: if let s = halting(opAdd(&r, &f), gasBefore &- r.gas) { return s }
            case .mul: if let s = halting(opMul(&r, &f), gasBefore &- r.gas) { return s }
            case .sub: if let s = halting(opSub(&r, &f), gasBefore &- r.gas) { return s }
            case .signextend: if let s = halting(opSignextend(&r, &f), gasBefore &- r.gas) { return s }
            case .lt: if let s = halting(opLt(&r, &f), gasBefore &- r.gas) { return s }
            case .gt: if let s = halting(opGt(&r, &f), gasBefore &- r.gas) { return s }
            case .slt: if let s = halting(opSlt(&r, &f), gasBefore &- r.gas) { return s }
            case .sgt: if let s = halting(opSgt(&r, &f), gasBefore &- r.gas) { return s }
            case .eq: if let s = halting(opEq(&r, &f), gasBefore &- r.gas) { return s }
            case .iszero: if let s = halting(opIszero(&r, &f), gasBefore &- r.gas) { return s }
            case .and: if let s = halting(opAnd(&r, &f), gasBefore &- r.gas) { return s }
            case .or: if let s = halting(opOr(&r, &f), gasBefore &- r.gas) { return s }
            case .xor: if let s = halting(opXor(&r, &f), gasBefore &- r.gas) { return s }
            case .not: if let s = halting(opNot(&r, &f), gasBefore &- r.gas) { return s }
            case .byte: if let s = halting(opByte(&r, &f), gasBefore &- r.gas) { return s }
            case .shl: if let s = halting(opShl(&r, &f), gasBefore &- r.gas) { return s }
            case .shr: if let s = halting(opShr(&r, &f), gasBefore &- r.gas) { return s }
            case .sar: if let s = halting(opSar(&r, &f), gasBefore &- r.gas) { return s }
            case .clz: if let s = halting(opClz(&r, &f), gasBefore &- r.gas) { return s }
            case .address: if let s = halting(opAddress(&r, &f), gasBefore &- r.gas) { return s }
            case .origin: if let s = halting(opOrigin(&r, &f), gasBefore &- r.gas) { return s }
            case .caller: if let s = halting(opCaller(&r, &f), gasBefore &- r.gas) { return s }
            case .callvalue: if let s = halting(opCallvalue(&r, &f), gasBefore &- r.gas) { return s }
            case .calldatasize: if let s = halting(opCalldatasize(&r, &f), gasBefore &- r.gas) { return s }
            case .codesize: if let s = halting(opCodesize(&r, &f), gasBefore &- r.gas) { return s }
            case .gasprice: if let s = halting(opGasprice(&r, &f), gasBefore &- r.gas) { return s }
            case .returndatasize: if let s = halting(opReturndatasize(&r, &f), gasBefore &- r.gas) { return s }
            case .coinbase: if let s = halting(opCoinbase(&r, &f), gasBefore &- r.gas) { return s }
            case .timestamp: if let s = halting(opTimestamp(&r, &f), gasBefore &- r.gas) { return s }
            case .number: if let s = halting(opNumber(&r, &f), gasBefore &- r.gas) { return s }
            case .prevrandao: if let s = halting(opPrevrandao(&r, &f), gasBefore &- r.gas) { return s }
            case .gaslimit: if let s = halting(opGaslimit(&r, &f), gasBefore &- r.gas) { return s }
            case .chainid: if let s = halting(opChainid(&r, &f), gasBefore &- r.gas) { return s }
            case .basefee: if let s = halting(opBasefee(&r, &f), gasBefore &- r.gas) { return s }
            case .pop: if let s = halting(opPop(&r), gasBefore &- r.gas) { return s }
            case .jump:
                if checked {
                    if let s = halting(opJump(&r, &f), gasBefore &- r.gas) { return s }
                } else if let s = jumpToBlock(r.pop(), &r, &f, blocks, stackBase) {
                    return s
                }
            case .jumpi:
                if checked {
                    if let s = halting(opJumpi(&r, &f), gasBefore &- r.gas) { return s }
                } else {
                    let destination = r.pop()
                    if r.pop().isZero {
                        if !enterNextBlock(&r, &f, blocks, stackBase, operations) { return .running }
                    } else if let s = jumpToBlock(destination, &r, &f, blocks, stackBase) {
                        return s
                    }
                }
            case .pc: if let s = halting(opPc(&r, &f), gasBefore &- r.gas) { return s }
            case .msize: if let s = halting(opMsize(&r, &f), gasBefore &- r.gas) { return s }
            case .gas:
                if let s = halting(opGas(&r, &f), gasBefore &- r.gas) { return s }
                if !checked && !enterNextBlock(&r, &f, blocks, stackBase, operations) { return .running }
            case .jumpdest:
                // In the block loop it is reached only by falling through (a jump goes past it), and the block
                // that fell into it has paid for it and for its block (BasicBlocks.swift).
                if checked, let s = halting(opJumpdest(&r, &f), gasBefore &- r.gas) { return s }
            case .push0: if let s = halting(opPush0(&r), gasBefore &- r.gas) { return s }
            case .push1: if let s = halting(opPush1(&r, code), gasBefore &- r.gas) { return s }
            case .push2: if let s = halting(opPush(&r, code, 2), gasBefore &- r.gas) { return s }
            case .push3: if let s = halting(opPush(&r, code, 3), gasBefore &- r.gas) { return s }
            case .push4: if let s = halting(opPush(&r, code, 4), gasBefore &- r.gas) { return s }
            case .push5: if let s = halting(opPush(&r, code, 5), gasBefore &- r.gas) { return s }
            case .push6: if let s = halting(opPush(&r, code, 6), gasBefore &- r.gas) { return s }
            case .push7: if let s = halting(opPush(&r, code, 7), gasBefore &- r.gas) { return s }
            case .push8: if let s = halting(opPush(&r, code, 8), gasBefore &- r.gas) { return s }
            case .push9: if let s = halting(opPush(&r, code, 9), gasBefore &- r.gas) { return s }
            case .push10: if let s = halting(opPush(&r, code, 10), gasBefore &- r.gas) { return s }
            case .push11: if let s = halting(opPush(&r, code, 11), gasBefore &- r.gas) { return s }
            case .push12: if let s = halting(opPush(&r, code, 12), gasBefore &- r.gas) { return s }
            case .push13: if let s = halting(opPush(&r, code, 13), gasBefore &- r.gas) { return s }
            case .push14: if let s = halting(opPush(&r, code, 14), gasBefore &- r.gas) { return s }
            case .push15: if let s = halting(opPush(&r, code, 15), gasBefore &- r.gas) { return s }
            case .push16: if let s = halting(opPush(&r, code, 16), gasBefore &- r.gas) { return s }
            case .push17: if let s = halting(opPush(&r, code, 17), gasBefore &- r.gas) { return s }
            case .push18: if let s = halting(opPush(&r, code, 18), gasBefore &- r.gas) { return s }
            case .push19: if let s = halting(opPush(&r, code, 19), gasBefore &- r.gas) { return s }
            case .push20: if let s = halting(opPush(&r, code, 20), gasBefore &- r.gas) { return s }
            case .push21: if let s = halting(opPush(&r, code, 21), gasBefore &- r.gas) { return s }
            case .push22: if let s = halting(opPush(&r, code, 22), gasBefore &- r.gas) { return s }
            case .push23: if let s = halting(opPush(&r, code, 23), gasBefore &- r.gas) { return s }
            case .push24: if let s = halting(opPush(&r, code, 24), gasBefore &- r.gas) { return s }
            case .push25: if let s = halting(opPush(&r, code, 25), gasBefore &- r.gas) { return s }
            case .push26: if let s = halting(opPush(&r, code, 26), gasBefore &- r.gas) { return s }
            case .push27: if let s = halting(opPush(&r, code, 27), gasBefore &- r.gas) { return s }
            case .push28: if let s = halting(opPush(&r, code, 28), gasBefore &- r.gas) { return s }
            case .push29: if let s = halting(opPush(&r, code, 29), gasBefore &- r.gas) { return s }
            case .push30: if let s = halting(opPush(&r, code, 30), gasBefore &- r.gas) { return s }
            case .push31: if let s = halting(opPush(&r, code, 31), gasBefore &- r.gas) { return s }
            case .push32: if let s = halting(opPush(&r, code, 32), gasBefore &- r.gas) { return s }
            case .dup1: if let s = halting(opDup(&r, 1), gasBefore &- r.gas) { return s }
            case .dup2: if let s = halting(opDup(&r, 2), gasBefore &- r.gas) { return s }
            case .dup3: if let s = halting(opDup(&r, 3), gasBefore &- r.gas) { return s }
            case .dup4: if let s = halting(opDup(&r, 4), gasBefore &- r.gas) { return s }
            case .dup5: if let s = halting(opDup(&r, 5), gasBefore &- r.gas) { return s }
            case .dup6: if let s = halting(opDup(&r, 6), gasBefore &- r.gas) { return s }
            case .dup7: if let s = halting(opDup(&r, 7), gasBefore &- r.gas) { return s }
            case .dup8: if let s = halting(opDup(&r, 8), gasBefore &- r.gas) { return s }
            case .dup9: if let s = halting(opDup(&r, 9), gasBefore &- r.gas) { return s }
            case .dup10: if let s = halting(opDup(&r, 10), gasBefore &- r.gas) { return s }
            case .dup11: if let s = halting(opDup(&r, 11), gasBefore &- r.gas) { return s }
            case .dup12: if let s = halting(opDup(&r, 12), gasBefore &- r.gas) { return s }
            case .dup13: if let s = halting(opDup(&r, 13), gasBefore &- r.gas) { return s }
            case .dup14: if let s = halting(opDup(&r, 14), gasBefore &- r.gas) { return s }
            case .dup15: if let s = halting(opDup(&r, 15), gasBefore &- r.gas) { return s }
            case .dup16: if let s = halting(opDup(&r, 16), gasBefore &- r.gas) { return s }
            case .swap1: if let s = halting(opSwap(&r, 1), gasBefore &- r.gas) { return s }
            case .swap2: if let s = halting(opSwap(&r, 2), gasBefore &- r.gas) { return s }
            case .swap3: if let s = halting(opSwap(&r, 3), gasBefore &- r.gas) { return s }
            case .swap4: if let s = halting(opSwap(&r, 4), gasBefore &- r.gas) { return s }
            case .swap5: if let s = halting(opSwap(&r, 5), gasBefore &- r.gas) { return s }
            case .swap6: if let s = halting(opSwap(&r, 6), gasBefore &- r.gas) { return s }
            case .swap7: if let s = halting(opSwap(&r, 7), gasBefore &- r.gas) { return s }
            case .swap8: if let s = halting(opSwap(&r, 8), gasBefore &- r.gas) { return s }
            case .swap9: if let s = halting(opSwap(&r, 9), gasBefore &- r.gas) { return s }
            case .swap10: if let s = halting(opSwap(&r, 10), gasBefore &- r.gas) { return s }
            case .swap11: if let s = halting(opSwap(&r, 11), gasBefore &- r.gas) { return s }
            case .swap12: if let s = halting(opSwap(&r, 12), gasBefore &- r.gas) { return s }
            case .swap13: if let s = halting(opSwap(&r, 13), gasBefore &- r.gas) { return s }
            case .swap14: if let s = halting(opSwap(&r, 14), gasBefore &- r.gas) { return s }
            case .swap15: if let s = halting(opSwap(&r, 15), gasBefore &- r.gas) { return s }
            case .swap16: if let s = halting(opSwap(&r, 16), gasBefore &- r.gas) { return s }
            case .mload:
                if !opMloadActive(&r, &f), let s = outOfLine(operation, &r, &f, gasBefore) { return s }
            case .mstore:
                if !opMstoreActive(&r, &f), let s = outOfLine(operation, &r, &f, gasBefore) { return s }
            case .mstore8:
                if !opMstore8Active(&r, &f), let s = outOfLine(operation, &r, &f, gasBefore) { return s }
            case .div, .sdiv, .mod, .smod, .addmod, .mulmod, .exp, .keccak256, .balance, .calldataload,
                .calldatacopy, .codecopy, .extcodesize, .extcodecopy, .extcodehash, .blockhash, .selfbalance, .blobhash,
                .blobbasefee, .sload, .tload, .mcopy, .create, .call, .callCode, .`return`, .delegateCall, .create2,
                .staticCall, .revert, .selfdestruct, .invalid:
                if let s = outOfLine(operation, &r, &f, gasBefore) { return s }
            case .sstore, .tstore, .returndatacopy, .log0, .log1, .log2, .log3, .log4:
                // They end their block (BasicBlocks.swift); the next one starts after them.
                if let s = outOfLine(operation, &r, &f, gasBefore) { return s }
                if !checked && !enterNextBlock(&r, &f, blocks, stackBase, operations) { return .running }
            }
            if T.isEnabled { tracer.didExecute(gasCost: gasBefore &- r.gas, error: nil) }
        }
    }

    /// Enters the basic block starting at `start` in the block loop: charges its static gas when its
    /// stack and gas checks pass and returns true; else charges nothing and returns false (the checked loop
    /// must run the block).
    @inlinable @inline(__always)
    func enterBlock(
        _ start: Int, _ r: inout Registers, _ f: inout Frame, _ blocks: UnsafePointer<BlockCost>,
        _ stackBase: UnsafeMutablePointer<UInt256>
    ) -> Bool {
        var block = blocks[start]
        if _slowPath(!block.isKnown) { block = f.code.computeBlock(at: start, table: costs) }
        let height = (Int(bitPattern: r.sp) &- Int(bitPattern: stackBase)) &>> 5
        guard block.admits(height: height, gas: r.gas) else { return false }
        r.gas &-= Int64(block.gas)
        return true
    }

    /// Enters the basic block starting at `r.pc` in the block loop (a frame's start or resumption, or after an
    /// instruction that ends a block), going past a JUMPDEST that starts it (the block's gas includes the
    /// JUMPDEST's); false when the checked loop must run the block.
    @inlinable @inline(__always)
    func enterNextBlock(
        _ r: inout Registers, _ f: inout Frame, _ blocks: UnsafePointer<BlockCost>,
        _ stackBase: UnsafeMutablePointer<UInt256>, _ operations: UnsafePointer<Operation>
    ) -> Bool {
        guard enterBlock(r.pc, &r, &f, blocks, stackBase) else { return false }
        if operations[r.pc] == .jumpdest { r.pc &+= 1 }
        return true
    }

    /// JUMP, or JUMPI taken, in the block loop: checks `destination` and enters the block at that JUMPDEST,
    /// going past it (the block's gas includes the JUMPDEST's). nil to run on; else the status to return:
    /// a failure, or `.running` with `pc` at the JUMPDEST when the checked loop must run the block.
    @inlinable @inline(__always)
    mutating func jumpToBlock(
        _ destination: UInt256, _ r: inout Registers, _ f: inout Frame, _ blocks: UnsafePointer<BlockCost>,
        _ stackBase: UnsafeMutablePointer<UInt256>
    ) -> Status? {
        guard destination.fitsInUInt64, destination.low64 < UInt64(Int.max),
            f.code.isJumpDestination(Int(destination.low64))
        else { return .invalidJump }
        let target = Int(destination.low64)
        // r.pc is already past the jump: a target before it is a jump back (a loop).
        if target < r.pc && countJumpBack() == .aborted { return .aborted }
        guard enterBlock(target, &r, &f, blocks, stackBase) else {
            r.pc = target
            return .running
        }
        r.pc = target &+ 1
        return nil
    }

    /// nil when `status` lets the frame run on; else `status`, after telling the tracer.
    @inlinable @inline(__always)
    mutating func halting(_ status: Status, _ gasCost: Int64) -> Status? {
        if status == .running { return nil }
        if T.isEnabled { tracer.didExecute(gasCost: gasCost, error: status.isExceptional ? status : nil) }
        return status
    }

    /// Runs `operation` out of line (passing the registers by value) and returns the status if the
    /// frame halts.
    @inlinable @inline(__always)
    mutating func outOfLine(_ operation: Operation, _ r: inout Registers, _ f: inout Frame, _ gasBefore: Int64) -> Status? {
        let status: Status
        (r, status) = runOutOfLine(operation, r, &f)
        return halting(status, gasBefore &- r.gas)
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
