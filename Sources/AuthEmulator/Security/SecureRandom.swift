/// Identifiers and secrets drawn from the system CSPRNG (`SystemRandomNumberGenerator`: getrandom(2) on Linux,
/// arc4random on Apple platforms).
public enum SecureRandom {
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A Firebase-style user id: 28 characters from [A-Za-z0-9], each drawn uniformly.
    public static func uid() -> String {
        alphanumericString(length: 28)
    }

    /// `length` characters from [A-Za-z0-9], each drawn uniformly (no modulo bias).
    public static func alphanumericString(length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var characters = [UInt8]()
        characters.reserveCapacity(length)
        for _ in 0..<length {
            characters.append(alphanumerics[Int.random(in: 0..<alphanumerics.count, using: &generator)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// An opaque refresh token: 48 random bytes (384 bits) in unpadded base64url.
    public static func refreshToken() -> String {
        Base64URL.encode(bytes(48))
    }
}
