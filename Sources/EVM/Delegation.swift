import EthereumPrimitives

/// EIP-7702 delegation designators: the code `0xef0100 ‖ address` that a set-code authorization writes to
/// an account. From Prague, a call to such an account runs the code of `address` (one level only: a
/// designator found at `address` is not followed again), while EXTCODESIZE, EXTCODECOPY and EXTCODEHASH
/// keep seeing the 23-byte designator itself.
public enum Delegation {
    /// The designator's prefix: 0xef (the EIP-3541 reserved byte), then 0x01 0x00.
    public static let prefix: [UInt8] = [0xef, 0x01, 0x00]
    /// The designator's length: the prefix and a 20-byte address.
    public static let designatorSize = 23

    /// The designator that delegates to `address`.
    @inlinable
    public static func designator(to address: Address) -> [UInt8] { prefix + address.bytes }

    /// The delegate named by `code`, or nil when `code` is not a designator.
    @inlinable
    public static func target(of code: [UInt8]) -> Address? {
        guard code.count == designatorSize, code[0] == 0xef, code[1] == 0x01, code[2] == 0x00 else { return nil }
        return Address(bytes: Array(code[3...]))
    }
}

extension Host {
    /// The account `address` delegates its code to (EIP-7702), or nil; reads the code only when its size is
    /// a designator's, so plain contracts cost one size look-up.
    @inlinable
    public mutating func delegate(of address: Address) -> Address? {
        guard codeSize(at: address) == Delegation.designatorSize else { return nil }
        return Delegation.target(of: code(at: address))
    }
}
