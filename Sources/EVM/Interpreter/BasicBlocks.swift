import EthereumPrimitives

// Basic blocks: the interpreter's fast loop checks gas and stack once per block instead of once per
// instruction (as evmone's "advanced" interpreter does), so most instructions dispatch with no check at all.
//
// A block is a run of instructions entered only at its first one and left only after its last one. It
// starts at the code's first byte, at every JUMPDEST, and after every instruction that ends one:
// - instructions after which execution does not simply continue: STOP, JUMP, JUMPI, RETURN, REVERT,
//   INVALID, SELFDESTRUCT, any byte the fork does not define;
// - instructions that read the gas left, which must then be exact: GAS, SSTORE (EIP-2200's stipend
//   sentry), the CALL family and CREATE/CREATE2 (all but one 64th, EIP-150);
// - instructions that can halt for a reason other than gas or stack (RETURNDATACOPY past the end, LOG and
//   TSTORE in a static context), so that a block that runs out of gas fails the way instruction-by-
//   instruction charging fails.
//
// Entering a block charges the static gas of all its instructions and checks the stack height against
// the block's bounds. When either check fails, the loop hands the block to the checked loop, which runs it
// instruction by instruction from its first one with nothing charged: the frame then halts inside the
// block with exactly the status, gas and trace of per-instruction checking (gas: every instruction that
// could stop earlier ends its block, so the shortfall shows by the block's last static charge at the
// latest; stack: the instruction whose bound fails halts). When both pass, no instruction of the block can
// fail on gas or stack before its own dynamic part, and the instructions that read the gas left are the last
// of their block, so they see what per-instruction charging leaves.

/// The static gas of a basic block and the stack heights it may start at, packed in 8 bytes. Computed
/// on first entry (``AnalyzedCode/computeBlock(at:table:)``); all zeros means not yet computed.
@usableFromInline
struct BlockCost {
    /// The static gas of every instruction in the block (a block whose gas does not fit is
    /// ``alwaysChecked``: with 2^63 gas available a clamped figure would pass and undercharge).
    @usableFromInline var gas: UInt32
    /// The fewest stack items the block may start with.
    @usableFromInline var minHeight: UInt16
    /// One more than the number of admissible start heights above ``minHeight`` (so never 0 once computed):
    /// the block may start with `minHeight ..< minHeight + limit` items.
    @usableFromInline var limit: UInt16

    /// Not computed yet.
    @usableFromInline static var unknown: BlockCost { BlockCost(gas: 0, minHeight: 0, limit: 0) }

    /// A block whose check always fails (it holds an instruction the fork does not define, or no start
    /// height satisfies it): the checked loop runs it and reports the failure.
    @usableFromInline static var alwaysChecked: BlockCost { BlockCost(gas: 0, minHeight: .max, limit: 1) }

    @inlinable @inline(__always)
    init(gas: UInt32, minHeight: UInt16, limit: UInt16) {
        self.gas = gas
        self.minHeight = minHeight
        self.limit = limit
    }

    /// True once computed.
    @inlinable @inline(__always)
    var isKnown: Bool { limit != 0 }

    /// True when the block may start with `height` stack items and `gas` covers its static gas.
    @inlinable @inline(__always)
    func admits(height: Int, gas available: Int64) -> Bool {
        UInt(bitPattern: height &- Int(minHeight)) < UInt(limit) && available >= Int64(gas)
    }
}

extension Operation {
    /// True when the instruction is the last of its basic block (see the file comment).
    @inlinable
    var endsBasicBlock: Bool {
        switch self {
        case .stop, .jump, .jumpi, .return, .revert, .invalid, .selfdestruct, .gas, .sstore, .call, .callCode,
            .delegateCall, .staticCall, .create, .create2, .returndatacopy, .log0, .log1, .log2, .log3, .log4, .tstore:
            return true
        default:
            return false
        }
    }
}

extension AnalyzedCode {
    /// Walks the block starting at `start` to its end, records its cost and returns it.
    @usableFromInline @inline(never)
    func computeBlock(at start: Int, table: InstructionTable) -> BlockCost {
        let cost = table.entries.withUnsafeBufferPointer { entries in
            table.stackDeltas.withUnsafeBufferPointer { deltas in
                Self.walkBlock(from: start, operations: operations, count: count, entries: entries, deltas: deltas)
            }
        }
        blocks[start] = cost
        return cost
    }

    /// The cost of the block at `start`: its static gas, the height its inputs need (the most any
    /// instruction needs below what the block pushed before it) and the height its outputs allow (1024 less
    /// the most the stack grows above the start by the end of any instruction).
    @usableFromInline
    static func walkBlock(
        from start: Int, operations: UnsafePointer<Operation>, count: Int, entries: UnsafeBufferPointer<InstructionCost>,
        deltas: UnsafeBufferPointer<Int8>
    ) -> BlockCost {
        var gas: UInt64 = 0
        var change = 0  // stack items the block has added so far (negative: removed)
        var needed = 0  // start height the inputs need
        var peak = 0  // the most the stack rises above the start height
        var pc = start
        while true {
            let operation = operations[pc]
            let entry = entries[Int(operation.rawValue)]
            guard entry.isDefined else { return .alwaysChecked }
            gas &+= UInt64(entry.staticGas)
            needed = Swift.max(needed, Int(entry.minStack) &- change)
            let delta = Int(deltas[Int(operation.rawValue)])
            peak = Swift.max(peak, change &+ Swift.max(0, delta))
            change &+= delta
            if operation.endsBasicBlock { break }
            // PUSH1–PUSH32 skip their immediates; beyond the code every entry is STOP, which ends the block.
            if operation.rawValue >= Operation.push1.rawValue && operation.rawValue <= Operation.push32.rawValue {
                pc &+= Int(operation.rawValue &- Operation.push1.rawValue) &+ 1
            }
            pc &+= 1
            if pc >= count { pc = count }
            if operations[pc] == .jumpdest { break }
        }
        let highest = InstructionTable.stackLimit &- peak
        guard needed <= highest, gas <= UInt64(UInt32.max) else { return .alwaysChecked }
        return BlockCost(
            gas: UInt32(gas), minHeight: UInt16(needed), limit: UInt16(highest &- needed &+ 1))
    }
}
