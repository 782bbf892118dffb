import EthereumPrimitives

/// EIP-191 version 0x45 ("personal_sign") messages: the signed hash is
/// keccak256("\u{19}Ethereum Signed Message:\n" ‖ decimal length ‖ message), so a signed message can never be
/// a valid transaction.
public enum PersonalMessage {
    /// The EIP-191 hash of `message`.
    public static func hash(_ message: [UInt8]) -> Bytes32 {
        var hasher = Keccak256()
        hasher.update(Array("\u{19}Ethereum Signed Message:\n\(message.count)".utf8))
        hasher.update(message)
        return hasher.finalize()
    }

    /// The EIP-191 hash of a text message (its UTF-8 bytes).
    public static func hash(_ text: String) -> Bytes32 { hash(Array(text.utf8)) }

    /// Signs `message` as `personal_sign` does; ``Signature/rsv`` is the 65-byte form with v = 27/28.
    public static func sign(_ message: [UInt8], with key: PrivateKey) -> Signature { key.sign(hash: hash(message)) }

    /// The address that signed `message`. High-s signatures are rejected (libsecp256k1 never makes them).
    public static func recoverSigner(_ message: [UInt8], signature: Signature) throws(Secp256k1.Error) -> Address {
        try Secp256k1.recover(hash: hash(message), signature: signature).address
    }

    /// True when `signature` over `message` recovers to `address`.
    public static func verify(_ message: [UInt8], signature: Signature, address: Address) -> Bool {
        (try? recoverSigner(message, signature: signature)) == address
    }
}
