import Crypto
import EthereumPrimitives

/// A BIP-32 extended private key: a secp256k1 key plus the chain code needed to derive its children.
///
/// Its `description` never shows the key; ``serialized`` (the `xprv…` string) is secret too.
public struct ExtendedPrivateKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key at this node.
    public let privateKey: PrivateKey
    /// The chain code (32 bytes).
    public let chainCode: [UInt8]
    /// 0 for the master key, 1 for its children, …
    public let depth: UInt8
    /// The first four bytes of the parent's hash160 (0 for the master key).
    public let parentFingerprint: UInt32
    /// The index this key was derived with (hardened ones have bit 31 set).
    public let childNumber: UInt32

    /// The master key of `seed` (16–64 bytes, e.g. a BIP-39 seed): HMAC-SHA512 keyed with "Bitcoin seed".
    public init(seed: [UInt8]) throws(HDWalletError) {
        guard (16...64).contains(seed.count) else { throw .invalidSeedLength(seed.count) }
        let i = Self.hmacSHA512(key: Array("Bitcoin seed".utf8), data: seed)
        guard let key = try? PrivateKey(bytes: i[0..<32]) else { throw .invalidDerivedKey(index: 0) }
        self.init(privateKey: key, chainCode: Array(i[32..<64]), depth: 0, parentFingerprint: 0, childNumber: 0)
    }

    /// The master key of a BIP-39 mnemonic (with an optional passphrase).
    public init(mnemonic: Mnemonic, passphrase: String = "") throws(HDWalletError) {
        try self.init(seed: try mnemonic.seed(passphrase: passphrase))
    }

    init(privateKey: PrivateKey, chainCode: [UInt8], depth: UInt8, parentFingerprint: UInt32, childNumber: UInt32) {
        self.privateKey = privateKey
        self.chainCode = chainCode
        self.depth = depth
        self.parentFingerprint = parentFingerprint
        self.childNumber = childNumber
    }

    /// CKDpriv: the child at `index` (hardened when bit 31 is set).
    public func derive(_ index: UInt32) throws(HDWalletError) -> ExtendedPrivateKey {
        var data: [UInt8]
        if index >= DerivationPath.hardenedBit {
            data = [0] + privateKey.rawBytes
        } else {
            data = privateKey.publicKey.compressed
        }
        data += Self.bigEndian(index)
        let i = Self.hmacSHA512(key: chainCode, data: data)
        guard let tweak = Bytes32(i[0..<32]), let child = privateKey.addingTweak(tweak) else {
            throw .invalidDerivedKey(index: index)
        }
        return ExtendedPrivateKey(
            privateKey: child, chainCode: Array(i[32..<64]), depth: depth &+ 1, parentFingerprint: fingerprint,
            childNumber: index)
    }

    /// Derives along `path` from this key.
    public func derive(path: DerivationPath) throws(HDWalletError) -> ExtendedPrivateKey {
        var key = self
        for index in path.indices { key = try key.derive(index) }
        return key
    }

    /// The matching extended public key.
    public var extendedPublicKey: ExtendedPublicKey {
        ExtendedPublicKey(
            publicKey: privateKey.publicKey, chainCode: chainCode, depth: depth, parentFingerprint: parentFingerprint,
            childNumber: childNumber)
    }

    /// The first four bytes of hash160(compressed public key), as children record it.
    public var fingerprint: UInt32 { extendedPublicKey.fingerprint }

    /// The Ethereum address of the key.
    public var address: Address { privateKey.address }

    /// The `xprv…` Base58Check form (mainnet version bytes 0x0488ADE4). Secret.
    public var serialized: String {
        Base58Check.encode(
            Self.bigEndian(0x0488_ADE4) + [depth] + Self.bigEndian(parentFingerprint) + Self.bigEndian(childNumber)
                + chainCode + [0] + privateKey.rawBytes)
    }

    public var description: String { "ExtendedPrivateKey(depth \(depth), <redacted>)" }
    public var debugDescription: String { description }

    static func hmacSHA512(key: [UInt8], data: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA512>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}

/// A BIP-32 extended public key: derives non-hardened children without any private key.
public struct ExtendedPublicKey: Sendable, Equatable, CustomStringConvertible {
    /// The public key at this node.
    public let publicKey: PublicKey
    /// The chain code (32 bytes).
    public let chainCode: [UInt8]
    /// 0 for the master key, 1 for its children, …
    public let depth: UInt8
    /// The first four bytes of the parent's hash160 (0 for the master key).
    public let parentFingerprint: UInt32
    /// The index this key was derived with.
    public let childNumber: UInt32

    init(publicKey: PublicKey, chainCode: [UInt8], depth: UInt8, parentFingerprint: UInt32, childNumber: UInt32) {
        self.publicKey = publicKey
        self.chainCode = chainCode
        self.depth = depth
        self.parentFingerprint = parentFingerprint
        self.childNumber = childNumber
    }

    /// Parses an `xpub…` string.
    public init(serialized text: String) throws(HDWalletError) {
        let payload = try Base58Check.decode(text)
        guard payload.count == 78 else { throw .invalidExtendedKey("expected 78 bytes, got \(payload.count)") }
        guard Array(payload[0..<4]) == ExtendedPrivateKey.bigEndian(0x0488_B21E) else {
            throw .invalidExtendedKey("not an xpub (version bytes)")
        }
        func u32(_ at: Int) -> UInt32 { payload[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) } }
        guard let key = try? PublicKey(bytes: payload[45..<78]) else { throw .invalidExtendedKey("not a point on secp256k1") }
        self.init(publicKey: key, chainCode: Array(payload[13..<45]), depth: payload[4], parentFingerprint: u32(5), childNumber: u32(9))
    }

    /// CKDpub: the non-hardened child at `index`.
    public func derive(_ index: UInt32) throws(HDWalletError) -> ExtendedPublicKey {
        guard index < DerivationPath.hardenedBit else { throw .hardenedFromPublic(index: index) }
        let i = ExtendedPrivateKey.hmacSHA512(key: chainCode, data: publicKey.compressed + ExtendedPrivateKey.bigEndian(index))
        guard let tweak = Bytes32(i[0..<32]), let child = publicKey.addingTweak(tweak) else {
            throw .invalidDerivedKey(index: index)
        }
        return ExtendedPublicKey(
            publicKey: child, chainCode: Array(i[32..<64]), depth: depth &+ 1, parentFingerprint: fingerprint, childNumber: index)
    }

    /// The first four bytes of RIPEMD-160(SHA-256(compressed public key)).
    public var fingerprint: UInt32 {
        let hash160 = RIPEMD160.hash(Array(SHA256.hash(data: publicKey.compressed)))
        return hash160[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The Ethereum address of the key.
    public var address: Address { publicKey.address }

    /// The `xpub…` Base58Check form (mainnet version bytes 0x0488B21E).
    public var serialized: String {
        Base58Check.encode(
            ExtendedPrivateKey.bigEndian(0x0488_B21E) + [depth] + ExtendedPrivateKey.bigEndian(parentFingerprint)
                + ExtendedPrivateKey.bigEndian(childNumber) + chainCode + publicKey.compressed)
    }

    public var description: String { serialized }
}
