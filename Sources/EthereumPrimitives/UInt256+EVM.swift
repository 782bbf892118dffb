// EVM arithmetic semantics on UInt256 (Yellow Paper, appendix H; EIP-145 for the shifts).
//
// Signed operations read the 256 bits as two's complement. Every function here is total: division
// and modulo by zero give 0, shift counts of 256 or more are allowed, and nothing traps.

extension UInt256 {
    // MARK: Two's complement

    /// True when the top bit is set, that is, the value is negative as a two's-complement number.
    public var isNegative: Bool {
        @inlinable @inline(__always) get { limbs.3 & 0x8000_0000_0000_0000 != 0 }
    }

    /// The two's-complement negation `0 − self` modulo 2^256.
    public var negated: UInt256 {
        @inlinable @inline(__always) get { UInt256.zero &- self }
    }

    /// The magnitude of the value read as two's complement: `self` if non-negative, else `negated`.
    /// (−2^255 maps to 2^255, which is its correct magnitude as an unsigned number.)
    public var absoluteValue: UInt256 {
        @inlinable @inline(__always) get { isNegative ? negated : self }
    }

    // MARK: Division (DIV, SDIV, MOD, SMOD)

    /// EVM DIV: `self / divisor`, or 0 when `divisor` is 0.
    @inlinable
    public func evmDiv(_ divisor: UInt256) -> UInt256 {
        divisor.isZero ? .zero : UInt256.divide(self, by: divisor).quotient
    }

    /// EVM MOD: `self % divisor`, or 0 when `divisor` is 0.
    @inlinable
    public func evmMod(_ divisor: UInt256) -> UInt256 {
        divisor.isZero ? .zero : UInt256.divide(self, by: divisor).remainder
    }

    /// EVM SDIV: signed division rounding toward zero; 0 when `divisor` is 0; −2^255 / −1 = −2^255.
    @inlinable
    public func sdiv(_ divisor: UInt256) -> UInt256 {
        if divisor.isZero { return .zero }
        let q = UInt256.divide(absoluteValue, by: divisor.absoluteValue).quotient
        return isNegative != divisor.isNegative ? q.negated : q
    }

    /// EVM SMOD: signed remainder whose sign follows the dividend; 0 when `divisor` is 0.
    @inlinable
    public func smod(_ divisor: UInt256) -> UInt256 {
        if divisor.isZero { return .zero }
        let r = UInt256.divide(absoluteValue, by: divisor.absoluteValue).remainder
        return isNegative ? r.negated : r
    }

    // MARK: Modular arithmetic (ADDMOD, MULMOD, EXP)

    /// EVM ADDMOD: `(a + b) mod n` computed exactly (the sum may exceed 2^256); 0 when `n` is 0.
    @inlinable
    public static func addmod(_ a: UInt256, _ b: UInt256, _ n: UInt256) -> UInt256 {
        if n.isZero { return .zero }
        let (sum, carry) = a.addingReportingOverflow(b)
        if !carry {
            return sum < n ? sum : UInt256.divide(sum, by: n).remainder
        }
        return UInt512(high: .one, low: sum).remainder(dividingBy: n)
    }

    /// EVM MULMOD: `(a × b) mod n` with the exact 512-bit product; 0 when `n` is 0.
    @inlinable
    public static func mulmod(_ a: UInt256, _ b: UInt256, _ n: UInt256) -> UInt256 {
        if n.isZero { return .zero }
        return UInt512.product(a, b).remainder(dividingBy: n)
    }

    /// EVM EXP: `self` raised to `exponent`, modulo 2^256 (square-and-multiply).
    @inlinable
    public func exp(_ exponent: UInt256) -> UInt256 {
        if exponent.isZero { return .one }
        // Powers of two (2**n is common in contract code) reduce to a shift.
        if nonzeroBitCount == 1 {
            let k = UInt256(UInt64(truncatingIfNeeded: trailingZeroBitCount))
            let (bits, overflow) = k.multipliedReportingOverflow(by: exponent)
            return overflow ? .zero : UInt256.one << bits
        }
        return UInt256.power(self, exponent)
    }

    @usableFromInline
    internal static func power(_ base: UInt256, _ exponent: UInt256) -> UInt256 {
        var result = UInt256.one
        var square = base
        let bits = exponent.significantBitCount
        for i in 0..<bits {
            if exponent.bit(i) { result = result &* square }
            if i + 1 < bits { square = square &* square }
        }
        return result
    }

    // MARK: Bytes and sign extension (BYTE, SIGNEXTEND)

    /// EVM SIGNEXTEND: extends the sign bit of byte `byteIndex` (0 = least significant byte) through the
    /// higher bits; `byteIndex ≥ 31` leaves the value unchanged.
    ///
    /// Limb by limb, with no 256-bit shift: the limbs below the sign byte's keep their value, the limbs above
    /// it become copies of the sign, and the sign byte's limb keeps its bits up to the sign bit. Always
    /// inlined: the interpreter loop runs it without a call.
    @inlinable @inline(__always)
    public func signExtend(byteIndex: UInt256) -> UInt256 {
        guard byteIndex < UInt256(31) else { return self }
        let index = Int(truncatingIfNeeded: byteIndex.limbs.0)
        let k = index &>> 3  // the limb holding the sign byte
        let signBit = UInt64(truncatingIfNeeded: (index & 7) &* 8 &+ 7)  // 7…63 within it
        let limb = self[limb: k]
        let sign = 0 &- ((limb &>> signBit) & 1)  // all ones when negative
        let keep = UInt64.max &>> (63 &- signBit)  // the bits up to and including the sign bit
        let extended = (limb & keep) | (sign & ~keep)
        func pick(_ i: Int, _ value: UInt64) -> UInt64 { i < k ? value : (i == k ? extended : sign) }
        return UInt256(limbs: (pick(0, limbs.0), pick(1, limbs.1), pick(2, limbs.2), pick(3, limbs.3)))
    }

    /// EVM BYTE: byte `index` counted from the most significant end (0 = the top byte), as a value in
    /// `0...255`; 0 when `index ≥ 32`.
    @inlinable
    public func byte(_ index: UInt256) -> UInt256 {
        guard index < UInt256(32) else { return .zero }
        let fromLow = 31 &- Int(truncatingIfNeeded: index.limbs.0)
        let limb = self[limb: fromLow &>> 3]
        return UInt256((limb &>> UInt64(truncatingIfNeeded: (fromLow & 7) &* 8)) & 0xff)
    }

    // MARK: Shifts (SHL, SHR, SAR — EIP-145)

    /// EVM SHL: `self << shift`, 0 when `shift ≥ 256`. (The opcode's operands are SHL(shift, value).)
    @inlinable @inline(__always)
    public func shl(_ shift: UInt256) -> UInt256 { self << shift }

    /// EVM SHR: logical `self >> shift`, 0 when `shift ≥ 256`.
    @inlinable @inline(__always)
    public func shr(_ shift: UInt256) -> UInt256 { self >> shift }

    /// EVM SAR: arithmetic (sign-filling) right shift; for `shift ≥ 256` the result is 0 or −1 by sign.
    @inlinable
    public func sar(_ shift: UInt256) -> UInt256 {
        // For a negative x, x >> s (arithmetic) == ~(~x >> s) (logical).
        isNegative ? ~((~self) >> shift) : self >> shift
    }

    // MARK: Signed comparison (SLT, SGT)

    /// EVM SLT: `self < other` as two's-complement numbers.
    @inlinable @inline(__always)
    public func slt(_ other: UInt256) -> Bool {
        // Flipping the sign bit maps two's-complement order onto unsigned order.
        var a = self
        var b = other
        a.limbs.3 ^= 0x8000_0000_0000_0000
        b.limbs.3 ^= 0x8000_0000_0000_0000
        return a < b
    }

    /// EVM SGT: `self > other` as two's-complement numbers.
    @inlinable @inline(__always)
    public func sgt(_ other: UInt256) -> Bool { other.slt(self) }
}
