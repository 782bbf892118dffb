// Decimal and hexadecimal text for UInt256.

extension UInt256 {
    /// Errors from parsing a ``UInt256`` from text.
    public enum ParseError: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The string is empty.
        case empty
        /// The string is just a `0x` prefix.
        case noDigitsAfterPrefix
        /// A character that is not a digit of the radix, at this UTF-8 offset in the input (counting
        /// any `0x` prefix).
        case invalidDigit(Character, offset: Int, radix: Int)
        /// The value is larger than 2^256 − 1.
        case overflow

        /// A sentence saying what went wrong and where.
        public var description: String {
            switch self {
            case .empty: return "expected a number, got an empty string"
            case .noDigitsAfterPrefix: return "expected hex digits after 0x"
            case .invalidDigit(let c, let offset, let radix):
                let kind = radix == 16 ? "hex" : "decimal"
                return "invalid \(kind) digit \(String(reflecting: String(c))) at offset \(offset)"
            case .overflow: return "number does not fit in 256 bits (maximum is 2^256 - 1)"
            }
        }
    }

    /// Parses a decimal number: digits only (no sign, separators or whitespace); leading zeros allowed.
    public init(decimal text: String) throws(ParseError) {
        var utf8Text = text
        let result = utf8Text.withUTF8 { utf8 in
            Result { () throws(ParseError) in try UInt256.parseDecimal(utf8, original: text) }
        }
        self = try result.get()
    }

    /// Parses a hexadecimal number with an optional `0x`/`0X` prefix, digits in either case; leading
    /// zeros allowed (so 64 significant digits at most).
    public init(hex text: String) throws(ParseError) {
        var utf8Text = text
        let result = utf8Text.withUTF8 { utf8 in
            Result { () throws(ParseError) in try UInt256.parseHex(utf8, original: text) }
        }
        self = try result.get()
    }

    /// Parses `0x…` as hexadecimal and anything else as decimal.
    public init(parsing text: String) throws(ParseError) {
        if Hex.hasPrefix(text) {
            try self.init(hex: text)
        } else {
            try self.init(decimal: text)
        }
    }

    private static func invalidDigit(in original: String, at offset: Int, radix: Int) -> ParseError {
        // Report the Unicode scalar starting at the byte, not the raw byte, so "12é" reads sensibly.
        let u = original.utf8.index(original.utf8.startIndex, offsetBy: offset)
        let scalar = String.Index(u, within: original.unicodeScalars).map { original.unicodeScalars[$0] }
        return .invalidDigit(Character(scalar ?? "\u{FFFD}"), offset: offset, radix: radix)
    }

    private static func parseDecimal(_ utf8: UnsafeBufferPointer<UInt8>, original: String) throws(ParseError) -> UInt256 {
        guard !utf8.isEmpty else { throw .empty }
        var value = UInt256.zero
        var overflowed = false
        var i = 0
        // Consume 19 digits at a time (10^19 < 2^64): value = value · 10^k + chunk.
        while i < utf8.count {
            let end = Swift.min(i + 19, utf8.count)
            var chunk: UInt64 = 0
            var scale: UInt64 = 1
            while i < end {
                let d = utf8[i] &- UInt8(ascii: "0")
                guard d < 10 else { throw invalidDigit(in: original, at: i, radix: 10) }
                chunk = chunk &* 10 &+ UInt64(d)
                scale &*= 10
                i += 1
            }
            if !overflowed {
                let (high, low) = value.multipliedFullWidth(byWord: scale)
                let (sum, carry) = low.addingReportingOverflow(UInt256(chunk))
                overflowed = high != 0 || carry
                value = sum
            }
        }
        // Every character is checked before overflow is reported, so "9…9x" names the bad digit.
        if overflowed { throw .overflow }
        return value
    }

    private static func parseHex(_ utf8: UnsafeBufferPointer<UInt8>, original: String) throws(ParseError) -> UInt256 {
        guard !utf8.isEmpty else { throw .empty }
        var start = 0
        if utf8.count >= 2, utf8[0] == UInt8(ascii: "0"), utf8[1] | 0x20 == UInt8(ascii: "x") { start = 2 }
        guard start < utf8.count else { throw .noDigitsAfterPrefix }
        var value = UInt256.zero
        var significant = 0
        for i in start..<utf8.count {
            guard let nibble = Hex.nibble(utf8[i]) else { throw invalidDigit(in: original, at: i, radix: 16) }
            if significant == 0 && nibble == 0 { continue }
            significant += 1
            if significant <= 64 {
                value = value.shiftedLeft(4)
                value.limbs.0 |= UInt64(nibble)
            }
        }
        if significant > 64 { throw .overflow }
        return value
    }
}

// MARK: - Printing

extension UInt256: CustomStringConvertible {
    /// The value in decimal.
    public var description: String {
        if fitsInUInt64 { return String(limbs.0) }
        // Split into base-10^19 chunks (at most 5 for 78 digits), least significant first; then write
        // them out, the most significant unpadded and the rest zero-padded to 19 digits.
        var chunks: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        var count = 0
        var rest = self
        while !rest.isZero {
            let (q, r) = rest.quotientAndRemainder(dividingByWord: 10_000_000_000_000_000_000)
            switch count {
            case 0: chunks.0 = r
            case 1: chunks.1 = r
            case 2: chunks.2 = r
            case 3: chunks.3 = r
            default: chunks.4 = r
            }
            count += 1
            rest = q
        }
        return withUnsafeBytes(of: &chunks) { raw in
            let chunk = raw.assumingMemoryBound(to: UInt64.self)
            var topDigits = 0
            var top = chunk[count - 1]
            repeat {
                topDigits += 1
                top /= 10
            } while top != 0
            let length = topDigits + 19 * (count - 1)
            return String(unsafeUninitializedCapacity: length) { out in
                UInt256.digitPairs.withUTF8Buffer { pairs in
                    var end = length
                    for c in 0..<count {
                        var v = chunk[c]
                        var width = c == count - 1 ? topDigits : 19
                        while width >= 2 {
                            let pair = Int(truncatingIfNeeded: v % 100) &* 2
                            v /= 100
                            out[end - 1] = pairs[pair + 1]
                            out[end - 2] = pairs[pair]
                            end -= 2
                            width -= 2
                        }
                        if width == 1 {
                            out[end - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
                            end -= 1
                        }
                    }
                }
                return length
            }
        }
    }

    /// "00" through "99": decimal printing writes two digits per division.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Minimal lowercase hex with `0x` (`"0x0"` for zero), as JSON-RPC quantities are written.
    public var hexString: String { hexDigits(count: Swift.max(1, (significantBitCount + 3) &>> 2)) }

    /// All 64 lowercase hex digits with `0x`.
    public var paddedHexString: String { hexDigits(count: 64) }

    /// `0x` and the low `count` hex digits.
    private func hexDigits(count digits: Int) -> String {
        // All 64 digits go into a stack buffer eight at a time; the string takes the last `digits`.
        var text = (
            UInt256.hexText(limbs.3 &>> 32), UInt256.hexText(limbs.3), UInt256.hexText(limbs.2 &>> 32),
            UInt256.hexText(limbs.2), UInt256.hexText(limbs.1 &>> 32), UInt256.hexText(limbs.1),
            UInt256.hexText(limbs.0 &>> 32), UInt256.hexText(limbs.0)
        )
        return withUnsafeBytes(of: &text) { raw in
            String(unsafeUninitializedCapacity: digits + 2) { out in
                out[0] = UInt8(ascii: "0")
                out[1] = UInt8(ascii: "x")
                UnsafeMutableRawPointer(out.baseAddress! + 2).copyMemory(from: raw.baseAddress! + (64 - digits), byteCount: digits)
                return digits + 2
            }
        }
    }

    /// The 8 lowercase hex digits of the low 32 bits of `word`, as the 8 bytes of a `UInt64` laid out
    /// in memory in reading order. Computed with bit tricks on the whole word rather than a loop.
    @inline(__always)
    private static func hexText(_ word: UInt64) -> UInt64 {
        // Spread nibble i into byte i: halves, then bytes, then nibbles.
        var v = word & 0xFFFF_FFFF
        v = (v | v &<< 16) & 0x0000_FFFF_0000_FFFF
        v = (v | v &<< 8) & 0x00FF_00FF_00FF_00FF
        v = (v | v &<< 4) & 0x0F0F_0F0F_0F0F_0F0F
        // Each byte n becomes '0' + n, plus ('a' − '0' − 10) = 0x27 more when n ≥ 10 (n + 6 carries
        // into bit 4 exactly then). No byte overflows into the next.
        let letters = ((v &+ 0x0606_0606_0606_0606) &>> 4) & 0x0101_0101_0101_0101
        let ascii = v &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
        // Byte 0 holds the least significant digit; text starts with the most significant.
        return ascii.bigEndian
    }
}

extension UInt256: LosslessStringConvertible {
    /// Parses a decimal number; nil if `description` is not one or does not fit in 256 bits.
    public init?(_ description: String) {
        guard let value = try? UInt256(decimal: description) else { return nil }
        self = value
    }
}
