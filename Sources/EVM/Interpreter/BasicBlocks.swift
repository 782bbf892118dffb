import EthereumPrimitives

// Basic blocks: the interpreter's fast loop checks gas and stack once per block instead of once per
// instruction (as evmone's "advanced" interpreter does), so most instructions dispatch with no check at all.
//
// A block is a run of instructions entered at its first one and left only after its last one. It starts at
// the code's first byte, at every JUMPDEST, and after every instruction that ends one:
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
//
// A block that falls through into a JUMPDEST (no block-ending instruction before it) is charged together with
// the block there, and so on down the chain of such blocks: the straight line of code from the entry to the
// first block-ending instruction. A jump to that JUMPDEST enters its own block (the rest of the chain), but
// execution that falls into it has already paid for it, so the loop passes over it like any other
// instruction. What is charged at entry is still exactly what runs when no instruction halts, and when the
// check fails the line of code is straight, so the checked loop halts in it as per-instruction checking does.

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
    /// Records and returns the cost of the block at `start`: its own instructions and, when it falls through
    /// into a JUMPDEST, the cost of the block there (computed first if needed), so a JUMPDEST reached by
    /// falling through is charged in advance and costs the loop nothing (see the file comment). The chain of
    /// blocks linked by falling through is walked once, back to front, and every block of it is recorded,
    /// so analysis stays linear in the code's length whatever the entry points.
    @usableFromInline @inline(never)
    func computeBlock(at start: Int, table: InstructionTable) -> BlockCost {
        table.entries.withUnsafeBufferPointer { entries in
            table.stackDeltas.withUnsafeBufferPointer { deltas in
                if blocks[start].isKnown { return blocks[start] }
                let first = Self.walkSegment(from: start, operations: operations, count: count, entries: entries, deltas: deltas)
                // Most blocks are one segment, ending the block or falling into a block already known: no list.
                if first.fallsInto.map({ blocks[$0].isKnown }) ?? true {
                    let combined = first.followed(by: first.fallsInto.map { blocks[$0] })
                    blocks[start] = combined
                    return combined
                }
                // The chain's segments up to the first block already known, or to the block-ending instruction.
                var segments: [(start: Int, segment: BlockSegment)] = [(start, first)]
                var next: Int? = first.fallsInto
                while let at = next, !blocks[at].isKnown {
                    let segment = Self.walkSegment(from: at, operations: operations, count: count, entries: entries, deltas: deltas)
                    segments.append((at, segment))
                    next = segment.fallsInto
                }
                var cost = next.map { blocks[$0] }
                for (at, segment) in segments.reversed() {
                    let combined = segment.followed(by: cost)
                    blocks[at] = combined
                    cost = combined
                }
                return blocks[start]
            }
        }
    }

    /// Walks the instructions of the block at `start` up to the next JUMPDEST (not included), or to the
    /// instruction that ends the block (included).
    @usableFromInline
    static func walkSegment(
        from start: Int, operations: UnsafePointer<Operation>, count: Int, entries: UnsafeBufferPointer<InstructionCost>,
        deltas: UnsafeBufferPointer<Int8>
    ) -> BlockSegment {
        var segment = BlockSegment()
        var pc = start
        while true {
            let operation = operations[pc]
            let entry = entries[Int(operation.rawValue)]
            guard entry.isDefined else {
                segment.undefined = true
                return segment
            }
            segment.gas &+= UInt64(entry.staticGas)
            segment.needed = Swift.max(segment.needed, Int(entry.minStack) &- segment.change)
            let delta = Int(deltas[Int(operation.rawValue)])
            segment.peak = Swift.max(segment.peak, segment.change &+ Swift.max(0, delta))
            segment.change &+= delta
            if operation.endsBasicBlock { return segment }
            // PUSH1–PUSH32 skip their immediates; beyond the code every entry is STOP, which ends the block.
            if operation.rawValue >= Operation.push1.rawValue && operation.rawValue <= Operation.push32.rawValue {
                pc &+= Int(operation.rawValue &- Operation.push1.rawValue) &+ 1
            }
            pc &+= 1
            if pc >= count { pc = count }
            if operations[pc] == .jumpdest {
                segment.fallsInto = pc
                return segment
            }
        }
    }
}

/// The instructions of a block up to the JUMPDEST it falls into (or its end): what they charge and how they
/// move the stack, before the cost of what follows is added.
@usableFromInline
struct BlockSegment {
    /// Static gas of the instructions.
    var gas: UInt64 = 0
    /// Stack items the segment adds by its end (negative: removes).
    var change = 0
    /// The start height its inputs need.
    var needed = 0
    /// The most the stack rises above the start height.
    var peak = 0
    /// It holds an instruction the fork does not define.
    var undefined = false
    /// The JUMPDEST it falls into, if it does not end with a block-ending instruction.
    var fallsInto: Int?

    /// The cost of this segment followed by the block `next` (nil: nothing follows).
    func followed(by next: BlockCost?) -> BlockCost {
        if undefined { return .alwaysChecked }
        var gas = gas
        var needed = needed
        var highest = InstructionTable.stackLimit &- peak
        if let next {
            // A block whose check always fails makes every chain into it fail the same way.
            if next.minHeight == BlockCost.alwaysChecked.minHeight { return .alwaysChecked }
            gas &+= UInt64(next.gas)
            needed = Swift.max(needed, Int(next.minHeight) &- change)
            highest = Swift.min(highest, Int(next.minHeight) &+ Int(next.limit) &- 1 &- change)
        }
        guard needed <= highest, gas <= UInt64(UInt32.max) else { return .alwaysChecked }
        return BlockCost(gas: UInt32(gas), minHeight: UInt16(needed), limit: UInt16(highest &- needed &+ 1))
    }
}
