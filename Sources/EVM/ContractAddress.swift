import EthereumPrimitives

/// Addresses of new contracts.
public enum ContractAddress {
    /// CREATE and creation transactions: the last 20 bytes of keccak256(rlp([sender, nonce])).
    public static func create(sender: Address, nonce: UInt64) -> Address {
        let encoded = RLP.encode(.list([.bytes(sender.bytes), RLPItem(unsignedInteger: nonce)]))
        return Address(bytes32: Keccak256.hash(encoded))
    }

    /// CREATE2 (EIP-1014): the last 20 bytes of keccak256(0xff ‖ sender ‖ salt ‖ keccak256(initCode)).
    public static func create2(sender: Address, salt: UInt256, initCodeHash: Bytes32) -> Address {
        var preimage = [UInt8]()
        preimage.reserveCapacity(85)
        preimage.append(0xff)
        preimage.append(contentsOf: sender.bytes)
        preimage.append(contentsOf: salt.bigEndianBytes)
        preimage.append(contentsOf: initCodeHash.bytes)
        return Address(bytes32: Keccak256.hash(preimage))
    }
}

extension Bytes32 {
    /// keccak256 of the empty string: the code hash of an account without code.
    public static let emptyCodeHash = Bytes32(
        words: (0xc5d2_4601_86f7_233c, 0x927e_7db2_dcc7_03c0, 0xe500_b653_ca82_273b, 0x7bfa_d804_5d85_a470))
}
