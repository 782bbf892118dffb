/// Email address rules: a deliberately small subset of RFC 5321/5322 ("RFC-lite") that accepts the addresses
/// people use and rejects the rest with `INVALID_EMAIL`.
public enum EmailAddress {
    private static let localSpecials = Set("!#$%&'*+/=?^_`{|}~.-".utf8)

    /// The canonical form under which an account is stored and looked up: lowercased, as Firebase does.
    public static func normalize(_ email: String) -> String {
        email.lowercased()
    }

    /// Whether `email` is `local@domain` where: the whole is ASCII and at most 254 characters; the local part is
    /// 1–64 characters of letters, digits and ``!#$%&'*+/=?^_`{|}~.-``, with no leading, trailing or doubled dot;
    /// the domain has at least two dot-separated labels of 1–63 letters, digits and hyphens, none starting or
    /// ending with a hyphen, and a top-level label that is not all digits.
    public static func isValid(_ email: String) -> Bool {
        let bytes = Array(email.utf8)
        guard bytes.count <= 254, bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        let parts = bytes.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return isValidLocalPart(Array(parts[0])) && isValidDomain(Array(parts[1]))
    }

    private static func isValidLocalPart(_ local: [UInt8]) -> Bool {
        guard (1...64).contains(local.count) else { return false }
        guard local.first != UInt8(ascii: "."), local.last != UInt8(ascii: ".") else { return false }
        var previous: UInt8 = 0
        for byte in local {
            guard isAlphanumeric(byte) || localSpecials.contains(byte) else { return false }
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return false }
            previous = byte
        }
        return true
    }

    private static func isValidDomain(_ domain: [UInt8]) -> Bool {
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for label in labels {
            guard (1...63).contains(label.count) else { return false }
            guard label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else { return false }
            guard label.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") }) else { return false }
        }
        if let topLevel = labels.last, topLevel.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return false
        }
        return true
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
