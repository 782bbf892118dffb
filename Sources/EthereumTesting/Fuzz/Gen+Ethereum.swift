import EthereumPrimitives
import PropertyBased

/// Generators of Ethereum values for PropertyBased's `propertyCheck`, shrinking like its own integers: `UInt256` is a
/// `FixedWidthInteger`, so `Gen<UInt256>.value(in:)` already generates and shrinks 256-bit numbers toward the range's
/// low end; these add what a contract test needs next to it.
extension Gen where Value == Address {
    /// One of `addresses` (not empty), shrinking toward the first (so a failing case names the first actor it can).
    public static func element(ofActors addresses: [Address]) -> Generator<Address, Shrink.Integer<Int>> {
        precondition(!addresses.isEmpty, "Gen.element(ofActors:) needs at least one address")
        return Gen<Int>.int(in: 0...(addresses.count - 1)).map { addresses[$0] }
    }
}

extension Gen where Value == UInt256 {
    /// A 256-bit number in `range`, shrinking toward its lower bound.
    public static func uint256(in range: ClosedRange<UInt256> = .zero...UInt256.max) -> Generator<UInt256, Shrink.Integer<UInt256>> {
        Gen<UInt256>.value(in: range)
    }

    /// A number below 2^`bits` (1…256): the full range of a `uintN`, shrinking toward 0.
    public static func uint(bits: Int) -> Generator<UInt256, Shrink.Integer<UInt256>> {
        precondition((1...256).contains(bits), "Gen.uint(bits:) takes 1 to 256 bits")
        return Gen<UInt256>.value(in: .zero...(bits == 256 ? .max : (UInt256(1) << bits) - 1))
    }
}
