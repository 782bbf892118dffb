import CSecp256k1
import EthereumPrimitives

// Scalar and point tweaks for BIP-32 child key derivation.

extension PrivateKey {
    /// (self + tweak) mod n, or nil when the tweak is not below n or the sum is zero (BIP-32 then says to skip
    /// that child index).
    public func addingTweak(_ tweak: Bytes32) -> PrivateKey? {
        var key = rawBytes
        var tweakBytes = tweak.bytes
        let ok = secp256k1_ec_seckey_tweak_add(Secp256k1.context.pointer, &key, &tweakBytes)
        defer { for i in key.indices { key[i] = 0 } }
        guard ok == 1 else { return nil }
        return try? PrivateKey(bytes: key)
    }
}

extension PublicKey {
    /// self + tweak·G, or nil when the tweak is not below n or the sum is the point at infinity.
    public func addingTweak(_ tweak: Bytes32) -> PublicKey? {
        var pubkey = libsecp256k1Value
        var tweakBytes = tweak.bytes
        guard secp256k1_ec_pubkey_tweak_add(Secp256k1.context.pointer, &pubkey, &tweakBytes) == 1 else { return nil }
        return PublicKey(libsecp256k1: pubkey)
    }
}
