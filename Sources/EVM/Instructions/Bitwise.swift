import EthereumPrimitives

// Comparison and bitwise logic: LT … SAR (0x10–0x1d), and CLZ (0x1e, EIP-7939).
extension Interpreter {
    /// LT: 1 when a < b (unsigned).
    @inlinable @inline(__always)
    func opLt(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a < r.top.pointee ? .one : .zero)
        return .running
    }

    /// GT: 1 when a > b (unsigned).
    @inlinable @inline(__always)
    func opGt(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a > r.top.pointee ? .one : .zero)
        return .running
    }

    /// SLT: 1 when a < b (two's complement).
    @inlinable @inline(__always)
    func opSlt(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a.slt(r.top.pointee) ? .one : .zero)
        return .running
    }

    /// SGT: 1 when a > b (two's complement).
    @inlinable @inline(__always)
    func opSgt(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a.sgt(r.top.pointee) ? .one : .zero)
        return .running
    }

    /// EQ: 1 when a = b.
    @inlinable @inline(__always)
    func opEq(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a == r.top.pointee ? .one : .zero)
        return .running
    }

    /// ISZERO: 1 when a = 0.
    @inlinable @inline(__always)
    func opIszero(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.setTop(r.top.pointee.isZero ? .one : .zero)
        return .running
    }

    /// AND.
    @inlinable @inline(__always)
    func opAnd(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a & r.top.pointee)
        return .running
    }

    /// OR.
    @inlinable @inline(__always)
    func opOr(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a | r.top.pointee)
        return .running
    }

    /// XOR.
    @inlinable @inline(__always)
    func opXor(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a ^ r.top.pointee)
        return .running
    }

    /// NOT.
    @inlinable @inline(__always)
    func opNot(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.setTop(~r.top.pointee)
        return .running
    }

    /// BYTE: byte i of x, counting from the most significant; 0 when i ≥ 32.
    @inlinable @inline(__always)
    func opByte(_ r: inout Registers, _ f: inout Frame) -> Status {
        let index = r.pop()
        r.setTop(r.top.pointee.byte(index))
        return .running
    }

    /// SHL (EIP-145): value << shift, 0 when shift ≥ 256.
    @inlinable @inline(__always)
    func opShl(_ r: inout Registers, _ f: inout Frame) -> Status {
        let shift = r.pop()
        r.setTop(r.top.pointee.shl(shift))
        return .running
    }

    /// SHR (EIP-145): logical value >> shift.
    @inlinable @inline(__always)
    func opShr(_ r: inout Registers, _ f: inout Frame) -> Status {
        let shift = r.pop()
        r.setTop(r.top.pointee.shr(shift))
        return .running
    }

    /// SAR (EIP-145): arithmetic value >> shift.
    @inlinable @inline(__always)
    func opSar(_ r: inout Registers, _ f: inout Frame) -> Status {
        let shift = r.pop()
        r.setTop(r.top.pointee.sar(shift))
        return .running
    }

    /// CLZ (EIP-7939, Osaka): the number of leading zero bits, 256 for 0.
    @inlinable @inline(__always)
    func opClz(_ r: inout Registers, _ f: inout Frame) -> Status {
        r.setTop(UInt256(UInt64(r.top.pointee.leadingZeroBitCount)))
        return .running
    }
}
