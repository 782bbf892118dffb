import Crypto
import CryptoExtras
import Foundation

/// A self-signed X.509 certificate for the token signing key, the form in which Google publishes Firebase's keys
/// (`https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com` maps key ids to
/// PEM certificates). The Admin SDKs read that document (the Go and Java ones parse real certificates), so ours
/// is a real certificate too: version 1, serial from the key, subject and issuer
/// `CN=securetoken.system.gserviceaccount.com`, sha256WithRSAEncryption, signed by the key itself.
///
/// Only the DER this needs is written here (RFC 5280 §4.1, X.690 DER).
enum SigningCertificate {
    /// The certificate's subject and issuer common name (Google's own certificates use this name).
    static let commonName = "securetoken.system.gserviceaccount.com"

    /// The PEM certificate of `key`, valid from `notBefore` to `notAfter`.
    static func pem(
        key: _RSA.Signing.PrivateKey, notBefore: Date, notAfter: Date
    ) throws -> String {
        let der = try certificate(key: key, notBefore: notBefore, notAfter: notAfter)
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN CERTIFICATE-----"]
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<end]))
            index = end
        }
        lines.append("-----END CERTIFICATE-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The DER certificate.
    static func certificate(key: _RSA.Signing.PrivateKey, notBefore: Date, notAfter: Date) throws -> [UInt8] {
        let publicKeyInfo = [UInt8](key.publicKey.derRepresentation)
        var serial = Array(SHA256.hash(data: publicKeyInfo).prefix(16))
        serial[0] &= 0x7F  // a positive INTEGER
        if serial[0] == 0 { serial[0] = 1 }  // and minimally encoded
        let name = DER.sequence([DER.set([DER.sequence([DER.oid(commonNameOID), DER.utf8String(commonName)])])])
        let algorithm = DER.sequence([DER.oid(sha256WithRSAEncryptionOID), DER.null])
        let tbs = DER.sequence([
            DER.integer(serial), algorithm, name,
            DER.sequence([DER.utcTime(notBefore), DER.utcTime(notAfter)]),
            name, publicKeyInfo,
        ])
        let signature = try key.signature(for: SHA256.hash(data: tbs), padding: .insecurePKCS1v1_5)
        return DER.sequence([tbs, algorithm, DER.bitString([UInt8](signature.rawRepresentation))])
    }

    /// 2.5.4.3 (id-at-commonName).
    private static let commonNameOID: [UInt8] = [0x55, 0x04, 0x03]
    /// 1.2.840.113549.1.1.11 (sha256WithRSAEncryption).
    private static let sha256WithRSAEncryptionOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
}

/// The few DER encodings a certificate needs (X.690 §8 with the DER restrictions of §10).
enum DER {
    static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        [tag] + length(content.count) + content
    }

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var remaining = count
        while remaining > 0 {
            bytes.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func sequence(_ items: [[UInt8]]) -> [UInt8] { element(0x30, items.flatMap { $0 }) }
    static func set(_ items: [[UInt8]]) -> [UInt8] { element(0x31, items.flatMap { $0 }) }
    static func oid(_ encoded: [UInt8]) -> [UInt8] { element(0x06, encoded) }
    static let null: [UInt8] = [0x05, 0x00]
    static func utf8String(_ text: String) -> [UInt8] { element(0x0C, Array(text.utf8)) }
    /// A non-negative INTEGER from big-endian magnitude bytes whose first byte is below 0x80 and non-zero.
    static func integer(_ magnitude: [UInt8]) -> [UInt8] { element(0x02, magnitude) }
    static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(0x03, [0x00] + bytes) }

    /// UTCTime `YYMMDDHHMMSSZ` (RFC 5280 §4.1.2.5.1: for years 1950–2049).
    static func utcTime(_ date: Date) -> [UInt8] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let fields = [(parts.year ?? 1970) % 100, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0,
            parts.second ?? 0]
        let text = fields.map { $0 < 10 ? "0\($0)" : String($0) }.joined() + "Z"
        return element(0x17, Array(text.utf8))
    }
}
