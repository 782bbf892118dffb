import Crypto
import CryptoExtras
import EthereumPrimitives
import Foundation

/// A Web3 Secret Storage (keystore v3) document: a private key encrypted with AES-128-CTR under a key derived
/// from a password by scrypt or PBKDF2-HMAC-SHA256, with a Keccak-256 MAC to detect a wrong password.
public struct Keystore: Sendable, Equatable {
    /// The password-based key derivation function and its cost parameters.
    public enum KDF: Sendable, Equatable, CustomStringConvertible {
        /// scrypt with cost `n` (a power of two), block size `r` and parallelism `p`.
        case scrypt(n: Int, r: Int, p: Int)
        /// PBKDF2 with HMAC-SHA256 and `iterations` rounds.
        case pbkdf2(iterations: Int)

        /// geth's standard parameters (n = 2^18, r = 8, p = 1): about a second and 256 MiB.
        public static let standardScrypt = KDF.scrypt(n: 262_144, r: 8, p: 1)
        /// geth's light parameters (n = 2^12, r = 8, p = 6), for development.
        public static let lightScrypt = KDF.scrypt(n: 4_096, r: 8, p: 6)

        /// True for scrypt parameters with n < 2^(16·r) (RFC 7914's recommendation, which swift-crypto's BoringSSL
        /// scrypt enforces). Others — common in keystores: n = 2^18, r = 1 — use the project's own ROMix.
        var isWithinRFC7914Bound: Bool {
            guard case .scrypt(let n, let r, _) = self else { return true }
            return 16 * r > 62 || n < 1 << (16 * r)
        }

        /// Checks the parameters are ones this implementation accepts: scrypt n a power of two above 1, r and p in 1…1024,
        /// at most 1 GiB of scrypt memory (128·n·r bytes) and at most 4 GiB of mixing in all (128·n·r·p bytes,
        /// which bounds the time: 16 times geth's standard n = 2^18, r = 8, p = 1); PBKDF2 rounds in 1…10^7 (ten
        /// times eth-keyfile's default of 10^6). Files with other values are refused rather than allowed to
        /// exhaust memory or hold the CPU for hours; every keystore geth, eth-account or this project writes passes.
        public func check() throws(KeystoreError) {
            switch self {
            case .scrypt(let n, let r, let p):
                guard n > 1, n & (n - 1) == 0 else { throw .invalidParameter("scrypt n must be a power of two above 1, got \(n)") }
                guard r > 0, p > 0, r <= 1024, p <= 1024 else { throw .invalidParameter("scrypt r and p must be 1…1024") }
                guard n <= Keystore.maxScryptMemory / (128 * r) else {
                    throw .invalidParameter("scrypt n·r needs more than \(Keystore.maxScryptMemory >> 20) MiB")
                }
                // n·r ≤ 2^23 and p ≤ 2^10 here, so the product cannot overflow.
                guard 128 * n * r * p <= Keystore.maxScryptWork else {
                    throw .invalidParameter(
                        "scrypt n·r·p = \(n * r * p) is more work than \(Keystore.maxScryptWork >> 30) GiB of mixing (n·r·p at most \(Keystore.maxScryptWork / 128))")
                }
            case .pbkdf2(let c):
                guard (1...Keystore.maxPBKDF2Iterations).contains(c) else {
                    throw .invalidParameter("pbkdf2 c must be 1…\(Keystore.maxPBKDF2Iterations), got \(c)")
                }
            }
        }

        public var description: String {
            switch self {
            case .scrypt(let n, let r, let p): return "scrypt(n=\(n), r=\(r), p=\(p))"
            case .pbkdf2(let c): return "pbkdf2-hmac-sha256(c=\(c))"
            }
        }
    }

    /// The document's UUID.
    public var id: String
    /// The address the file says it holds (optional in the format; written by this project).
    public var address: Address?
    /// The key derivation function.
    public var kdf: KDF
    /// The KDF salt.
    public var salt: [UInt8]
    /// The derived key length (at least 32: 16 bytes of AES key, 16 of MAC key).
    public var derivedKeyLength: Int
    /// The AES-128-CTR initial counter block (16 bytes).
    public var iv: [UInt8]
    /// The encrypted private key.
    public var ciphertext: [UInt8]
    /// keccak256(derivedKey[16..<32] ‖ ciphertext).
    public var mac: [UInt8]

    /// Creates a document from its fields (see ``encrypt(_:password:kdf:)`` to make one).
    public init(
        id: String, address: Address?, kdf: KDF, salt: [UInt8], derivedKeyLength: Int, iv: [UInt8], ciphertext: [UInt8],
        mac: [UInt8]
    ) {
        self.id = id
        self.address = address
        self.kdf = kdf
        self.salt = salt
        self.derivedKeyLength = derivedKeyLength
        self.iv = iv
        self.ciphertext = ciphertext
        self.mac = mac
    }

    /// Encrypts `key` under `password` with fresh random salt, IV and UUID.
    public static func encrypt(_ key: PrivateKey, password: String, kdf: KDF = .standardScrypt) throws(KeystoreError) -> Keystore {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let iv = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let derived = try deriveKey(password: password, kdf: kdf, salt: salt, length: 32)
        let ciphertext = try aes128CTR(key: Array(derived[0..<16]), iv: iv, data: key.rawBytes)
        let mac = Keccak256.hash(Array(derived[16..<32]) + ciphertext).bytes
        return Keystore(
            id: UUID().uuidString.lowercased(), address: key.address, kdf: kdf, salt: salt, derivedKeyLength: 32, iv: iv,
            ciphertext: ciphertext, mac: mac)
    }

    /// Decrypts the key. Throws ``KeystoreError/wrongPassword`` when the MAC does not match.
    public func decrypt(password: String) throws(KeystoreError) -> PrivateKey {
        guard derivedKeyLength >= 32 else { throw .invalidParameter("dklen must be at least 32, got \(derivedKeyLength)") }
        guard iv.count == 16 else { throw .invalidParameter("iv must be 16 bytes, got \(iv.count)") }
        let derived = try Self.deriveKey(password: password, kdf: kdf, salt: salt, length: derivedKeyLength)
        let expected = Keccak256.hash(Array(derived[16..<32]) + ciphertext).bytes
        // Constant-time comparison: a MAC check should not leak how many bytes matched.
        guard expected.count == mac.count, zip(expected, mac).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else {
            throw .wrongPassword
        }
        var plain = try Self.aes128CTR(key: Array(derived[0..<16]), iv: iv, data: ciphertext)
        defer { for i in plain.indices { plain[i] = 0 } }
        guard let key = try? PrivateKey(bytes: plain) else { throw .invalidKey }
        if let address, address != key.address { throw .addressMismatch(file: address, key: key.address) }
        return key
    }

    // MARK: JSON

    /// Parses a keystore v3 document (the `crypto` object may also be spelled `Crypto`, as old geth wrote it).
    public init(json text: String) throws(KeystoreError) {
        let root: JSONValue
        do { root = try JSONValue(parsing: text) } catch {
            throw .invalidJSON("the file is not JSON")
        }
        try self.init(json: root)
    }

    /// Parses a keystore v3 document from typed JSON.
    public init(json root: JSONValue) throws(KeystoreError) {
        guard case .object = root else { throw .invalidJSON("expected a JSON object") }
        let version = root["version"].map(Self.text) ?? "missing"
        guard version == "3" else { throw .unsupportedVersion(version) }
        guard let crypto = root["crypto"] ?? root["Crypto"] else { throw .invalidJSON("missing \"crypto\"") }
        let cipher = try Self.string(crypto, "cipher")
        guard cipher == "aes-128-ctr" else { throw .unsupportedCipher(cipher) }
        guard let params = crypto["kdfparams"] else { throw .invalidJSON("missing \"crypto.kdfparams\"") }
        let kdfName = try Self.string(crypto, "kdf")
        switch kdfName {
        case "scrypt":
            kdf = .scrypt(n: try Self.int(params, "n"), r: try Self.int(params, "r"), p: try Self.int(params, "p"))
        case "pbkdf2":
            let prf = try Self.string(params, "prf")
            guard prf == "hmac-sha256" else { throw .unsupportedPRF(prf) }
            kdf = .pbkdf2(iterations: try Self.int(params, "c"))
        default:
            throw .unsupportedKDF(kdfName)
        }
        salt = try Self.hex(params, "salt")
        derivedKeyLength = try Self.int(params, "dklen")
        guard let cipherParams = crypto["cipherparams"] else { throw .invalidJSON("missing \"crypto.cipherparams\"") }
        iv = try Self.hex(cipherParams, "iv")
        ciphertext = try Self.hex(crypto, "ciphertext")
        mac = try Self.hex(crypto, "mac")
        id = root["id"]?.stringValue ?? ""
        if let text = root["address"]?.stringValue, !text.isEmpty {
            guard let parsed = try? Address(text) else { throw .invalidJSON("\"address\" is not a 20-byte hex address") }
            address = parsed
        } else {
            address = nil
        }
    }

    /// The document as compact JSON, in the layout geth writes (address without `0x`, lowercase).
    public var json: String {
        let kdfName: String
        var params: [(key: String, value: JSONValue)] = [("dklen", .number(String(derivedKeyLength)))]
        switch kdf {
        case .scrypt(let n, let r, let p):
            kdfName = "scrypt"
            params += [("n", .number(String(n))), ("p", .number(String(p))), ("r", .number(String(r)))]
        case .pbkdf2(let c):
            kdfName = "pbkdf2"
            params += [("c", .number(String(c))), ("prf", .string("hmac-sha256"))]
        }
        params.append(("salt", .string(Hex.encode(salt, prefix: false))))
        var members: [(key: String, value: JSONValue)] = []
        if let address { members.append(("address", .string(Hex.encode(address.bytes, prefix: false)))) }
        members += [
            ("crypto", .object([
                ("cipher", .string("aes-128-ctr")),
                ("cipherparams", .object([("iv", .string(Hex.encode(iv, prefix: false)))])),
                ("ciphertext", .string(Hex.encode(ciphertext, prefix: false))),
                ("kdf", .string(kdfName)),
                ("kdfparams", .object(params)),
                ("mac", .string(Hex.encode(mac, prefix: false))),
            ])),
            ("id", .string(id)),
            ("version", .number("3")),
        ]
        return JSONValue.object(members).description
    }

    // MARK: Crypto

    /// The largest scrypt memory (128·r·n bytes), scrypt work (128·n·r·p bytes mixed) and PBKDF2 round count
    /// accepted from a file, so a hostile file cannot exhaust memory or time (see ``KDF/check()``).
    static let maxScryptMemory = 1 << 30
    static let maxScryptWork = 1 << 32
    static let maxPBKDF2Iterations = 10_000_000

    static func deriveKey(password: String, kdf: KDF, salt: [UInt8], length: Int) throws(KeystoreError) -> [UInt8] {
        guard (32...128).contains(length) else { throw .invalidParameter("dklen must be 32…128, got \(length)") }
        let passwordBytes = Array(password.utf8)
        do {
            switch kdf {
            case .scrypt(let n, let r, let p):
                try kdf.check()
                if kdf.isWithinRFC7914Bound {
                    let key = try CryptoExtras.KDF.Scrypt.deriveKey(
                        from: passwordBytes, salt: salt, outputByteCount: length, rounds: n, blockSize: r, parallelism: p)
                    return key.withUnsafeBytes { Array($0) }
                }
                return try Scrypt.deriveKey(password: passwordBytes, salt: salt, n: n, r: r, p: p, length: length)
            case .pbkdf2(let c):
                try kdf.check()
                let key = try CryptoExtras.KDF.Insecure.PBKDF2.deriveKey(
                    from: passwordBytes, salt: salt, using: .sha256, outputByteCount: length, unsafeUncheckedRounds: c)
                return key.withUnsafeBytes { Array($0) }
            }
        } catch let error as KeystoreError {
            throw error
        } catch {
            throw .cryptoFailure("\(kdf) failed: \(error)")
        }
    }

    static func aes128CTR(key: [UInt8], iv: [UInt8], data: [UInt8]) throws(KeystoreError) -> [UInt8] {
        do {
            let nonce = try AES._CTR.Nonce(nonceBytes: iv)
            return Array(try AES._CTR.encrypt(data, using: SymmetricKey(data: key), nonce: nonce))
        } catch {
            throw .cryptoFailure("AES-128-CTR failed: \(error)")
        }
    }

    // MARK: JSON field helpers

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .number(let n): return n
        case .string(let s): return s
        default: return value.description
        }
    }

    private static func string(_ object: JSONValue, _ key: String) throws(KeystoreError) -> String {
        guard let s = object[key]?.stringValue else { throw .invalidJSON("missing or non-string \"\(key)\"") }
        return s
    }

    private static func int(_ object: JSONValue, _ key: String) throws(KeystoreError) -> Int {
        guard case .number(let n)? = object[key], let v = Int(n), v >= 0 else {
            throw .invalidJSON("missing or non-integer \"\(key)\"")
        }
        return v
    }

    private static func hex(_ object: JSONValue, _ key: String) throws(KeystoreError) -> [UInt8] {
        let s = try string(object, key)
        guard let bytes = try? Hex.decode(s) else { throw .invalidJSON("\"\(key)\" is not hex") }
        return bytes
    }
}
