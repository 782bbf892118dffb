import Crypto

/// Base58Check (Bitcoin's alphabet, 4-byte double-SHA-256 checksum), the text form of BIP-32 extended keys.
enum Base58Check {
    private static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    private static let values: [UInt8: Int] = Dictionary(uniqueKeysWithValues: alphabet.enumerated().map { ($1, $0) })

    static func checksum(_ payload: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: Array(SHA256.hash(data: payload)))).prefix(4).map { $0 }
    }

    /// Encodes `payload` followed by its checksum.
    static func encode(_ payload: [UInt8]) -> String {
        let bytes = payload + checksum(payload)
        var digits: [Int] = []  // base-58 digits, least significant first
        for byte in bytes {
            var carry = Int(byte)
            for i in digits.indices {
                carry += digits[i] << 8
                digits[i] = carry % 58
                carry /= 58
            }
            while carry > 0 {
                digits.append(carry % 58)
                carry /= 58
            }
        }
        let zeros = bytes.prefix { $0 == 0 }.count
        return String(decoding: Array(repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[$0] }, as: UTF8.self)
    }

    /// Decodes and checks the checksum; returns the payload without it.
    static func decode(_ text: String) throws(HDWalletError) -> [UInt8] {
        var bytes: [UInt8] = []  // least significant first
        for c in text.utf8 {
            guard let value = values[c] else { throw .invalidExtendedKey("not Base58") }
            var carry = value
            for i in bytes.indices {
                carry += Int(bytes[i]) * 58
                bytes[i] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(carry & 0xff))
                carry >>= 8
            }
        }
        let zeros = text.utf8.prefix { $0 == alphabet[0] }.count
        let full = Array(repeating: 0, count: zeros) + bytes.reversed()
        guard full.count > 4 else { throw .invalidExtendedKey("too short") }
        let payload = Array(full.dropLast(4))
        guard checksum(payload) == Array(full.suffix(4)) else { throw .invalidExtendedKey("checksum mismatch") }
        return payload
    }
}
