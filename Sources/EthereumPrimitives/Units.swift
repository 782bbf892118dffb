/// A denomination of ether: each is a power of ten of wei.
public enum EtherUnit: String, CaseIterable, Sendable {
    case wei, kwei, mwei, gwei, szabo, finney, ether

    /// Decimal places: one of this unit is 10^decimals wei.
    public var decimals: Int {
        switch self {
        case .wei: return 0
        case .kwei: return 3
        case .mwei: return 6
        case .gwei: return 9
        case .szabo: return 12
        case .finney: return 15
        case .ether: return 18
        }
    }

    /// The number of wei in one of this unit, 10^decimals.
    public var weiPerUnit: UInt256 {
        UInt256(10).exp(UInt256(UInt64(decimals)))
    }
}

/// Exact conversion between ether amounts as text and wei, with no floating point anywhere.
public enum Units {
    /// Errors from ``Units/parse(_:)`` and ``Units/parse(_:unit:)``; each names the input.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The amount is empty or only whitespace.
        case empty
        /// The amount starts with a minus sign.
        case negative(String)
        /// A character that does not belong in an amount, at this character offset in the input.
        case invalidCharacter(Character, offset: Int, input: String)
        /// The number has no digits (for example ".").
        case noDigits(String)
        /// The number has more than one decimal point.
        case multipleDecimalPoints(String)
        /// The unit is not one of ``EtherUnit``'s names.
        case unknownUnit(String)
        /// The number has non-zero digits beyond the unit's decimal places (a fraction of a wei).
        case tooManyDecimals(String, unit: EtherUnit)
        /// The amount in wei is larger than 2^256 − 1.
        case overflow(String)

        /// A sentence saying what went wrong and where.
        public var description: String {
            switch self {
            case .empty:
                return "amount is empty"
            case .negative(let s):
                return "negative amount \(quoted(s)): amounts cannot be negative"
            case .invalidCharacter(let c, let offset, let s):
                return "invalid character \(quoted(String(c))) at offset \(offset) in \(quoted(s))"
            case .noDigits(let s):
                return "no digits in amount \(quoted(s))"
            case .multipleDecimalPoints(let s):
                return "more than one decimal point in \(quoted(s))"
            case .unknownUnit(let u):
                let names = EtherUnit.allCases.map(\.rawValue).joined(separator: ", ")
                return "unknown unit \(quoted(u)) (expected one of \(names))"
            case .tooManyDecimals(let s, let unit):
                return "\(quoted(s)) has more decimal places than \(unit.rawValue) allows (\(unit.decimals)): "
                    + "the smallest amount is 1 wei"
            case .overflow(let s):
                return "amount \(quoted(s)) is larger than 2^256 - 1 wei"
            }
        }

        private func quoted(_ s: String) -> String { String(reflecting: s) }
    }

    /// Parses an amount with an optional unit: `"1.5 ether"`, `"30 gwei"`, `"1ether"`, `"100"` (wei).
    /// The unit is case-insensitive; whitespace around the number and unit is ignored.
    public static func parse(_ text: String) throws(Units.Error) -> UInt256 {
        let chars = Array(text)
        var start = 0
        var end = chars.count
        while start < end && chars[start].isWhitespace { start += 1 }
        while end > start && chars[end - 1].isWhitespace { end -= 1 }
        guard start < end else { throw .empty }
        if chars[start] == "-" { throw .negative(text) }

        var numberEnd = start
        while numberEnd < end && (chars[numberEnd].isASCII && (chars[numberEnd].isNumber || chars[numberEnd] == ".")) {
            numberEnd += 1
        }
        var unitStart = numberEnd
        while unitStart < end && chars[unitStart].isWhitespace { unitStart += 1 }
        var unit = EtherUnit.wei
        if unitStart < end {
            for i in unitStart..<end where !(chars[i].isASCII && chars[i].isLetter) {
                throw .invalidCharacter(chars[i], offset: i, input: text)
            }
            let name = String(chars[unitStart..<end])
            guard let u = EtherUnit(rawValue: name.lowercased()) else { throw .unknownUnit(name) }
            unit = u
        }
        return try parseNumber(chars, start..<numberEnd, unit: unit, input: text)
    }

    /// Parses a plain number (`"1.5"`, `"0.000000001"`, `"42"`) as an amount of `unit`, returning wei.
    /// Rejects signs, exponents, separators, and non-zero digits beyond the unit's decimal places.
    public static func parse(_ amount: String, unit: EtherUnit) throws(Units.Error) -> UInt256 {
        let chars = Array(amount)
        var start = 0
        var end = chars.count
        while start < end && chars[start].isWhitespace { start += 1 }
        while end > start && chars[end - 1].isWhitespace { end -= 1 }
        guard start < end else { throw .empty }
        if chars[start] == "-" { throw .negative(amount) }
        return try parseNumber(chars, start..<end, unit: unit, input: amount)
    }

    /// `wei` written in `unit`, exactly: `"1.5"`, `"0.000000001"`, `"42"` (trailing fractional zeros
    /// trimmed, never an exponent).
    public static func format(_ wei: UInt256, as unit: EtherUnit) -> String {
        let (whole, fraction) = wei.quotientAndRemainder(dividingBy: unit.weiPerUnit)
        if fraction.isZero { return whole.description }
        var digits = fraction.description
        digits = String(repeating: "0", count: unit.decimals - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// Parses `chars[range]` (digits with at most one `.`) as an amount of `unit`.
    private static func parseNumber(
        _ chars: [Character], _ range: Range<Int>, unit: EtherUnit, input: String
    ) throws(Units.Error) -> UInt256 {
        var point: Int?
        for i in range {
            let c = chars[i]
            if c == "." {
                if point != nil { throw .multipleDecimalPoints(input) }
                point = i
            } else if !(c.isASCII && c.isNumber) {
                throw .invalidCharacter(c, offset: i, input: input)
            }
        }
        let wholeDigits = String(chars[range.lowerBound..<(point ?? range.upperBound)])
        var fractionDigits = point.map { String(chars[($0 + 1)..<range.upperBound]) } ?? ""
        guard !wholeDigits.isEmpty || !fractionDigits.isEmpty else { throw .noDigits(input) }
        // Trailing zeros in the fraction do not change the value, so "1.50 wei" is not a fraction of a wei.
        while fractionDigits.last == "0" { fractionDigits.removeLast() }
        guard fractionDigits.count <= unit.decimals else { throw .tooManyDecimals(input, unit: unit) }

        let whole: UInt256
        let fraction: UInt256
        do {
            whole = wholeDigits.isEmpty ? .zero : try UInt256(decimal: wholeDigits)
            fraction = fractionDigits.isEmpty ? .zero : try UInt256(decimal: fractionDigits)
        } catch {
            throw .overflow(input)  // the characters were checked above, so only overflow is left
        }
        let fractionScale = UInt256(10).exp(UInt256(UInt64(unit.decimals - fractionDigits.count)))
        let (wholeWei, o1) = whole.multipliedReportingOverflow(by: unit.weiPerUnit)
        let (sum, o2) = wholeWei.addingReportingOverflow(fraction &* fractionScale)
        guard !o1 && !o2 else { throw .overflow(input) }
        return sum
    }
}
