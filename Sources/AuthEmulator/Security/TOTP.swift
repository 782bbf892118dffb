import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) as Firebase's TOTP second factor uses them: HMAC-SHA1,
/// 30-second steps, 6 digits, a 20-byte secret shown to the user in base32 (RFC 4648) for an authenticator app.
public enum TOTP {
    /// Seconds per step.
    public static let period: Int64 = 30
    /// Digits per code.
    public static let digits = 6
    /// Secret length in bytes (160 bits, RFC 4226's recommendation).
    public static let secretLength = 20

    /// The HOTP value of `counter` (RFC 4226 §5.3: dynamic truncation of HMAC-SHA1, modulo 10^digits), zero-padded.
    public static func hotp(secret: [UInt8], counter: UInt64, digits: Int = digits) -> String {
        var message = [UInt8](repeating: 0, count: 8)
        for index in 0..<8 { message[index] = UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64(index))) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary =
            UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The code for `time` (seconds since 1970).
    public static func code(secret: [UInt8], at time: Int64, digits: Int = digits) -> String {
        hotp(secret: secret, counter: UInt64(max(0, time) / period), digits: digits)
    }

    /// Whether `code` is the code for `time` or for up to `window` steps either side (clock drift: Firebase's
    /// `adjacentIntervals`, 0–10, default 5), compared in constant time per step.
    public static func verify(_ code: String, secret: [UInt8], at time: Int64, window: Int = 5) -> Bool {
        guard code.count == digits, code.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        let step = max(0, time) / period
        let window = Int64(min(max(window, 0), 10))  // Firebase's adjacentIntervals range
        var matched = false
        for offset in -window...window where step + offset >= 0 {
            let candidate = hotp(secret: secret, counter: UInt64(step + offset))
            if ConstantTime.equals(Array(candidate.utf8), Array(code.utf8)) { matched = true }
        }
        return matched
    }

    private static let base32Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// RFC 4648 base32 without padding (what authenticator apps take).
    public static func base32(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(base32Alphabet[Int(buffer >> UInt32(bits - 5) & 0x1F)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(base32Alphabet[Int(buffer << UInt32(5 - bits) & 0x1F)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes RFC 4648 base32 (case-insensitive, padding and spaces ignored); nil for another character.
    public static func decodeBase32(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: "=") && character != UInt8(ascii: " ") {
            guard let value = base32Alphabet.firstIndex(of: character) else { return nil }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits - 8)))
                bits -= 8
            }
        }
        return output
    }
}
