import EthereumPrimitives

// Arithmetic: ADD … SIGNEXTEND (0x01–0x0b). Every instruction has the same shape: it reads and
// writes the frame (the loop has already checked the stack and charged the static gas) and returns
// a Status. Binary operations write their result over the second operand in place.
extension Interpreter {
    /// ADD: a + b mod 2^256.
    @inlinable @inline(__always)
    func opAdd(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a &+ r.top.pointee)
        return .running
    }

    /// MUL: a × b mod 2^256.
    @inlinable @inline(__always)
    func opMul(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a &* r.top.pointee)
        return .running
    }

    /// SUB: a − b mod 2^256.
    @inlinable @inline(__always)
    func opSub(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a &- r.top.pointee)
        return .running
    }

    /// DIV: a / b, 0 when b = 0.
    @inlinable @inline(__always)
    func opDiv(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a.evmDiv(r.top.pointee))
        return .running
    }

    /// SDIV: signed division, 0 when b = 0.
    @inlinable @inline(__always)
    func opSdiv(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a.sdiv(r.top.pointee))
        return .running
    }

    /// MOD: a mod b, 0 when b = 0.
    @inlinable @inline(__always)
    func opMod(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a.evmMod(r.top.pointee))
        return .running
    }

    /// SMOD: signed remainder (sign of a), 0 when b = 0.
    @inlinable @inline(__always)
    func opSmod(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        r.setTop(a.smod(r.top.pointee))
        return .running
    }

    /// ADDMOD: (a + b) mod n with an exact intermediate, 0 when n = 0.
    @inlinable @inline(__always)
    func opAddmod(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        let b = r.pop()
        r.setTop(UInt256.addmod(a, b, r.top.pointee))
        return .running
    }

    /// MULMOD: (a × b) mod n with an exact intermediate, 0 when n = 0.
    @inlinable @inline(__always)
    func opMulmod(_ r: inout Registers, _ f: inout Frame) -> Status {
        let a = r.pop()
        let b = r.pop()
        r.setTop(UInt256.mulmod(a, b, r.top.pointee))
        return .running
    }

    /// EXP: a^b mod 2^256; dynamic gas per byte of the exponent (10, then 50 from EIP-160).
    @inlinable @inline(__always)
    func opExp(_ r: inout Registers, _ f: inout Frame) -> Status {
        let base = r.pop()
        let exponent = r.top.pointee
        let bytes = Int64((exponent.significantBitCount &+ 7) >> 3)
        guard r.charge(bytes &* rules.expByteCost) else { return .outOfGas }
        r.setTop(base.exp(exponent))
        return .running
    }

    /// SIGNEXTEND: extends the sign of byte `b` (0 = least significant) of `x`.
    @inlinable @inline(__always)
    func opSignextend(_ r: inout Registers, _ f: inout Frame) -> Status {
        let byteIndex = r.pop()
        r.setTop(signExtended(r.top.pointee, byteIndex: byteIndex))
        return .running
    }
}

/// SIGNEXTEND's arithmetic, kept out of the interpreter loop: inlined there, its limb selection needs so many
/// registers that the loop spilled the program counter on every dispatch (8 instructions per dispatch instead
/// of 6, measured with callgrind on evm-benchmarks), which cost every contract more than the call costs the
/// few that sign-extend.
@usableFromInline @inline(never)
func signExtended(_ value: UInt256, byteIndex: UInt256) -> UInt256 {
    value.signExtend(byteIndex: byteIndex)
}
