/// A signed 256-bit integer (two's complement), the Swift type of Solidity's `int256` (and of every `intN`
/// wider than 64 bits in generated contract bindings).
///
/// It is a ``UInt256`` bit pattern read as signed: `Int256(-1).bitPattern == UInt256.max`. Comparison, negation
/// and addition/subtraction are signed; `+`, `-` and prefix `-` trap on overflow as Swift's integers do, the
/// `&` forms wrap, and the `ReportingOverflow` forms say whether they did.
public struct Int256: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The two's-complement bits.
    public var bitPattern: UInt256

    /// The number whose two's-complement bits are `bitPattern`.
    public init(bitPattern: UInt256) { self.bitPattern = bitPattern }

    /// The value of a Swift integer.
    public init(_ value: Int) {
        let magnitude = UInt256(value.magnitude)
        bitPattern = value < 0 ? magnitude.negated : magnitude
    }

    public init(integerLiteral value: Int) { self.init(value) }

    /// The value of an unsigned number, or nil when it exceeds ``max``.
    public init?(exactly value: UInt256) {
        guard !value.isNegative else { return nil }
        bitPattern = value
    }

    /// Parses decimal or `0x`-hex text with an optional leading `-` (`"-12"`, `"0x1f"`, `"-0x1"`), refusing values
    /// outside ``min`` … ``max``.
    public init(parsing text: String) throws(ParseError) {
        let negative = text.hasPrefix("-")
        let magnitude: UInt256
        do { magnitude = try UInt256(parsing: negative ? String(text.dropFirst()) : text) } catch { throw .notANumber(error) }
        let limit = UInt256.one << 255
        if negative ? magnitude > limit : magnitude >= limit { throw .outOfRange }
        bitPattern = negative ? magnitude.negated : magnitude
    }

    /// Why text is not an `Int256`.
    public enum ParseError: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The digits do not form a number.
        case notANumber(UInt256.ParseError)
        /// The number is below −2^255 or above 2^255 − 1.
        case outOfRange

        public var description: String {
            switch self {
            case .notANumber(let error): return error.description
            case .outOfRange: return "number does not fit in int256 (-2^255 to 2^255 - 1)"
            }
        }
    }

    /// −2^255.
    public static let min = Int256(bitPattern: UInt256.one << 255)
    /// 2^255 − 1.
    public static let max = Int256(bitPattern: (UInt256.one << 255) &- UInt256.one)
    /// 0.
    public static let zero = Int256(bitPattern: .zero)

    /// True below zero.
    public var isNegative: Bool { bitPattern.isNegative }

    /// The absolute value as an unsigned number (2^255 for ``min``, which has no positive counterpart).
    public var magnitude: UInt256 { isNegative ? bitPattern.negated : bitPattern }

    /// The value as an `Int`, or nil when it does not fit.
    public var intValue: Int? {
        let m = magnitude
        guard m.significantBitCount <= 64, let low = m.uint64 else { return nil }
        if isNegative {
            return low <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- low) : nil
        }
        return low <= UInt64(Int.max) ? Int(low) : nil
    }

    public static func < (a: Int256, b: Int256) -> Bool { a.bitPattern.slt(b.bitPattern) }

    /// Signed decimal, e.g. `-12`.
    public var description: String { isNegative ? "-" + magnitude.description : bitPattern.description }

    // MARK: Arithmetic

    /// `a + b` and whether the signed result overflowed.
    public func addingReportingOverflow(_ other: Int256) -> (partialValue: Int256, overflow: Bool) {
        let sum = Int256(bitPattern: bitPattern &+ other.bitPattern)
        // Overflow exactly when both operands have the same sign and the sum's differs.
        return (sum, isNegative == other.isNegative && sum.isNegative != isNegative)
    }

    /// `a − b` and whether the signed result overflowed.
    public func subtractingReportingOverflow(_ other: Int256) -> (partialValue: Int256, overflow: Bool) {
        let difference = Int256(bitPattern: bitPattern &- other.bitPattern)
        return (difference, isNegative != other.isNegative && difference.isNegative != isNegative)
    }

    /// Wrapping addition.
    public static func &+ (a: Int256, b: Int256) -> Int256 { Int256(bitPattern: a.bitPattern &+ b.bitPattern) }
    /// Wrapping subtraction.
    public static func &- (a: Int256, b: Int256) -> Int256 { Int256(bitPattern: a.bitPattern &- b.bitPattern) }

    /// Addition; traps on overflow.
    public static func + (a: Int256, b: Int256) -> Int256 {
        let (result, overflow) = a.addingReportingOverflow(b)
        precondition(!overflow, "Int256 addition overflow")
        return result
    }

    /// Subtraction; traps on overflow.
    public static func - (a: Int256, b: Int256) -> Int256 {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        precondition(!overflow, "Int256 subtraction overflow")
        return result
    }

    /// Negation; traps for ``min``.
    public static prefix func - (a: Int256) -> Int256 {
        precondition(a != .min, "Int256 negation overflow")
        return Int256(bitPattern: a.bitPattern.negated)
    }
}
