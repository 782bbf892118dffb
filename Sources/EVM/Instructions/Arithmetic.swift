import EthereumPrimitives

// Arithmetic: ADD … SIGNEXTEND (0x01–0x0b). Every instruction has the same shape: it reads and
// writes the frame (the loop has already checked the stack and charged the static gas) and returns
// a Status. Binary operations write their result over the second operand in place.
extension Interpreter {
    /// ADD: a + b mod 2^256.
    @inlinable @inline(__always)
    func opAdd(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a &+ f.top.pointee
        return .running
    }

    /// MUL: a × b mod 2^256.
    @inlinable @inline(__always)
    func opMul(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a &* f.top.pointee
        return .running
    }

    /// SUB: a − b mod 2^256.
    @inlinable @inline(__always)
    func opSub(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a &- f.top.pointee
        return .running
    }

    /// DIV: a / b, 0 when b = 0.
    @inlinable @inline(__always)
    func opDiv(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a.evmDiv(f.top.pointee)
        return .running
    }

    /// SDIV: signed division, 0 when b = 0.
    @inlinable @inline(__always)
    func opSdiv(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a.sdiv(f.top.pointee)
        return .running
    }

    /// MOD: a mod b, 0 when b = 0.
    @inlinable @inline(__always)
    func opMod(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a.evmMod(f.top.pointee)
        return .running
    }

    /// SMOD: signed remainder (sign of a), 0 when b = 0.
    @inlinable @inline(__always)
    func opSmod(_ f: inout Frame) -> Status {
        let a = f.pop()
        f.top.pointee = a.smod(f.top.pointee)
        return .running
    }

    /// ADDMOD: (a + b) mod n with an exact intermediate, 0 when n = 0.
    @inlinable @inline(__always)
    func opAddmod(_ f: inout Frame) -> Status {
        let a = f.pop()
        let b = f.pop()
        f.top.pointee = UInt256.addmod(a, b, f.top.pointee)
        return .running
    }

    /// MULMOD: (a × b) mod n with an exact intermediate, 0 when n = 0.
    @inlinable @inline(__always)
    func opMulmod(_ f: inout Frame) -> Status {
        let a = f.pop()
        let b = f.pop()
        f.top.pointee = UInt256.mulmod(a, b, f.top.pointee)
        return .running
    }

    /// EXP: a^b mod 2^256; dynamic gas per byte of the exponent (10, then 50 from EIP-160).
    @inlinable @inline(__always)
    func opExp(_ f: inout Frame) -> Status {
        let base = f.pop()
        let exponent = f.top.pointee
        let bytes = Int64((exponent.significantBitCount &+ 7) >> 3)
        guard f.charge(bytes &* rules.expByteCost) else { return .outOfGas }
        f.top.pointee = base.exp(exponent)
        return .running
    }

    /// SIGNEXTEND: extends the sign of byte `b` (0 = least significant) of `x`.
    @inlinable @inline(__always)
    func opSignextend(_ f: inout Frame) -> Status {
        let byteIndex = f.pop()
        f.top.pointee = f.top.pointee.signExtend(byteIndex: byteIndex)
        return .running
    }
}
