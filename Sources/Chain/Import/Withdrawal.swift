import EthereumPrimitives

/// A validator withdrawal pushed by the consensus layer (EIP-4895, Shanghai): `amount` gwei credited to
/// `address` after the block's transactions, with no gas and no EVM execution.
public struct Withdrawal: Sendable, Hashable {
    /// The withdrawal's global index.
    public var index: UInt64
    /// The validator's index.
    public var validatorIndex: UInt64
    /// The account credited.
    public var address: Address
    /// The amount in gwei.
    public var amount: UInt64

    /// Creates a withdrawal.
    public init(index: UInt64, validatorIndex: UInt64, address: Address, amount: UInt64) {
        self.index = index
        self.validatorIndex = validatorIndex
        self.address = address
        self.amount = amount
    }

    /// The amount in wei (gwei × 10^9; cannot overflow 256 bits).
    public var amountInWei: UInt256 { UInt256(amount) &* UInt256(1_000_000_000 as UInt64) }

    /// `RLP([index, validatorIndex, address, amount])`: what the block body and the withdrawals trie hold.
    public var rlp: RLPItem {
        .list([
            RLPItem(unsignedInteger: index), RLPItem(unsignedInteger: validatorIndex), .bytes(address.bytes),
            RLPItem(unsignedInteger: amount),
        ])
    }

    /// Decodes a withdrawal from its RLP list.
    public init(rlp item: RLPItem) throws(RLPError) {
        guard case .list(let fields) = item else { throw RLPError(.expectedList) }
        guard fields.count == 4 else { throw RLPError(.wrongFieldCount(expected: 4, actual: fields.count)) }
        self.init(
            index: try UInt64(rlp: fields[0]), validatorIndex: try UInt64(rlp: fields[1]),
            address: try Address(rlp: fields[2]), amount: try UInt64(rlp: fields[3]))
    }
}
