import CSecp256k1
import EthereumPrimitives

/// A secp256k1 private key: 32 bytes in the range 1 ..< n.
///
/// Its `description` never shows the key; read ``rawBytes`` explicitly when a key must leave the process
/// (keystore encryption, an explicit `--show-private-key`).
public struct PrivateKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    private let storage: Bytes32

    /// Validates and wraps 32 bytes.
    public init<C: Collection>(bytes: C) throws(Secp256k1.Error) where C.Element == UInt8 {
        guard bytes.count == 32, let value = Bytes32(bytes) else {
            throw .invalidPrivateKey("expected 32 bytes, got \(bytes.count)")
        }
        guard value != .zero else { throw .invalidPrivateKey("zero is not a valid key") }
        guard value < Secp256k1.curveOrder else { throw .invalidPrivateKey("not below the secp256k1 curve order") }
        storage = value
    }

    /// Parses 64 hex digits (optional `0x`). Error messages never echo the input.
    public init(hex: String) throws(Secp256k1.Error) {
        let bytes: [UInt8]
        do { bytes = try Hex.decode(hex) } catch { throw .invalidPrivateKey("not valid hex (\(error.kindDescription))") }
        try self.init(bytes: bytes)
    }

    /// A fresh key from the system's cryptographically secure generator.
    public static func random() -> PrivateKey {
        var generator = SystemRandomNumberGenerator()
        while true {
            var bytes = [UInt8](repeating: 0, count: 32)
            for i in 0..<32 { bytes[i] = generator.next() }
            if let key = try? PrivateKey(bytes: bytes) { return key }
        }
    }

    /// The 32 secret bytes. Handle with care: never log them.
    public var rawBytes: [UInt8] { storage.bytes }

    /// Calls `body` with the 32 secret bytes, without copying them to the heap.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes(body)
    }

    /// The public key (computed with libsecp256k1).
    public var publicKey: PublicKey {
        var pubkey = secp256k1_pubkey()
        let ok = withUnsafeBytes { seckey in
            secp256k1_ec_pubkey_create(Secp256k1.context.pointer, &pubkey, seckey.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        precondition(ok == 1, "libsecp256k1 rejected a validated private key")
        return PublicKey(libsecp256k1: pubkey)
    }

    /// The Ethereum address of this key.
    public var address: Address { publicKey.address }

    /// Signs a 32-byte hash (RFC 6979, low-s).
    public func sign(hash: Bytes32) -> Signature { Secp256k1.sign(hash: hash, with: self) }

    public var description: String { "PrivateKey(<redacted>)" }
    public var debugDescription: String { description }
}

extension Hex.Error {
    /// The kind of problem without the offending text (used where the input is secret).
    var kindDescription: String {
        switch self {
        case .oddLength: return "odd number of digits"
        case .invalidCharacter(_, let offset): return "invalid digit at offset \(offset)"
        }
    }
}
