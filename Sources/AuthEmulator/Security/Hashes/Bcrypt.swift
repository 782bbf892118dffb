/// bcrypt (Provos and Mazières, "A Future-Adaptable Password Scheme", USENIX 1999): the EksBlowfish key schedule
/// run 2^cost times, then "OrpheanBeholderScryDoubt" encrypted 64 times. Used to check passwords imported with
/// `hashAlgorithm: BCRYPT`, whose hash is the whole modular-crypt string (`$2b$10$<salt><hash>`). swift-crypto has
/// no bcrypt, so it is written here, checked against the OpenBSD/Openwall test vectors (`BcryptTests`).
///
/// `$2a$`, `$2b$` and `$2y$` are the same computation for passwords under 255 bytes (the key is the password's bytes
/// and a NUL, cut at 72 bytes); `$2x$` (the historical sign-extension bug) is refused.
public enum Bcrypt {
    /// The costs accepted: 4–31 as defined; a stored hash above `maximumCost` is refused so that one sign-in cannot
    /// take minutes (cost 16 is ~4 s on one core).
    public static let costs: ClosedRange<Int> = 4...31
    /// The highest cost checked.
    public static let maximumCost = 16

    /// A parsed modular-crypt string.
    public struct Setting: Sendable, Equatable {
        /// `2a`, `2b` or `2y`.
        public var variant: String
        /// log2 of the number of key expansions.
        public var cost: Int
        /// The 16-byte salt.
        public var salt: [UInt8]
        /// The 23-byte hash, when the string has one.
        public var hash: [UInt8]?
    }

    /// Parses `$2b$10$` + 22 salt characters [+ 31 hash characters]; nil when malformed.
    public static func parse(_ text: String) -> Setting? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29 || bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$")
        else { return nil }
        let variant = String(decoding: bytes[1...2], as: UTF8.self)
        guard ["2a", "2b", "2y"].contains(variant),
            let tens = digit(bytes[4]), let ones = digit(bytes[5])
        else { return nil }
        let cost = tens * 10 + ones
        guard costs.contains(cost), let salt = decode(bytes[7..<29], count: 16) else { return nil }
        var hash: [UInt8]?
        if bytes.count == 60 {
            guard let decoded = decode(bytes[29..<60], count: 23) else { return nil }
            hash = decoded
        }
        return Setting(variant: variant, cost: cost, salt: salt, hash: hash)
    }

    /// The 23-byte bcrypt hash of `password` under `cost` and `salt` (16 bytes).
    public static func hash(password: [UInt8], salt: [UInt8], cost: Int) -> [UInt8] {
        precondition(salt.count == 16 && costs.contains(cost), "checked by the callers")
        var key = Array(password.prefix(72))
        if key.count < 72 { key.append(0) }
        var state = Blowfish()
        state.expand(key: key, salt: salt)
        for _ in 0..<(1 << cost) {
            state.expand(key: key, salt: nil)
            state.expand(key: salt, salt: nil)
        }
        var text: [UInt32] = [0x4F72_7068, 0x6561_6E42, 0x6568_6F6C, 0x6465_7253, 0x6372_7944, 0x6F75_6274]
        for _ in 0..<64 {
            for block in stride(from: 0, to: 6, by: 2) {
                (text[block], text[block + 1]) = state.encrypt(text[block], text[block + 1])
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(24)
        for word in text {
            output += [UInt8(word >> 24), UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
        }
        return Array(output.prefix(23))
    }

    /// The modular-crypt string for `password`, `cost` and `salt`, e.g. `$2b$10$…` (60 characters).
    public static func string(password: [UInt8], salt: [UInt8], cost: Int, variant: String = "2b") -> String {
        let digest = hash(password: password, salt: salt, cost: cost)
        let costText = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$\(variant)$\(costText)$" + encode(salt) + encode(digest)
    }

    /// Whether `password` matches the modular-crypt string `stored` (compared in constant time); false for a
    /// malformed string, a `$2x$` one, or a cost above `maximumCost`.
    public static func verify(password: [UInt8], against stored: String) -> Bool {
        guard let setting = parse(stored), let expected = setting.hash, setting.cost <= maximumCost else { return false }
        return ConstantTime.equals(hash(password: password, salt: setting.salt, cost: setting.cost), expected)
    }

    // MARK: bcrypt's base64 (./A–Za–z0–9, no padding)

    private static let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    private static let values: [UInt8: UInt8] = Dictionary(
        uniqueKeysWithValues: alphabet.enumerated().map { ($0.element, UInt8($0.offset)) })

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            output.append(alphabet[Int(first >> 2)])
            var carry = (first & 0x03) << 4
            guard index + 1 < bytes.count else {
                output.append(alphabet[Int(carry)])
                break
            }
            let second = bytes[index + 1]
            output.append(alphabet[Int(carry | second >> 4)])
            carry = (second & 0x0F) << 2
            guard index + 2 < bytes.count else {
                output.append(alphabet[Int(carry)])
                break
            }
            let third = bytes[index + 2]
            output.append(alphabet[Int(carry | third >> 6)])
            output.append(alphabet[Int(third & 0x3F)])
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func decode(_ text: ArraySlice<UInt8>, count: Int) -> [UInt8]? {
        var sextets: [UInt8] = []
        for character in text {
            guard let value = values[character] else { return nil }
            sextets.append(value)
        }
        var output: [UInt8] = []
        var index = 0
        while output.count < count, index + 1 < sextets.count {
            output.append(sextets[index] << 2 | sextets[index + 1] >> 4)
            if output.count < count, index + 2 < sextets.count {
                output.append(sextets[index + 1] << 4 | sextets[index + 2] >> 2)
            }
            if output.count < count, index + 3 < sextets.count {
                output.append(sextets[index + 2] << 6 | sextets[index + 3])
            }
            index += 4
        }
        return output.count == count ? output : nil
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}

/// Blowfish's state (Schneier 1993) with the EksBlowfish expansion bcrypt uses.
private struct Blowfish {
    var p: [UInt32]
    var s: [UInt32]

    init() {
        p = Array(BlowfishPi.words[0..<18])
        s = Array(BlowfishPi.words[18...])
    }

    @inline(__always)
    func f(_ x: UInt32) -> UInt32 {
        let a = s[Int(x >> 24)]
        let b = s[256 + Int(x >> 16 & 0xFF)]
        let c = s[512 + Int(x >> 8 & 0xFF)]
        let d = s[768 + Int(x & 0xFF)]
        return ((a &+ b) ^ c) &+ d
    }

    func encrypt(_ left: UInt32, _ right: UInt32) -> (UInt32, UInt32) {
        var l = left
        var r = right
        for round in stride(from: 0, to: 16, by: 2) {
            l ^= p[round]
            r ^= f(l)
            r ^= p[round + 1]
            l ^= f(r)
        }
        return (r ^ p[17], l ^ p[16])
    }

    /// The next big-endian word of `data` read cyclically from `offset`.
    private static func word(_ data: [UInt8], _ offset: inout Int) -> UInt32 {
        var word: UInt32 = 0
        for _ in 0..<4 {
            word = word << 8 | UInt32(data[offset])
            offset = (offset + 1) % data.count
        }
        return word
    }

    /// ExpandKey(state, salt, key): the P-array XORed with the key, then every P and S entry replaced by
    /// encryptions of a running block XORed with the salt's words (no salt: the plain Blowfish schedule).
    mutating func expand(key: [UInt8], salt: [UInt8]?) {
        var keyOffset = 0
        for index in 0..<18 { p[index] ^= Self.word(key, &keyOffset) }
        var saltOffset = 0
        var l: UInt32 = 0
        var r: UInt32 = 0
        func next() {
            if let salt {
                l ^= Self.word(salt, &saltOffset)
                r ^= Self.word(salt, &saltOffset)
            }
            (l, r) = encrypt(l, r)
        }
        for index in stride(from: 0, to: 18, by: 2) {
            next()
            p[index] = l
            p[index + 1] = r
        }
        for index in stride(from: 0, to: 1024, by: 2) {
            next()
            s[index] = l
            s[index + 1] = r
        }
    }
}
