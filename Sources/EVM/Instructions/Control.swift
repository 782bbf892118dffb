import EthereumPrimitives

// Control flow: STOP, JUMP, JUMPI, PC, GAS, JUMPDEST, RETURN, REVERT (EIP-140).
extension Interpreter {
    /// STOP.
    @inlinable @inline(__always)
    func opStop(_ r: inout Registers, _ f: inout Frame) -> Status { .stop }

    /// JUMP: to a JUMPDEST (checked against the analysed bitmap).
    @inlinable @inline(__always)
    mutating func opJump(_ r: inout Registers, _ f: inout Frame) -> Status {
        let destination = r.pop()
        guard destination.fitsInUInt64, destination.low64 < UInt64(Int.max),
            f.code.isJumpDestination(Int(destination.low64))
        else { return .invalidJump }
        let target = Int(destination.low64)
        // r.pc is already past this instruction: a target before it is a jump back (a loop).
        let status = target < r.pc ? countJumpBack() : .running
        r.pc = target
        return status
    }

    /// JUMPI: jumps when the condition is non-zero.
    @inlinable @inline(__always)
    mutating func opJumpi(_ r: inout Registers, _ f: inout Frame) -> Status {
        let destination = r.pop()
        let condition = r.pop()
        if condition.isZero { return .running }
        guard destination.fitsInUInt64, destination.low64 < UInt64(Int.max),
            f.code.isJumpDestination(Int(destination.low64))
        else { return .invalidJump }
        let target = Int(destination.low64)
        // r.pc is already past this instruction: a target before it is a jump back (a loop).
        let status = target < r.pc ? countJumpBack() : .running
        r.pc = target
        return status
    }

    /// Counts a jump back. Code can only run long by jumping back (or by calling, checked at call
    /// entry), so every ``jumpsPerDeadlineCheck`` of them the deadline, if any, is compared with the
    /// clock: one decrement and one well-predicted branch per backward jump, no clock read on the hot path.
    @inlinable @inline(__always)
    mutating func countJumpBack() -> Status {
        jumpsUntilDeadlineCheck &-= 1
        if _slowPath(jumpsUntilDeadlineCheck <= 0), deadlineHasPassed() { return .aborted }
        return .running
    }

    /// PC: the position of this instruction.
    @inlinable @inline(__always)
    func opPc(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(UInt64(r.pc &- 1)))
        return .running
    }

    /// GAS: gas left after this instruction's cost.
    @inlinable @inline(__always)
    func opGas(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.push(UInt256(UInt64(r.gas)))
        return .running
    }

    /// JUMPDEST: marks a jump target; does nothing.
    @inlinable @inline(__always)
    func opJumpdest(_ r: inout Registers, _ f: inout Frame) -> Status { .running }

    /// RETURN: halts with output from memory.
    @inlinable @inline(__always)
    func opReturn(_ r: inout Registers, _ f: inout Frame) -> Status {
        let offsetWord = r.pop()
        let sizeWord = r.pop()
        guard let (offset, size) = f.memoryRange(offsetWord, sizeWord, gas: &r.gas) else { return .outOfGas }
        f.output = f.memoryBytes(offset, size)
        return .returned
    }

    /// REVERT (EIP-140): halts, undoing the frame's changes but keeping its gas, with output.
    @inlinable @inline(__always)
    func opRevert(_ r: inout Registers, _ f: inout Frame) -> Status {
        let offsetWord = r.pop()
        let sizeWord = r.pop()
        guard let (offset, size) = f.memoryRange(offsetWord, sizeWord, gas: &r.gas) else { return .outOfGas }
        f.output = f.memoryBytes(offset, size)
        return .reverted
    }
}
