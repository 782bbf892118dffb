import EthereumPrimitives

/// The JSON-RPC "quantity" encoding of unsigned integers: `0x` and lowercase hex digits without leading
/// zeros (`0x0` for zero), as the Ethereum JSON-RPC specification defines it.
public enum Quantity {
    /// `value` as a quantity string.
    public static func encode(_ value: UInt64) -> String {
        "0x" + String(value, radix: 16)
    }

    /// `value` as a quantity string.
    public static func encode(_ value: UInt256) -> String {
        value.hexString
    }

    /// Parses a quantity into a `UInt64`. Leading zeros and a bare `0x` (read as zero) are tolerated, since
    /// some nodes write them; anything that is not `0x` and hex digits, or exceeds 64 bits, is an error.
    public static func decodeUInt64(_ text: String) throws(WireError) -> UInt64 {
        let digits = try hexDigits(text)
        guard digits.utf8.count <= 16 || digits.drop(while: { $0 == "0" }).utf8.count <= 16,
            let value = UInt64(digits.isEmpty ? "0" : String(digits), radix: 16)
        else {
            throw WireError("quantity \(text) does not fit in 64 bits or is not hex")
        }
        return value
    }

    /// Parses a quantity into a `UInt256`, with the tolerance of ``decodeUInt64(_:)``.
    public static func decodeUInt256(_ text: String) throws(WireError) -> UInt256 {
        let digits = try hexDigits(text)
        if digits.isEmpty { return .zero }
        do {
            return try UInt256(hex: String(digits))
        } catch {
            throw WireError("quantity \(text): \(error)")
        }
    }

    private static func hexDigits(_ text: String) throws(WireError) -> Substring {
        guard Hex.hasPrefix(text) else { throw WireError("expected a 0x-prefixed hex quantity, got \(JSONValue.quote(text))") }
        return text.dropFirst(2)
    }
}
