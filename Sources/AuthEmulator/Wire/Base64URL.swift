import Foundation

/// Unpadded base64url (RFC 4648 §5), the alphabet of JWTs and of our refresh tokens.
public enum Base64URL {
    /// Encodes `bytes` without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url with or without padding; nil when `text` is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var unpadded = Substring(text)
        while unpadded.last == "=" { unpadded = unpadded.dropLast() }
        guard !unpadded.contains("+"), !unpadded.contains("/"), !unpadded.contains("=") else { return nil }
        var base64 = unpadded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        switch base64.count % 4 {
        case 1: return nil
        case 2: base64 += "=="
        case 3: base64 += "="
        default: break
        }
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
