import EthereumPrimitives

/// The code of a Solidity `Panic(uint256)` revert, with its documented meaning.
public struct PanicCode: Hashable, Sendable, CustomStringConvertible {
    /// The code.
    public var code: UInt256

    /// Creates a panic code.
    public init(_ code: UInt256) { self.code = code }

    /// The meaning of the codes the Solidity documentation lists ("Panic via assert and Error via require").
    public static let meanings: [UInt64: String] = [
        0x00: "generic compiler-inserted panic",
        0x01: "assertion failed",
        0x11: "arithmetic overflow or underflow",
        0x12: "division or modulo by zero",
        0x21: "conversion to an enum out of range",
        0x22: "incorrectly encoded storage byte array",
        0x31: "pop() on an empty array",
        0x32: "array index out of bounds",
        0x41: "too much memory allocated or array too large",
        0x51: "call to a zero-initialized internal function",
    ]

    /// The meaning of a known code, or nil.
    public var meaning: String? { code.uint64.flatMap { PanicCode.meanings[$0] } }

    /// `0x11 (arithmetic overflow or underflow)`, or the bare hex code when unknown.
    public var description: String {
        // Two digits at least, as the Solidity documentation writes them (0x01, 0x11).
        var hex = code.hexString
        if hex.count == 3 { hex.insert("0", at: hex.index(hex.startIndex, offsetBy: 2)) }
        return meaning.map { "\(hex) (\($0))" } ?? "\(hex) (unknown panic code)"
    }
}
