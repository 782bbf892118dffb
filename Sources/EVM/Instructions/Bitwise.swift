import EthereumPrimitives

// Comparison and bitwise logic: LT … SAR (0x10–0x1d), and CLZ (0x1e, EIP-7939).
extension Interpreter {
    /// LT: 1 when a < b (unsigned).
    @inlinable @inline(__always)
    func opLt(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a < f.top.pointee ? .one : .zero
        return .running
    }

    /// GT: 1 when a > b (unsigned).
    @inlinable @inline(__always)
    func opGt(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a > f.top.pointee ? .one : .zero
        return .running
    }

    /// SLT: 1 when a < b (two's complement).
    @inlinable @inline(__always)
    func opSlt(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a.slt(f.top.pointee) ? .one : .zero
        return .running
    }

    /// SGT: 1 when a > b (two's complement).
    @inlinable @inline(__always)
    func opSgt(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a.sgt(f.top.pointee) ? .one : .zero
        return .running
    }

    /// EQ: 1 when a = b.
    @inlinable @inline(__always)
    func opEq(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a == f.top.pointee ? .one : .zero
        return .running
    }

    /// ISZERO: 1 when a = 0.
    @inlinable @inline(__always)
    func opIszero(_ f: inout Frame) -> Status {
        f.top.pointee = f.top.pointee.isZero ? .one : .zero
        return .running
    }

    /// AND.
    @inlinable @inline(__always)
    func opAnd(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a & f.top.pointee
        return .running
    }

    /// OR.
    @inlinable @inline(__always)
    func opOr(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a | f.top.pointee
        return .running
    }

    /// XOR.
    @inlinable @inline(__always)
    func opXor(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a ^ f.top.pointee
        return .running
    }

    /// NOT.
    @inlinable @inline(__always)
    func opNot(_ f: inout Frame) -> Status {
        f.top.pointee = ~f.top.pointee
        return .running
    }

    /// BYTE: byte i of x, counting from the most significant; 0 when i ≥ 32.
    @inlinable @inline(__always)
    func opByte(_ f: inout Frame) -> Status {
        let index = f.pop()
        f.top.pointee = f.top.pointee.byte(index)
        return .running
    }

    /// SHL (EIP-145): value << shift, 0 when shift ≥ 256.
    @inlinable @inline(__always)
    func opShl(_ f: inout Frame) -> Status {
        let shift = f.pop()
        f.top.pointee = f.top.pointee.shl(shift)
        return .running
    }

    /// SHR (EIP-145): logical value >> shift.
    @inlinable @inline(__always)
    func opShr(_ f: inout Frame) -> Status {
        let shift = f.pop()
        f.top.pointee = f.top.pointee.shr(shift)
        return .running
    }

    /// SAR (EIP-145): arithmetic value >> shift.
    @inlinable @inline(__always)
    func opSar(_ f: inout Frame) -> Status {
        let shift = f.pop()
        f.top.pointee = f.top.pointee.sar(shift)
        return .running
    }

    /// CLZ (EIP-7939, Osaka): the number of leading zero bits, 256 for 0.
    @inlinable @inline(__always)
    func opClz(_ f: inout Frame) -> Status {
        f.top.pointee = UInt256(UInt64(f.top.pointee.leadingZeroBitCount))
        return .running
    }
}
