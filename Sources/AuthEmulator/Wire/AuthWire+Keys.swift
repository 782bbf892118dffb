/// The public key documents, in the formats Google serves Firebase's token keys in.
extension AuthWire {
    /// One RSA public key as a JWK (RFC 7517 §4, RFC 7518 §6.3.1).
    public struct JSONWebKey: Codable, Sendable, Equatable {
        /// `RSA`.
        public var kty = "RSA"
        /// `RS256`.
        public var alg = "RS256"
        /// `sig`.
        public var use = "sig"
        /// The key id tokens name in their header.
        public var kid: String
        /// The modulus, base64url.
        public var n: String
        /// The public exponent, base64url.
        public var e: String

        /// Creates a key entry.
        public init(kid: String, n: String, e: String) {
            self.kid = kid
            self.n = n
            self.e = e
        }
    }

    /// A JWK set: `{"keys":[…]}` (Google's `service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`).
    public struct JSONWebKeySet: Codable, Sendable, Equatable {
        /// The keys.
        public var keys: [JSONWebKey]

        /// Creates a set.
        public init(keys: [JSONWebKey]) {
            self.keys = keys
        }
    }
}
