import CSecp256k1
import EthereumPrimitives

/// A secp256k1 public key, held as its 64-byte uncompressed form (x ‖ y, without the 0x04 prefix).
public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
    /// x ‖ y, 64 bytes.
    public let rawBytes: [UInt8]

    /// Parses a 33-byte compressed, 65-byte uncompressed (0x04 …) or 64-byte raw (x ‖ y) key and checks it is on the curve.
    public init<C: Collection>(bytes: C) throws(Secp256k1.Error) where C.Element == UInt8 {
        var input = Array(bytes)
        if input.count == 64 { input.insert(0x04, at: 0) }
        guard input.count == 33 || input.count == 65 else {
            throw .invalidPublicKey("expected 33, 64 or 65 bytes, got \(bytes.count)")
        }
        var pubkey = secp256k1_pubkey()
        guard secp256k1_ec_pubkey_parse(Secp256k1.context.pointer, &pubkey, input, input.count) == 1 else {
            throw .invalidPublicKey("not a point on secp256k1")
        }
        self.init(libsecp256k1: pubkey)
    }

    /// Parses hex of any form accepted by ``init(bytes:)``.
    public init(hex: String) throws(Secp256k1.Error) {
        let bytes: [UInt8]
        do { bytes = try Hex.decode(hex) } catch { throw .invalidPublicKey(error.description) }
        try self.init(bytes: bytes)
    }

    init(libsecp256k1 pubkey: secp256k1_pubkey) {
        var key = pubkey
        rawBytes = [UInt8](unsafeUninitializedCapacity: 65) { buffer, count in
            var length = 65
            _ = secp256k1_ec_pubkey_serialize(
                Secp256k1.context.pointer, buffer.baseAddress!, &length, &key, UInt32(SECP256K1_EC_UNCOMPRESSED))
            // Drop the 0x04 prefix in place.
            for i in 0..<64 { buffer[i] = buffer[i + 1] }
            count = 64
        }
    }

    var libsecp256k1Value: secp256k1_pubkey {
        var pubkey = secp256k1_pubkey()
        let input = [0x04] + rawBytes
        _ = secp256k1_ec_pubkey_parse(Secp256k1.context.pointer, &pubkey, input, input.count)
        return pubkey
    }

    /// 65 bytes: 0x04 ‖ x ‖ y.
    public var uncompressed: [UInt8] { [0x04] + rawBytes }

    /// 33 bytes: 0x02/0x03 (parity of y) ‖ x.
    public var compressed: [UInt8] { [0x02 | (rawBytes[63] & 1)] + rawBytes[0..<32] }

    /// The Ethereum address: the last 20 bytes of keccak256(x ‖ y).
    public var address: Address {
        // rawBytes is always 64 bytes, which is all Address(publicKey:) checks.
        Address(publicKey: rawBytes)!
    }

    public var description: String { Hex.encode(uncompressed) }
}
