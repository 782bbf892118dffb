import Crypto
import CryptoExtras
import Foundation

/// scrypt cost parameters (RFC 7914): N = 2^logN iterations, block size r, parallelism p.
public struct ScryptParameters: Sendable, Hashable, Codable, CustomStringConvertible {
    /// log2 of the CPU/memory cost N.
    public var logN: Int
    /// The block size r.
    public var r: Int
    /// The parallelisation factor p.
    public var p: Int

    /// The production default: N = 2^15, r = 8, p = 1 (32 MiB, tens of milliseconds per hash). Firebase's own
    /// scrypt default is N = 2^14, r = 8, p = 1; one step more costs an attacker twice as much.
    public static let `default` = ScryptParameters(logN: 15, r: 8, p: 1)

    /// The bounds a stored hash's parameters must lie in; a tampered record cannot make one check take minutes.
    public static let accepted = (logN: 1...20, r: 1...32, p: 1...16)

    /// Creates parameters; check them with `isAcceptable` before use.
    public init(logN: Int, r: Int, p: Int) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// Whether the parameters lie within `accepted`.
    public var isAcceptable: Bool {
        Self.accepted.logN.contains(logN) && Self.accepted.r.contains(r) && Self.accepted.p.contains(p)
    }

    /// The PHC-style parameter list, e.g. `ln=15,r=8,p=1`.
    public var description: String { "ln=\(logN),r=\(r),p=\(p)" }
}

/// A stored password: scrypt's output together with the salt and the parameters that produced it, so the
/// parameters can be raised later without invalidating existing accounts.
public struct PasswordHash: Sendable, Equatable {
    /// The scrypt parameters used.
    public let parameters: ScryptParameters
    /// The random per-password salt (16 bytes).
    public let salt: [UInt8]
    /// scrypt's output (32 bytes).
    public let hash: [UInt8]

    /// Creates a hash record from its parts.
    public init(parameters: ScryptParameters, salt: [UInt8], hash: [UInt8]) {
        self.parameters = parameters
        self.salt = salt
        self.hash = hash
    }

    /// The PHC string format: `$scrypt$ln=15,r=8,p=1$<salt, base64url>$<hash, base64url>`.
    public var encoded: String {
        "$scrypt$\(parameters)$\(Base64URL.encode(salt))$\(Base64URL.encode(hash))"
    }

    /// Parses the PHC string written by `encoded`; nil when it is malformed or its parameters are out of bounds.
    public init?(encoded: String) {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt" else { return nil }
        var values: [Substring: Int] = [:]
        for pair in fields[2].split(separator: ",") {
            let keyValue = pair.split(separator: "=", maxSplits: 1)
            guard keyValue.count == 2, let value = Int(keyValue[1]) else { return nil }
            values[keyValue[0]] = value
        }
        guard let logN = values["ln"], let r = values["r"], let p = values["p"], values.count == 3 else { return nil }
        let parameters = ScryptParameters(logN: logN, r: r, p: p)
        guard parameters.isAcceptable,
            let salt = Base64URL.decode(fields[3]), !salt.isEmpty,
            let hash = Base64URL.decode(fields[4]), !hash.isEmpty
        else { return nil }
        self.init(parameters: parameters, salt: salt, hash: hash)
    }
}

/// Errors from password hashing.
public enum PasswordHasherError: Error, CustomStringConvertible, Equatable {
    /// The scrypt parameters are outside `ScryptParameters.accepted`.
    case unacceptableParameters(ScryptParameters)
    /// The scrypt computation itself failed (e.g. out of memory).
    case derivationFailed(String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .unacceptableParameters(let parameters):
            return "scrypt parameters \(parameters) are outside the accepted bounds "
                + "(ln 1...20, r 1...32, p 1...16)"
        case .derivationFailed(let reason):
            return "scrypt failed: \(reason)"
        }
    }
}

/// Hashes and checks passwords with scrypt (swift-crypto's `KDF.Scrypt`, BoringSSL underneath).
public struct PasswordHasher: Sendable {
    /// The parameters for new hashes.
    public let parameters: ScryptParameters
    /// Salt length in bytes.
    public static let saltLength = 16
    /// Output length in bytes.
    public static let hashLength = 32

    /// Creates a hasher that hashes new passwords with `parameters`.
    public init(parameters: ScryptParameters = .default) throws(PasswordHasherError) {
        guard parameters.isAcceptable else { throw .unacceptableParameters(parameters) }
        self.parameters = parameters
    }

    /// Hashes `password` with a fresh random salt.
    public func hash(_ password: String) throws(PasswordHasherError) -> PasswordHash {
        let salt = SecureRandom.bytes(Self.saltLength)
        let hash = try Self.derive(
            password: Array(password.utf8), salt: salt, parameters: parameters, length: Self.hashLength)
        return PasswordHash(parameters: parameters, salt: salt, hash: hash)
    }

    /// Whether `password` produces `stored`, compared in constant time.
    public func verify(_ password: String, against stored: PasswordHash) throws(PasswordHasherError) -> Bool {
        let candidate = try Self.derive(
            password: Array(password.utf8), salt: stored.salt, parameters: stored.parameters,
            length: stored.hash.count)
        return ConstantTime.equals(candidate, stored.hash)
    }

    /// A hash that no password matches, with this hasher's parameters: checking a password against it costs the
    /// same scrypt work as checking a real account, so an unknown email takes as long as a wrong password.
    public func unmatchableHash() -> PasswordHash {
        PasswordHash(
            parameters: parameters, salt: SecureRandom.bytes(Self.saltLength),
            hash: SecureRandom.bytes(Self.hashLength))
    }

    /// Raw scrypt (RFC 7914): `length` bytes derived from `password` and `salt`.
    public static func derive(
        password: [UInt8], salt: [UInt8], parameters: ScryptParameters, length: Int
    ) throws(PasswordHasherError) -> [UInt8] {
        guard parameters.isAcceptable else { throw .unacceptableParameters(parameters) }
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: length, rounds: 1 << parameters.logN,
                blockSize: parameters.r, parallelism: parameters.p)
            return key.withUnsafeBytes { [UInt8]($0) }
        } catch {
            throw .derivationFailed(String(describing: error))
        }
    }
}
