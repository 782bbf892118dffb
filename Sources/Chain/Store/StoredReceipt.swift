import EthereumPrimitives

/// The part of a receipt the database keeps besides the logs (which have their own table) and
/// what the transaction and header give (type, sender, recipient, blob fields).
struct StoredReceipt: Sendable, Equatable {
    var status: Bool
    var cumulativeGasUsed: UInt64
    var gasUsed: UInt64
    var effectiveGasPrice: UInt256
    var contractAddress: Address?
    var root: Bytes32?

    /// RLP `[status, cumulativeGasUsed, gasUsed, effectiveGasPrice, contractAddress or "", root or ""]`.
    var encoded: [UInt8] {
        RLP.encode(
            .list([
                .bytes(status ? [1] : []), RLPItem(unsignedInteger: cumulativeGasUsed), RLPItem(unsignedInteger: gasUsed),
                .bytes(effectiveGasPrice.minimalBigEndianBytes), .bytes(contractAddress?.bytes ?? []),
                .bytes(root?.bytes ?? []),
            ]))
    }

    init(
        status: Bool, cumulativeGasUsed: UInt64, gasUsed: UInt64, effectiveGasPrice: UInt256, contractAddress: Address?,
        root: Bytes32?
    ) {
        self.status = status
        self.cumulativeGasUsed = cumulativeGasUsed
        self.gasUsed = gasUsed
        self.effectiveGasPrice = effectiveGasPrice
        self.contractAddress = contractAddress
        self.root = root
    }

    init(encoded: [UInt8]) throws(RLPError) {
        let f = try RLP.decode(encoded).list(expectedCount: 6)
        status = try Bool(rlp: f[0])
        cumulativeGasUsed = try UInt64(rlp: f[1])
        gasUsed = try UInt64(rlp: f[2])
        effectiveGasPrice = UInt256(truncatingBigEndian: try f[3].unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256"))
        let contract = try f[4].byteString()
        contractAddress = contract.isEmpty ? nil : Address(bytes: contract)
        let rootBytes = try f[5].byteString()
        root = rootBytes.isEmpty ? nil : Bytes32(rootBytes)
    }
}
