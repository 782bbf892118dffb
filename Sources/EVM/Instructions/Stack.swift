import EthereumPrimitives

// Stack manipulation: POP, PUSH0 (EIP-3855), PUSH1–PUSH32, DUP1–DUP16, SWAP1–SWAP16.
extension Interpreter {
    /// POP.
    @inlinable @inline(__always)
    func opPop(_ r: inout Registers) -> Status {
        r.sp -= 1
        return .running
    }

    /// PUSH0 (EIP-3855).
    @inlinable @inline(__always)
    func opPush0(_ r: inout Registers) -> Status {
        r.push(.zero)
        return .running
    }

    /// PUSH1: the common case, one byte.
    @inlinable @inline(__always)
    func opPush1(_ r: inout Registers, _ code: UnsafePointer<UInt8>) -> Status {
        r.push(UInt256(UInt64(code[r.pc])))
        r.pc &+= 1
        return .running
    }

    /// PUSHn (n = 2…32): reads the 32 bytes ending at the last immediate byte in one load (the
    /// code buffer has 32 bytes of leading padding for this) and keeps the low n bytes. Immediates
    /// past the end of the code read as zero (trailing padding).
    @inlinable @inline(__always)
    func opPush(_ r: inout Registers, _ code: UnsafePointer<UInt8>, _ n: Int) -> Status {
        let word = UInt256(bigEndianAt: UnsafeRawPointer(code + (r.pc &+ n &- 32)))
        r.push(n == 32 ? word : word & (UInt256.max &>> (256 &- 8 &* n)))
        r.pc &+= n
        return .running
    }

    /// DUPn (n = 1…16): pushes a copy of the n-th item.
    @inlinable @inline(__always)
    func opDup(_ r: inout Registers, _ n: Int) -> Status {
        r.push(r.peek(n &- 1))
        return .running
    }

    /// SWAPn (n = 1…16): exchanges the top with the (n+1)-th item.
    @inlinable @inline(__always)
    func opSwap(_ r: inout Registers, _ n: Int) -> Status {
        let top = r.top
        let other = top - n
        let value = top.pointee
        top.storeItem(other.pointee)
        other.storeItem(value)
        return .running
    }
}
