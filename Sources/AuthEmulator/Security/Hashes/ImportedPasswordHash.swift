import Crypto
import CryptoExtras
import Foundation

/// How an imported password was hashed: the `hashAlgorithm` of `accounts:batchCreate` (the Admin SDKs'
/// `import_users` with a `UserImportHash`) and its parameters. The conventions are Firebase's, as its Admin SDKs'
/// integration tests against production compute them (firebase-admin-node `test/integration/auth.spec.ts`):
/// - `MD5`: `x = md5(salt ‖ password)`, then `rounds` times `x = md5(x ‖ password)`; the hash is `x`'s lowercase hex;
/// - `SHA1`, `SHA256`, `SHA512`: `x = H(salt ‖ password)` (`password ‖ salt` with `PASSWORD_AND_SALT`), then
///   `x = H(x)` until `max(rounds, 1)` applications;
/// - `HMAC_MD5`, `HMAC_SHA1`, `HMAC_SHA256`, `HMAC_SHA512`: `HMAC(signerKey, password ‖ salt)` (`salt ‖ password`
///   with `SALT_AND_PASSWORD`);
/// - `PBKDF_SHA1`, `PBKDF2_SHA256`: PBKDF2 with `rounds` iterations and the stored hash's length;
/// - `SCRYPT` (Firebase's own): `AES-256-CTR(key: scrypt(password, salt ‖ saltSeparator, N = 2^memoryCost,
///   r = rounds, p = 1)[0..<32], counter 0)` applied to `signerKey` (github.com/firebase/scrypt);
/// - `STANDARD_SCRYPT`: scrypt(password, salt, N = cpuMemCost, r = blockSize, p = parallelization, dkLen);
/// - `BCRYPT`: the hash is the modular-crypt string itself (`$2b$10$…`).
public enum PasswordHashAlgorithm: Sendable, Equatable {
    /// A digest family.
    public enum Digest: String, Sendable, Equatable {
        case md5 = "MD5", sha1 = "SHA1", sha256 = "SHA256", sha512 = "SHA512"
    }

    /// Which of salt and password comes first in the hashed input.
    public enum Order: String, Sendable, Equatable {
        case saltFirst = "SALT_AND_PASSWORD", passwordFirst = "PASSWORD_AND_SALT"
    }

    case md5(rounds: Int)
    case sha(Digest, rounds: Int, order: Order)
    case hmac(Digest, key: [UInt8], order: Order)
    case pbkdf2(Digest, rounds: Int)
    case firebaseScrypt(signerKey: [UInt8], saltSeparator: [UInt8], rounds: Int, memoryCost: Int)
    case standardScrypt(cpuMemCost: Int, blockSize: Int, parallelization: Int, keyLength: Int)
    case bcrypt

    /// The bounds Firebase validates at import (its Admin SDKs check the same): digest rounds 0–8192, PBKDF rounds
    /// 0–120000, Firebase scrypt rounds 1–8 and memory cost 1–14. Standard scrypt and the PBKDF output have no
    /// published bound; these keep one sign-in under a second and 64 MiB.
    static let digestRounds = 0...8192
    static let pbkdfRounds = 0...120_000
    static let firebaseScryptRounds = 1...8
    static let firebaseScryptMemoryCost = 1...14
    static let standardScryptMemory = 128 * 8 * 65_536
    static let standardScryptParallelization = 1...16
    static let keyLengths = 1...1024

    /// The name of the algorithm as the API spells it (`HMAC_SHA256`, `PBKDF_SHA1`, …).
    public var name: String {
        switch self {
        case .md5: return "MD5"
        case .sha(let digest, _, _): return digest.rawValue
        case .hmac(let digest, _, _): return "HMAC_" + digest.rawValue
        case .pbkdf2(let digest, _): return digest == .sha1 ? "PBKDF_SHA1" : "PBKDF2_" + digest.rawValue
        case .firebaseScrypt: return "SCRYPT"
        case .standardScrypt: return "STANDARD_SCRYPT"
        case .bcrypt: return "BCRYPT"
        }
    }

    /// Whether the parameters are within the bounds above (a stored hash is re-checked before every use, so a
    /// hand-edited database cannot make a sign-in run for minutes).
    var isWithinBounds: Bool {
        switch self {
        case .md5(let rounds), .sha(_, let rounds, _): return Self.digestRounds.contains(rounds)
        case .hmac(_, let key, _): return !key.isEmpty
        case .pbkdf2(_, let rounds): return Self.pbkdfRounds.contains(rounds)
        case .firebaseScrypt(let key, _, let rounds, let memoryCost):
            return !key.isEmpty && Self.firebaseScryptRounds.contains(rounds)
                && Self.firebaseScryptMemoryCost.contains(memoryCost)
        case .standardScrypt(let n, let r, let p, let length):
            guard n > 1, n & (n - 1) == 0, r >= 1, Self.standardScryptParallelization.contains(p),
                Self.keyLengths.contains(length)
            else { return false }
            let (memory, overflow) = n.multipliedReportingOverflow(by: 128 &* min(r, 1 << 20))
            return !overflow && r <= 1 << 20 && memory <= Self.standardScryptMemory
        case .bcrypt: return true
        }
    }
}

/// A password hash imported from another system, kept until the account's first successful sign-in replaces it with
/// the service's own scrypt (as Firebase does: "Firebase Auth will rehash the password the first time that account
/// successfully logs in", github.com/firebase/scrypt).
public struct ImportedPasswordHash: Sendable, Equatable {
    /// How it was computed.
    public var algorithm: PasswordHashAlgorithm
    /// The salt (may be empty).
    public var salt: [UInt8]
    /// The hash.
    public var hash: [UInt8]

    /// The lengths accepted for a stored hash and its salt (bytes): they bound the work of one check (PBKDF2
    /// derives as many bytes as the stored hash has).
    public static let hashLengths = 1...1024
    public static let saltLengths = 0...1024

    /// Creates a record.
    public init(algorithm: PasswordHashAlgorithm, salt: [UInt8], hash: [UInt8]) {
        self.algorithm = algorithm
        self.salt = salt
        self.hash = hash
    }

    /// Whether `password` produces this hash (compared in constant time). Parameters, a hash or a salt outside the
    /// bounds match nothing.
    public func verify(_ password: String) -> Bool {
        guard Self.hashLengths.contains(hash.count), Self.saltLengths.contains(salt.count), algorithm.isWithinBounds
        else { return false }
        let password = Array(password.utf8)
        if case .bcrypt = algorithm {
            return Bcrypt.verify(password: password, against: String(decoding: hash, as: UTF8.self))
        }
        guard let derived = try? Self.derive(algorithm, password: password, salt: salt, length: hash.count) else {
            return false
        }
        return ConstantTime.equals(derived, hash)
    }

    /// The hash `algorithm` computes for `password` and `salt`; `length` is the stored hash's (PBKDF2's output).
    public static func derive(_ algorithm: PasswordHashAlgorithm, password: [UInt8], salt: [UInt8], length: Int)
        throws -> [UInt8]
    {
        switch algorithm {
        case .md5(let rounds):
            var x = digest(.md5, salt + password)
            for _ in 0..<rounds { x = digest(.md5, x + password) }
            return Array(x.map { String(format: "%02x", $0) }.joined().utf8)
        case .sha(let family, let rounds, let order):
            var x = digest(family, order == .saltFirst ? salt + password : password + salt)
            for _ in 1..<max(rounds, 1) { x = digest(family, x) }
            return x
        case .hmac(let family, let key, let order):
            return hmac(family, key: key, message: order == .saltFirst ? salt + password : password + salt)
        case .pbkdf2(let family, let rounds):
            let function: KDF.Insecure.PBKDF2.HashFunction = family == .sha1 ? .insecureSHA1 : .sha256
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: function, outputByteCount: length,
                unsafeUncheckedRounds: max(rounds, 1))
            return key.withUnsafeBytes { Array($0) }
        case .firebaseScrypt(let signerKey, let separator, let rounds, let memoryCost):
            return try FirebaseScrypt.hash(
                password: password, salt: salt, saltSeparator: separator, signerKey: signerKey, rounds: rounds,
                memoryCost: memoryCost)
        case .standardScrypt(let n, let r, let p, let keyLength):
            let key = try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: keyLength, rounds: n, blockSize: r, parallelism: p)
            return key.withUnsafeBytes { Array($0) }
        case .bcrypt:
            return []
        }
    }

    static func digest(_ family: PasswordHashAlgorithm.Digest, _ input: [UInt8]) -> [UInt8] {
        switch family {
        case .md5: return Array(Insecure.MD5.hash(data: input))
        case .sha1: return Array(Insecure.SHA1.hash(data: input))
        case .sha256: return Array(SHA256.hash(data: input))
        case .sha512: return Array(SHA512.hash(data: input))
        }
    }

    static func hmac(_ family: PasswordHashAlgorithm.Digest, key: [UInt8], message: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: key)
        switch family {
        case .md5: return Array(HMAC<Insecure.MD5>.authenticationCode(for: message, using: key))
        case .sha1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
        case .sha512: return Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
        }
    }

    // MARK: Storage

    /// The stored form: `$import$<algorithm and parameters>$<salt>$<hash>` (base64url), e.g.
    /// `$import$SHA256,rounds=1,order=SALT_AND_PASSWORD$TmFDbA$…`.
    public var encoded: String {
        "$import$\(Self.parameters(algorithm))$\(Base64URL.encode(salt))$\(Base64URL.encode(hash))"
    }

    /// Parses `encoded`; nil when malformed.
    public init?(encoded: String) {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "import",
            let algorithm = Self.algorithm(fields[2]),
            let salt = Base64URL.decode(fields[3]), let hash = Base64URL.decode(fields[4])
        else { return nil }
        self.init(algorithm: algorithm, salt: salt, hash: hash)
    }

    private static func parameters(_ algorithm: PasswordHashAlgorithm) -> String {
        var fields = [algorithm.name]
        switch algorithm {
        case .md5(let rounds): fields.append("rounds=\(rounds)")
        case .sha(_, let rounds, let order): fields += ["rounds=\(rounds)", "order=\(order.rawValue)"]
        case .hmac(_, let key, let order): fields += ["key=\(Base64URL.encode(key))", "order=\(order.rawValue)"]
        case .pbkdf2(_, let rounds): fields.append("rounds=\(rounds)")
        case .firebaseScrypt(let key, let separator, let rounds, let memoryCost):
            fields += [
                "key=\(Base64URL.encode(key))", "separator=\(Base64URL.encode(separator))", "rounds=\(rounds)",
                "memoryCost=\(memoryCost)",
            ]
        case .standardScrypt(let n, let r, let p, let length):
            fields += ["n=\(n)", "r=\(r)", "p=\(p)", "dkLen=\(length)"]
        case .bcrypt: break
        }
        return fields.joined(separator: ",")
    }

    private static func algorithm(_ text: Substring) -> PasswordHashAlgorithm? {
        let fields = text.split(separator: ",")
        guard let name = fields.first else { return nil }
        var values: [Substring: Substring] = [:]
        for field in fields.dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { return nil }
            values[pair[0]] = pair[1]
        }
        func int(_ key: Substring) -> Int? { values[key].flatMap { Int($0) } }
        func bytes(_ key: Substring) -> [UInt8]? { values[key].flatMap { Base64URL.decode($0) } }
        func order(_ key: Substring) -> PasswordHashAlgorithm.Order? {
            values[key].flatMap { PasswordHashAlgorithm.Order(rawValue: String($0)) }
        }
        let digests: [Substring: PasswordHashAlgorithm.Digest] = ["SHA1": .sha1, "SHA256": .sha256, "SHA512": .sha512]
        let hmacs: [Substring: PasswordHashAlgorithm.Digest] = [
            "HMAC_MD5": .md5, "HMAC_SHA1": .sha1, "HMAC_SHA256": .sha256, "HMAC_SHA512": .sha512,
        ]
        switch name {
        case "MD5": return int("rounds").map { .md5(rounds: $0) }
        case "BCRYPT": return .bcrypt
        case "PBKDF_SHA1": return int("rounds").map { .pbkdf2(.sha1, rounds: $0) }
        case "PBKDF2_SHA256": return int("rounds").map { .pbkdf2(.sha256, rounds: $0) }
        case "SCRYPT":
            guard let key = bytes("key"), let separator = bytes("separator"), let rounds = int("rounds"),
                let memoryCost = int("memoryCost")
            else { return nil }
            return .firebaseScrypt(signerKey: key, saltSeparator: separator, rounds: rounds, memoryCost: memoryCost)
        case "STANDARD_SCRYPT":
            guard let n = int("n"), let r = int("r"), let p = int("p"), let length = int("dkLen") else { return nil }
            return .standardScrypt(cpuMemCost: n, blockSize: r, parallelization: p, keyLength: length)
        default:
            if let family = digests[name], let rounds = int("rounds"), let order = order("order") {
                return .sha(family, rounds: rounds, order: order)
            }
            if let family = hmacs[name], let key = bytes("key"), let order = order("order") {
                return .hmac(family, key: key, order: order)
            }
            return nil
        }
    }
}

/// Firebase's modified scrypt (github.com/firebase/scrypt, `scryptenc_buf_saltlen`): a 64-byte scrypt key of the
/// password with N = 2^memoryCost, r = rounds, p = 1 and salt ‖ saltSeparator; its first 32 bytes key AES-256 in
/// counter mode (nonce 0, block counter from 0), which encrypts the project's signer key. The result is the hash.
public enum FirebaseScrypt {
    /// The hash of `password`.
    public static func hash(
        password: [UInt8], salt: [UInt8], saltSeparator: [UInt8], signerKey: [UInt8], rounds: Int, memoryCost: Int
    ) throws -> [UInt8] {
        let derived = try KDF.Scrypt.deriveKey(
            from: password, salt: salt + saltSeparator, outputByteCount: 64, rounds: 1 << memoryCost,
            blockSize: rounds, parallelism: 1)
        let key = derived.withUnsafeBytes { SymmetricKey(data: Array($0.prefix(32))) }
        let cipher = try AES._CTR.encrypt(signerKey, using: key, nonce: AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16)))
        return Array(cipher)
    }
}
